import { addDays, dayOf } from '../dates';
import { clip, type Problem, ValidationError } from '../errors';
import { type FieldSpec, fieldsByName, type GroupedField, groupedFields } from '../filter/fields';
import {
  type Clause,
  distinctClauses,
  type ListQuery,
  parseClause,
  parseListTerms,
  splitQueryString,
} from '../filter/query';
import { inPool } from '../flow/fan-out';
import { listScopes, type Viewer } from '../model/access';
import { type Person, UNASSIGNED } from '../model/action';
import {
  countedGroups,
  groupValueOf,
  groupValues,
  matchingActions,
  personName,
} from '../store/list/count/group-values';
import { listVisible } from '../store/list/entry';
import { addStats, type CountRelation, newStats, type ReadStats } from '../store/list/plan/result';
import { requestBudget } from '../store/query/budget';
import { SharedReads } from '../store/shared-reads';
import type { Usage } from '../usage';

/**
 * `GET /api/actions/counts` (contract section 17): the matching actions grouped by one or two
 * fields, each group's `count` and `overdue`. Every number is the list's own count: a group is
 * the request's filters plus that group's value as an `=` filter (for `overdueAge`, the matching
 * `overdue` and `dueAt` range), counted by the very list `GET /api/actions` runs (`listVisible`,
 * over what the caller sees), so the rule a client can check holds by construction and is exact
 * wherever that list is. The groups are enumerated from the counters and the value registry
 * (`lib/store/list/count/group-values.ts`), never from the actions.
 */

export const countsLimits = { defaultLimit: 100, maxLimit: 1_000, maxBy: 2 } as const;

/**
 * Groups counted at once, each list with its share of the request's read allowance
 * (`requestBudget(usage, WIDTH)`): they share the caller's read quota, which one list at a time
 * with the whole allowance would take all of.
 */
const WIDTH = 8;

/** The overdue-age buckets, in their order: whole UTC days since `dueAt` (0 counts in `1-7`). */
export const overdueAges = ['none', '1-7', '8-30', '31-90', '91+'] as const;
type OverdueAge = (typeof overdueAges)[number];

type ByField = GroupedField | 'overdueAge';
const byFields: readonly string[] = [...groupedFields, 'overdueAge'];

/**
 * The filters of one overdue-age bucket at `now`, as list terms: `none` is `overdue=false`; the
 * others are overdue with `dueAt` on the UTC days that many whole days before today
 * (`1-7`: due on one of the last 8 days, today included). Pure.
 */
export function overdueAgeTerms(age: OverdueAge, now: number): Array<[string, string]> {
  const today = dayOf(now);
  const dayBefore = (day: string, days: number) => addDays(day, -days);
  const overdue: [string, string] = ['overdue', 'true'];
  switch (age) {
    case 'none':
      return [['overdue', 'false']];
    case '1-7':
      return [overdue, ['dueAt', `>${dayBefore(today, 8)}`]];
    case '8-30':
      return [overdue, ['dueAt', `>${dayBefore(today, 31)}`], ['dueAt', `<${dayBefore(today, 7)}`]];
    case '31-90':
      return [overdue, ['dueAt', `>${dayBefore(today, 91)}`], ['dueAt', `<${dayBefore(today, 30)}`]];
    case '91+':
      return [overdue, ['dueAt', `<${dayBefore(today, 90)}`]];
  }
}

interface CountsRequest {
  by: ByField[];
  limit: number;
  query: ListQuery;
}

