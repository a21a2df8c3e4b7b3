/**
 * An in-memory reading of `GET /api/actions` (contract section 4), written from the contract's
 * text and sharing no code with `lib/`: the filter oracle test compares the service with it, and
 * the benchmark checks every answer against it. It lives in a folder of its own so both may
 * import it (nothing imports `test/`), and so `npm run layers` can hold it apart: `contract/`
 * imports nothing of the project, and `lib/` nothing of it.
 * It is slow and simple on purpose: every action is checked against every filter, then sorted.
 */

/** The fields of an action, as the API returns it, that listing reads. */
export interface ListedAction {
  id: string;
  title: string;
  owner: { id: string; name: string };
  assignee: { id: string; name: string };
  actionProducer: { name: string; reference?: string };
  location: Record<string, string>;
  dueAt: string;
  createdAt: string;
  updatedAt: string;
  priority: string;
  status: string;
  /** Contract section 10: open and past due, as of the last sweep. */
  overdue: boolean;
}

export type OracleAnswer = { ids: string[]; totalCount: number } | { refused: string[] };

type Kind = 'title' | 'string' | 'integer' | 'date' | 'boolean';

interface Field {
  kind: Kind;
  /** What filters compare. */
  value: (a: ListedAction) => string | number | boolean;
  /** What `sort` orders by, when it is not the filtered value. */
  sortValue?: (a: ListedAction) => string | number;
}

const LOCATION = ['businessUnit', 'site', 'department', 'workGroup', 'productiveUnit', 'team', 'crew'];
const instantOf = (iso: string) => Date.parse(iso);

/** The contract's filterable fields. */
export const FIELDS: Record<string, Field> = {
  title: { kind: 'title', value: (a) => a.title.toLowerCase() },
  status: { kind: 'integer', value: (a) => Number(a.status) },
  priority: { kind: 'integer', value: (a) => Number(a.priority) },
  dueAt: { kind: 'date', value: (a) => instantOf(a.dueAt) },
  createdAt: { kind: 'date', value: (a) => instantOf(a.createdAt) },
  updatedAt: { kind: 'date', value: (a) => instantOf(a.updatedAt) },
  // "owner and assignee filter on the person's id ... sort by name"
  owner: { kind: 'string', value: (a) => a.owner.id, sortValue: (a) => a.owner.name },
  assignee: { kind: 'string', value: (a) => a.assignee.id, sortValue: (a) => a.assignee.name },
  'actionProducer.name': { kind: 'string', value: (a) => a.actionProducer.name },
  'actionProducer.reference': { kind: 'string', value: (a) => a.actionProducer.reference ?? '' },
  // "`overdue=true` (and `overdue=false`) is a filter like the others (`=` only)"; no sort.
  overdue: { kind: 'boolean', value: (a) => a.overdue },
  ...Object.fromEntries(
    LOCATION.map((l) => [`location.${l}`, { kind: 'string', value: (a: ListedAction) => a.location[l] ?? '' }]),
  ),
};

/** DynamoDB orders strings by their UTF-8 bytes, which is code point order (not UTF-16 order). */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

const compare = (a: string | number, b: string | number) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : compareCodePoints(String(a), String(b));

/** `YYYY-MM-DD` as the half-open range of instants of that UTC day. */
function dayRange(text: string): [number, number] | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const start = new Date(0);
  start.setUTCFullYear(y, mo - 1, d);
  if (start.getUTCFullYear() !== y || start.getUTCMonth() !== mo - 1 || start.getUTCDate() !== d) return undefined;
  return [start.getTime(), start.getTime() + 86_400_000];
}

/** An ISO date-time with `Z` or an offset, to the millisecond (later digits cut off). */
function instantFrom(text: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const day = dayRange(m[1] as string);
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (!day || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Number((m[5] ?? '').slice(0, 3).padEnd(3, '0'));
  const zone = m[6] as string;
  const offset =
    zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  return day[0] + ((h * 60 + mi - offset) * 60 + s) * 1000 + ms;
}

/** A `~` list: commas separate, `\,` is a comma and `\\` a backslash. */
function listItems(text: string): string[] {
  const items = [''];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && (next === ',' || next === '\\')) {
      items[items.length - 1] += next;
      i++;
    } else if (c === ',') items.push('');
    else items[items.length - 1] += c;
  }
  return items;
}

type Test = (a: ListedAction) => boolean;

