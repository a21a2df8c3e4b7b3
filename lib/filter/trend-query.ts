import { parseDay } from '../dates';
import { clip, type Problem, ValidationError } from '../errors';
import { type LocationField, locationFields } from '../model/action';
import { bucketCount, MAX_TREND_BUCKETS, type TrendInterval, trendIntervals } from '../model/trends';
import { splitQueryString } from './query';

/**
 * The trend query of contract section 17, `GET /api/actions/trends?interval=&from=&to=&<filters>`,
 * parsed and checked. Pure: throws only `ValidationError`, naming every parameter that is wrong.
 *
 * Filters are `=` only, each at most once: any of the location fields (the counters are kept per
 * location prefix; a field without the ones before it stands for every prefix it is found in),
 * and at most one of producer, priority,
 * assignee and owner, with a location no deeper than the department. Those are the slices the
 * counters keep (`lib/store/trends/trend-counters.ts`); anything else could not be answered
 * exactly, so it is refused rather than answered wrong.
 */

export const otherTrendFields = ['actionProducer.name', 'priority', 'assignee', 'owner'] as const;
export type OtherTrendField = (typeof otherTrendFields)[number];

/** How deep a location may be when another field is filtered too (`PAIRED_DEPTH` of the counters). */
const PAIRED_DEPTH = 3;

export interface TrendQuery {
  interval: TrendInterval;
  from: string;
  to: string;
  /** The location filters as given (`=` each). */
  location: Partial<Record<LocationField, string>>;
  /** How deep the deepest location filter is (1 for the business unit, 0 for none). */
  depth: number;
  /**
   * The location filters as a prefix, when they name every field down to the deepest; otherwise
   * the prefixes are the stored locations they hold for, found by the trend (`lib/trends/`).
   */
  prefix?: string[];
  other?: { field: OtherTrendField; value: string };
}

const OPERATORS = new Set(['!', '*', '<', '>', '~']);
const INTEGER = /^\d{1,15}$/;

/** `callerId` stands for `me` in `owner` and `assignee`; `today` (`YYYY-MM-DD`, UTC) is the latest `to`. */
export function parseTrendQuery(raw: string, callerId: string, today: string): TrendQuery {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const given = new Map<string, string>();
  for (const [name, value] of splitQueryString(raw)) {
    if (seen.has(name)) {
      problems.push({ parameter: clip(name), message: 'may appear only once' });
      continue;
    }
    seen.add(name);
    given.set(name, value);
  }

  const interval = given.get('interval');
  if (interval === undefined)
    problems.push({ parameter: 'interval', message: "is required: 'day', 'week' or 'month'" });
  else if (!(trendIntervals as readonly string[]).includes(interval))
    problems.push({ parameter: 'interval', message: "must be 'day', 'week' or 'month'" });
  const day = (name: 'from' | 'to'): string | undefined => {
    const text = given.get(name);
    if (text === undefined) problems.push({ parameter: name, message: 'is required: a date, YYYY-MM-DD (UTC)' });
    else if (!parseDay(text)) problems.push({ parameter: name, message: `'${clip(text)}' is not a date, YYYY-MM-DD` });
    else return text;
    return undefined;
  };
  const from = day('from');
  const to = day('to');
  if (to !== undefined && to > today)
    problems.push({ parameter: 'to', message: `must be today (${today}, UTC) or earlier` });
  if (from !== undefined && to !== undefined && from > to)
    problems.push({ parameter: 'from', message: 'must be on or before to' });
  else if (from !== undefined && to !== undefined && isTrendInterval(interval)) {
    if (bucketCount(interval, from, to) > MAX_TREND_BUCKETS)
      problems.push({
        parameter: 'from',
        message: `the range from ${from} to ${to} makes more than ${MAX_TREND_BUCKETS} ${interval} buckets`,
      });
  }

  const location = new Map<LocationField, string>();
  let other: TrendQuery['other'];
  for (const [name, raw] of given) {
    if (name === 'interval' || name === 'from' || name === 'to') continue;
    const field = name.startsWith('location.') ? (name.slice(9) as LocationField) : undefined;
    const isLocation = field !== undefined && (locationFields as readonly string[]).includes(field);
    const isOther = (otherTrendFields as readonly string[]).includes(name);
    if (!isLocation && !isOther) {
      problems.push({
        parameter: clip(name),
        message:
          'is not a trend filter: a trend filters on location.<field>, actionProducer.name, priority, assignee and owner',
      });
      continue;
    }
    if (OPERATORS.has(raw.charAt(0))) {
      problems.push({ parameter: name, message: "a trend filter takes '=' only" });
      continue;
    }
    const value = raw.startsWith('=') ? raw.slice(1) : raw;
    if (isLocation) {
      location.set(field, value);
      continue;
    }
    if (other) {
      problems.push({
        parameter: name,
        message: `a trend filters on at most one of ${otherTrendFields.join(', ')} (${other.field} is given)`,
      });
      continue;
    }
    if (name === 'priority' && !INTEGER.test(value)) {
      problems.push({ parameter: name, message: `'${clip(value)}' is not a non-negative integer` });
      continue;
    }
    // `me` is the caller only in `owner` and `assignee` (contract section 4): a producer may be called "me".
    const canonical =
      name === 'priority'
        ? String(Number(value))
        : value === 'me' && (name === 'owner' || name === 'assignee')
          ? callerId
          : value;
    other = { field: name as OtherTrendField, value: canonical };
  }

  const depth = locationFields.reduce((deepest, field, i) => (location.has(field) ? i + 1 : deepest), 0);
  const contiguous = locationFields.slice(0, depth).every((field) => location.has(field));
  const prefix = contiguous ? locationFields.slice(0, depth).map((field) => location.get(field) as string) : undefined;
  if (other && depth > PAIRED_DEPTH)
    problems.push({
      parameter: other.field,
      message: `cannot be combined with a location deeper than location.${locationFields[PAIRED_DEPTH - 1]}`,
    });

  if (problems.length > 0 || !from || !to || !isTrendInterval(interval)) throw new ValidationError(problems);
  return {
    interval,
    from,
    to,
    location: Object.fromEntries(location),
    depth,
    ...(prefix ? { prefix } : {}),
    ...(other ? { other } : {}),
  };
}

function isTrendInterval(interval: string | undefined): interval is TrendInterval {
  return (trendIntervals as readonly string[]).includes(interval ?? '');
}