/** Parses the request: `by` once or twice, `limit`, and any list filter (no paging, no sort). */
export function parseCountsQuery(raw: string, callerId?: string): CountsRequest {
  const problems: Problem[] = [];
  const by: ByField[] = [];
  let limit: string | undefined;
  const filters: Array<[string, string]> = [];
  for (const [name, value] of splitQueryString(raw)) {
    if (name === 'by') {
      if (!byFields.includes(value))
        problems.push({ parameter: 'by', message: `cannot group by '${clip(value)}': one of ${byFields.join(', ')}` });
      else if (by.includes(value as ByField)) problems.push({ parameter: 'by', message: `'${value}' is named twice` });
      else by.push(value as ByField);
    } else if (name === 'limit') {
      if (limit !== undefined) problems.push({ parameter: 'limit', message: 'may appear only once' });
      limit = value;
    } else if (name === 'skip' || name === 'sort' || name === 'cursor')
      problems.push({ parameter: name, message: 'does not apply to counts: they are all the groups, in one answer' });
    else filters.push([name, value]);
  }
  if (by.length === 0 && !problems.some((p) => p.parameter === 'by'))
    problems.push({ parameter: 'by', message: `is required: one or two of ${byFields.join(', ')}` });
  if (by.length > countsLimits.maxBy)
    problems.push({ parameter: 'by', message: `at most ${countsLimits.maxBy} fields, not ${by.length}` });
  const groups = limit === undefined ? countsLimits.defaultLimit : /^\d{1,7}$/.test(limit) ? Number(limit) : Number.NaN;
  if (!(groups >= 1 && groups <= countsLimits.maxLimit))
    problems.push({ parameter: 'limit', message: `must be an integer from 1 to ${countsLimits.maxLimit}` });
  let query: ListQuery | undefined;
  try {
    query = parseListTerms([...filters, ['limit', '0']], callerId);
  } catch (error) {
    if (!(error instanceof ValidationError) || !error.errors) throw error;
    problems.push(...error.errors);
  }
  if (problems.length > 0 || query === undefined) throw new ValidationError(problems);
  return { by, limit: groups, query };
}

/** One group as the answer shows it. */
export interface Group {
  key: Record<string, string>;
  label: Record<string, string>;
  count: number;
  overdue: number;
  /** Only where the list's count is a lower bound (`gte`). */
  countRelation?: CountRelation;
  /** Only where the list's count of the overdue is a lower bound (`gte`). */
  overdueRelation?: CountRelation;
}

export interface CountsAnswer {
  by: ByField[];
  groups: Group[];
  totalCount: number;
  totalCountRelation: CountRelation;
  otherCount: number;
  /** `false` when the time to count ran out: the groups not counted are in `otherCount`. */
  complete?: false;
}

/** One field's value of a group: the clauses it adds, its key. */
interface Part {
  field: ByField;
  value: string;
  clauses: Clause[];
}

const field = (name: string) => fieldsByName.get(name) as FieldSpec;

/** The clauses of `field` = `value`, exactly as `<field>==<value>` asks the list. */
const equalTo = (name: GroupedField, value: string): Clause[] => [parseClause(field(name), `=${value}`)];

const overdueTrue = parseClause(field('overdue'), 'true');