/** One `<parameter>=<operator><value>` as a test on an action, or `undefined` when it is refused. */
function filterTest(name: string, raw: string): Test | undefined {
  const field = FIELDS[name] as Field;
  const op = '=!*<>~'.includes(raw[0] ?? 'x') ? (raw[0] as string) : '=';
  const text = op === raw[0] ? raw.slice(1) : raw;
  const items = op === '~' ? listItems(text) : [text];
  if (items.length > 100) return undefined;

  if (field.kind === 'title' || field.kind === 'string') {
    // title: case-insensitive everywhere; other strings exact except `*`.
    const fold = (s: string) => (field.kind === 'title' ? s.toLowerCase() : s);
    const wanted = items.map(fold);
    const w = wanted[0] as string;
    const value = (a: ListedAction) => field.value(a) as string;
    switch (op) {
      case '=':
        return (a) => value(a) === w;
      case '!':
        return (a) => value(a) !== w;
      case '<':
        return (a) => compareCodePoints(value(a), w) < 0;
      case '>':
        return (a) => compareCodePoints(value(a), w) > 0;
      case '~':
        return (a) => wanted.includes(value(a));
      default:
        if (text === '') return undefined;
        return (a) => value(a).toLowerCase().includes(text.toLowerCase());
    }
  }
  if (field.kind === 'boolean') {
    if (op !== '=' || (text !== 'true' && text !== 'false')) return undefined;
    return (a) => field.value(a) === (text === 'true');
  }
  if (op === '*') return undefined;

  if (field.kind === 'integer') {
    if (!items.every((v) => /^\d+$/.test(v))) return undefined;
    const wanted = items.map(Number);
    const w = wanted[0] as number;
    const value = (a: ListedAction) => field.value(a) as number;
    if (op === '=') return (a) => value(a) === w;
    if (op === '!') return (a) => value(a) !== w;
    if (op === '<') return (a) => value(a) < w;
    if (op === '>') return (a) => value(a) > w;
    return (a) => wanted.includes(value(a));
  }

  // Dates: an instant is the one millisecond [t, t + 1); a day is its whole UTC day.
  const ranges = items.map((v) => {
    const day = dayRange(v);
    if (day) return day;
    const t = instantFrom(v);
    return t === undefined ? undefined : ([t, t + 1] as [number, number]);
  });
  if (ranges.some((r) => r === undefined)) return undefined;
  const [start, end] = ranges[0] as [number, number];
  const value = (a: ListedAction) => field.value(a) as number;
  const within = (t: number, [s, e]: [number, number]) => s <= t && t < e;
  if (op === '=') return (a) => within(value(a), [start, end]);
  if (op === '!') return (a) => !within(value(a), [start, end]);
  if (op === '<') return (a) => value(a) < start;
  if (op === '>') return (a) => value(a) >= end;
  return (a) => ranges.some((r) => within(value(a), r as [number, number]));
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** What the contract says `GET /api/actions?<queryString>` answers over `actions`. */
export function evaluate(actions: readonly ListedAction[], queryString: string): OracleAnswer {
  const refused: string[] = [];
  const tests: Test[] = [];
  const paging = new Map<string, string>();
  for (const part of queryString.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (name === undefined || value === undefined) {
      refused.push(name ?? part);
      continue;
    }
    if (name === 'skip' || name === 'limit' || name === 'sort') {
      if (paging.has(name)) refused.push(name);
      paging.set(name, value);
    } else if (Object.hasOwn(FIELDS, name)) {
      const test = filterTest(name, value);
      if (test) tests.push(test);
      else refused.push(name);
    } else {
      refused.push(name);
    }
  }

  const integer = (name: string, fallback: number) => {
    const text = paging.get(name);
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text)) refused.push(name);
    return Number(text);
  };
  const skip = integer('skip', 0);
  const limit = integer('limit', 10);
  if (limit > 100) refused.push('limit');
  else if (skip + limit > 10_000) refused.push('skip');
  const sortText = paging.get('sort');
  const descending = sortText?.startsWith('-') ?? true;
  const sortName = sortText === undefined ? 'createdAt' : descending ? sortText.slice(1) : sortText;
  if (!Object.hasOwn(FIELDS, sortName) || FIELDS[sortName]?.kind === 'boolean') refused.push('sort');
  if (refused.length > 0) return { refused };

  const field = FIELDS[sortName] as Field;
  const key = (field.sortValue ?? field.value) as (a: ListedAction) => string | number;
  const direction = descending ? -1 : 1;
  const matches = actions
    .filter((a) => tests.every((test) => test(a)))
    // "Ties are broken by `createdAt`, then by `id`, both in the sort's direction."
    .sort(
      (a, b) =>
        direction *
        (compare(key(a), key(b)) ||
          compare(Date.parse(a.createdAt), Date.parse(b.createdAt)) ||
          compareCodePoints(a.id, b.id)),
    );
  return { ids: matches.slice(skip, skip + limit).map((a) => a.id), totalCount: matches.length };
}