/** Orders groups by count descending, then key ascending (integers as numbers, ages in their order). */
function compareGroups(by: readonly ByField[]) {
  const rank = (name: ByField, value: string): number | string =>
    name === 'status' || name === 'priority'
      ? Number(value)
      : name === 'overdueAge'
        ? overdueAges.indexOf(value as OverdueAge)
        : value;
  return (a: Group, b: Group): number => {
    if (a.count !== b.count) return b.count - a.count;
    for (const name of by) {
      const x = rank(name, a.key[name] as string);
      const y = rank(name, b.key[name] as string);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
}

/**
 * How long a count may take to count groups before it answers with those counted (the API's
 * timeout is 10 s): the groups left are in `otherCount`, and `complete` is `false`.
 */
const COUNTING_MS = 6_000;

/**
 * Counts the actions `viewer` sees, grouped as `raw` asks; `caller` is `me` in its filters. Its
 * lists read within the request's `usage` (none: a script's, `LIST_READ_BUDGET` each).
 */
export async function countActions(
  raw: string,
  caller?: Pick<Person, 'id'>,
  viewer?: Viewer,
  usage?: Usage,
  stats: ReadStats = newStats(),
): Promise<CountsAnswer> {
  const request = parseCountsQuery(raw, caller?.id);
  // Every group's list reads the same counters (and a scoped caller's own actions): once for all,
  // shared through the stats the request's reads count into.
  const read = newStats(new SharedReads());
  try {
    return await countParsed(request, viewer, read, usage);
  } finally {
    addStats(stats, read);
  }
}

async function countParsed(
  { by, limit, query }: CountsRequest,
  viewer: Viewer | undefined,
  stats: ReadStats,
  usage: Usage | undefined,
): Promise<CountsAnswer> {
  const started = Date.now();
  const late = () => Date.now() - started > COUNTING_MS;
  // The list's own count of each group: `limit=0`, so no page is read, only its count.
  const count = async (clauses: Clause[]) => {
    // A group's value may repeat a filter of the request (`status=1&by=status`): asked once, the counters see the shape.
    const listed = await listVisible(
      { ...query, filters: distinctClauses([...query.filters, ...clauses]), limit: 0 },
      undefined,
      viewer,
      requestBudget(usage, WIDTH),
      stats.shared,
    );
    addStats(stats, listed.stats);
    return listed;
  };

  /** Each `by` field's values, with the clauses each adds. */
  const partsOf = async (name: ByField, present?: Set<string>): Promise<Part[]> => {
    const values =
      name === 'overdueAge'
        ? overdueAges.map((age) => ({
            value: age as string,
            clauses: overdueAgeTerms(age, started).map(([f, v]) => parseClause(field(f), v)),
          }))
        : (present ? [...present] : await groupValues(name, query, viewer, stats, usage)).map((value) => ({
            value,
            clauses: equalTo(name, value),
          }));
    return values.map((v) => ({ field: name, ...v }));
  };

  /** People's names as the matches read show them (`presentValues`), for the labels. */
  const people = new Map<string, string>();
  /** A group counted, with the clauses that pick it (for its overdue). */
  type Counted = Group & { clauses: Clause[] };
  const groups: Counted[] = [];
  let complete = true;
  const [total, counted] = await Promise.all([count([]), fromCounters(by, query, viewer, stats)]);
  if (counted) {
    // Every action, one counted field: the counters the list reads for each group.
    const name = by[0] as GroupedField;
    for (const g of counted)
      groups.push({ key: { [name]: g.value }, label: {}, count: g.count, overdue: 0, clauses: equalTo(name, g.value) });
  } else if (total.totalCount > 0) {
    // Few matches: the values they hold (every one of them read), so no value without a match is counted.
    const present = await presentValues(by, total.totalCount, total.totalCountRelation);
    const fieldParts = await Promise.all(by.map((name) => partsOf(name, present?.get(name))));
    // With two fields, only the values that have a match alone are paired (or that some match holds together).
    const alive = fieldParts.length === 1 || present?.pairs ? fieldParts : await Promise.all(fieldParts.map(matched));
    const combos: Part[][] = (alive[0] as Part[]).flatMap((a) =>
      alive.length === 1
        ? [[a]]
        : (alive[1] as Part[]).filter((b) => present?.pairs?.has(pairKey(a, b)) ?? true).map((b) => [a, b]),
    );
    await inPool(
      WIDTH,
      () => {
        if (combos.length > 0 && late()) complete = false;
        return complete ? combos.pop() : undefined;
      },
      async (combo) => {
        const clauses = combo.flatMap((p) => p.clauses);
        const listed = await count(clauses);
        if (listed.totalCount === 0) return;
        groups.push({
          key: Object.fromEntries(combo.map((p) => [p.field, p.value])),
          label: {},
          count: listed.totalCount,
          overdue: 0,
          clauses,
          ...(listed.totalCountRelation === 'eq' ? {} : { countRelation: listed.totalCountRelation }),
        });
      },
    );
  }
  groups.sort(compareGroups(by));
  const shown = groups.slice(0, limit);
  // Only the groups shown need their overdue: each the list's count with `overdue=true` added.
  const queue = [...shown];
  await inPool(
    WIDTH,
    () => queue.pop(),
    async (group) => {
      // A group of overdue actions only (an `overdueAge` bucket) is its own overdue: nothing to read.
      if (group.clauses.some((c) => c.type === 'boolean' && c.field.name === 'overdue' && c.values[0] === true)) {
        group.overdue = group.count;
        if (group.countRelation) group.overdueRelation = group.countRelation;
        return;
      }
      const overdue = await count([...group.clauses, overdueTrue]);
      group.overdue = overdue.totalCount;
      if (overdue.totalCountRelation !== 'eq') group.overdueRelation = overdue.totalCountRelation;
    },
  );
  await labelPeople(by, shown, started + COUNTING_MS + 3_000, stats, people);
  const counts = (gs: Group[]) => gs.reduce((sum, g) => sum + g.count, 0);
  return {
    by,
    groups: shown.map(({ clauses: _, ...group }) => group),
    totalCount: total.totalCount,
    totalCountRelation: total.totalCountRelation,
    // Cut short, the groups not counted are the rest of the total.
    otherCount: complete ? counts(groups.slice(limit)) : Math.max(0, total.totalCount - counts(shown)),
    ...(complete ? {} : { complete: false }),
  };

  /** The parts of one field that have some match under the request's filters. */
  async function matched(parts: Part[]): Promise<Part[]> {
    const kept: Part[] = [];
    const queue = [...parts];
    await inPool(
      WIDTH,
      () => {
        if (queue.length > 0 && late()) complete = false;
        return complete ? queue.pop() : undefined;
      },
      async (part) => {
        if ((await count(part.clauses)).totalCount > 0) kept.push(part);
      },
    );
    return kept;
  }

  /**
   * Where every match can be read in a few pages (`recentValues`, up to `PRESENT_MAX`, counted
   * exactly): the values of each grouped field the matches hold (and the pairs they hold
   * together), so that only groups that have a match are counted, each by its list. Read only
   * where the candidates are many (people, deep location fields): `undefined` otherwise.
   */
  async function presentValues(
    names: readonly ByField[],
    matches: number,
    relation: CountRelation,
  ): Promise<(Map<ByField, Set<string>> & { pairs?: Set<string> }) | undefined> {
    if (relation !== 'eq' || matches > PRESENT_MAX) return undefined;
    const grouped = names.filter((n): n is GroupedField => n !== 'overdueAge');
    if (!grouped.some((n) => MANY_VALUES.has(n))) return undefined;
    const actions = await matchingActions(query, viewer, stats, usage);
    if (actions === undefined || actions.length !== matches) return undefined;
    for (const action of actions) {
      people.set(`assignee\u0000${(action.assignee ?? UNASSIGNED).id}`, (action.assignee ?? UNASSIGNED).name);
      people.set(`owner\u0000${action.owner.id}`, action.owner.name);
    }
    const found: Map<ByField, Set<string>> & { pairs?: Set<string> } = new Map();
    for (const name of grouped) found.set(name, new Set(actions.map((a) => groupValueOf(name, a))));
    if (names.length === 2) {
      // An overdue age can be any bucket: a pair is each field's value, the age left out.
      const [a, b] = names as [ByField, ByField];
      found.pairs = new Set(
        actions.map((action) =>
          JSON.stringify([
            a === 'overdueAge' ? '' : groupValueOf(a, action),
            b === 'overdueAge' ? '' : groupValueOf(b, action),
          ]),
        ),
      );
    }
    return found;
  }
}

/** The key of a pair of parts in `presentValues`'s pairs (an overdue age left out). */
const pairKey = (a: Part, b: Part) =>
  JSON.stringify([a.field === 'overdueAge' ? '' : a.value, b.field === 'overdueAge' ? '' : b.value]);

/** The most matches `presentValues` reads (pages of 100) to learn which values they hold. */
const PRESENT_MAX = 1_000;

/**
 * The fields whose values are many and whose groups the counters do not count under a filter or a
 * scope (people): worth learning which ones match. A location field's groups are counted from the
 * locations' counters, read once for all of them, and a producer's values are few.
 */
const MANY_VALUES: ReadonlySet<string> = new Set(['assignee', 'owner']);

/**
 * One counted field, no filter, a caller who sees every action (open access, or an admin of
 * everything): the groups from the counters alone (`countedGroups`), which are what the list
 * reads for each group. `undefined` for any other request.
 */
async function fromCounters(by: readonly ByField[], query: ListQuery, viewer: Viewer | undefined, stats: ReadStats) {
  const [name] = by;
  if (by.length !== 1 || name === undefined || name === 'overdueAge' || query.filters.length > 0) return undefined;
  if (viewer !== undefined && listScopes(viewer) !== undefined) return undefined;
  return countedGroups(name, stats);
}

/** Labels the groups of people with their names (`personName`). */
async function labelPeople(
  by: readonly ByField[],
  groups: Group[],
  until: number,
  stats: ReadStats,
  known: ReadonlyMap<string, string>,
): Promise<void> {
  const people = by.filter((b): b is 'owner' | 'assignee' => b === 'assignee' || b === 'owner');
  if (people.length === 0) return;
  const queue = groups.flatMap((group) => people.map((name) => ({ group, name })));
  await inPool(
    16,
    () => queue.pop(),
    async ({ group, name }) => {
      const id = group.key[name] as string;
      // A name the matches read already show costs nothing more.
      const shown = known.get(`${name}\u0000${id}`);
      // Past the time to count, a person is labelled by their id rather than the answer come too late.
      const late = Date.now() > until;
      group.label[name] =
        id === UNASSIGNED.id && name === 'assignee'
          ? UNASSIGNED.name
          : (shown ?? (late ? undefined : await personName(name, id, stats)) ?? id);
    },
  );
}
