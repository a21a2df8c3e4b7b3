import { describe, expect, it } from 'vitest';
import { evaluate, FIELDS } from '../../contract/oracle';
import { maxProvenLocations } from '../../lib/store/list/count/location-counts';
import { useBudgetedStack } from '../support/budgeted-stack';
import { q } from '../support/client';

/**
 * Issue 31: every list answers at any size. A store of its own, seeded through the bulk writer,
 * with `LIST_READ_BUDGET` scaled to what the default 200,000 entries is to 10,000,000 actions, so
 * a plan whose read grows with the table meets the budget here as it would there. Every
 * operator on every filterable field, every sort and the daily shapes of contract section 4 are
 * asked with small pages; each must answer 200 (only a sort on a string field that is neither
 * counted nor indexed, a reference or a deeper location field, may still be refused, naming
 * `sort`: not built yet), its page a prefix of the oracle's (the whole page unless the budget cut
 * it, and then with a `nextCursor`), and its count the oracle's when it says `eq`, at most the
 * oracle's when it says `gte`; a `<`, `>` or `*` on a counted string field (a person, a site, a
 * business unit, a producer) must say `eq`, counted from its registered values. A sort on `status` walks its value partitions
 * (`lib/store/list/run/value-walk.ts`), and so does a sort on a site, a business unit or a producer,
 * their values read from the value registry (`lib/store/registry.ts`): each must answer, and its
 * cursors must continue it exactly.
 */

const SEEDED = 3000;
const BUDGET = Math.ceil((SEEDED * 200_000) / 10_000_000);
const LIMIT = 3;

// A bulk load of 3,000 actions and their search postings beside three other files took over 300 s.
const { listed, send } = useBudgetedStack({
  name: 'scaled',
  seeded: SEEDED,
  seed: 31,
  budget: BUDGET,
  reader: { sub: 'u-scaled', name: 'Scaled Reader' },
});

/** A value of `field` that some action has (the `n`th distinct one), as a filter would name it. */
function someValue(field: string, n = 0): string {
  const spec = FIELDS[field] as (typeof FIELDS)[string];
  const values = [...new Set(listed.map((a) => spec.value(a)).filter((v) => v !== ''))].sort();
  const v = values[Math.min(n, values.length - 1)] ?? '';
  if (spec.kind === 'date') return new Date(v as number).toISOString().slice(0, 10);
  return String(v);
}

/** The daily shapes of contract section 4 that take two filters: their counts must be exact. */
const daily: string[] = [];

/** The counted string fields, whose values the registry lists: a `<`, `>` or `*` on one counts exactly. */
const registered = ['owner', 'assignee', 'location.site', 'location.businessUnit', 'actionProducer.name'];
/** Those clauses, asked alone: their counts must be exact (`lib/store/list/count/registry-counts.ts`). */
const registeredCounts: string[] = [];
/**
 * Every operator on every location field, alone: exact from the whole locations' counters
 * (`location-counts.ts`) when there are at most 10,000 of them (`maxProvenLocations()`). This seed
 * draws the seven fields independently: its 3,000 actions have about 2,700 distinct locations,
 * within it, so these must be exact here (`locationsProven` is asserted).
 */
const locationCounts: string[] = [];
/** Whether the seed's distinct whole locations are few enough to be proven (see above). */
const locationsProven = () =>
  new Set(listed.map((a) => JSON.stringify(Object.values(a.location)))).size <= maxProvenLocations();

function queries(): string[] {
  const out: string[] = [];
  for (const [field, spec] of Object.entries(FIELDS)) {
    if (spec.kind === 'boolean') {
      out.push(`${field}=true`, `${field}=false`);
      continue;
    }
    const [a, b] = [someValue(field, 1), someValue(field, 3)];
    const ops = spec.kind === 'integer' || spec.kind === 'date' ? ['=', '!', '<', '>'] : ['=', '!', '<', '>', '*'];
    for (const op of ops) {
      const value = op === '*' ? a.slice(1, 4) : a;
      out.push(q(field, `${op === '=' ? '' : op}${value}`));
      if (registered.includes(field) && '<>*'.includes(op)) registeredCounts.push(q(field, `${op}${value}`));
      if (field.startsWith('location.')) locationCounts.push(q(field, `${op === '=' ? '' : op}${value}`));
    }
    out.push(q(field, `~${a},${b}`));
    if (field.startsWith('location.')) locationCounts.push(q(field, `~${a},${b}`));
  }
  for (const field of Object.keys(FIELDS).filter((f) => FIELDS[f]?.kind !== 'boolean'))
    out.push(`sort=${field}`, `sort=-${field}`);
  const person = someValue('assignee', 2);
  const owner = someValue('owner', 2);
  const site = someValue('location.site', 1);
  const unit = someValue('location.businessUnit', 1);
  const producer = someValue('actionProducer.name', 1);
  daily.push(
    `${q('assignee', person)}&status=~1,2,5`,
    `${q('assignee', person)}&overdue=true&sort=dueAt`,
    `${q('owner', owner)}&sort=dueAt`,
    `${q('location.site', site)}&status=~1,2`,
    `${q('location.site', site)}&overdue=true`,
    `${q('location.site', site)}&overdue=true&sort=dueAt`,
    `${q('location.businessUnit', unit)}&overdue=true&sort=dueAt`,
    `${q('actionProducer.name', producer)}&status=~1,2,5`,
    `${q('actionProducer.name', producer)}&overdue=false`,
    // Issue 53's combinations: counters kept by status (the overdue, each priority, each due day).
    'overdue=true&status=~1,2&sort=dueAt',
    'overdue=true&status=~1,2,5&sort=-dueAt',
    'status=!3&status=!4',
    'status=1&priority=>3',
    `status=~1,2,5&${q('dueAt', `>${someValue('dueAt', 1)}`)}&${q('dueAt', `<${someValue('dueAt', 3)}`)}&sort=dueAt`,
    `status=~1,2&${q('dueAt', `<${someValue('dueAt', 2)}T12:00:00Z`)}&sort=dueAt`,
  );
  out.push(...daily, 'status=~1,2,5&sort=dueAt', 'status=!3', ...byStatus(), ...dateRanges());
  return out;
}

/** The three dates. */
const dateFields = ['createdAt', 'updatedAt', 'dueAt'];

/** Ranges on one date field: two clauses, bounded on whole days and on instants inside a day. */
function dateRanges(): string[] {
  return dateFields.flatMap((field) => {
    const [a, b] = [someValue(field, 1), someValue(field, 3)];
    return [
      `${q(field, `>${a}`)}&${q(field, `<${b}`)}`,
      `${q(field, `>${a}T12:00:00Z`)}&${q(field, `<${b}T06:30:00Z`)}`,
      `${q(field, `>${a}T12:00:00Z`)}&sort=${field}`,
    ];
  });
}

/**
 * Every operator on the three dates, and ranges of them: counted exactly from the day counters
 * (`lib/store/list/count/date-counts.ts`), parts of days from the field's index.
 */
function dated(): string[] {
  return [
    ...dateFields.flatMap((field) => {
      const [a, b] = [someValue(field, 1), someValue(field, 3)];
      return [q(field, a), q(field, `!${a}`), q(field, `<${a}`), q(field, `>${a}`), q(field, `~${a},${b}`)];
    }),
    ...dateRanges(),
  ];
}

/** The string fields whose sorts walk their registered values' partitions: never refused. */
const registeredSorts = ['location.site', 'location.businessUnit', 'actionProducer.name'].flatMap((f) => [
  `sort=${f}`,
  `sort=-${f}`,
]);
/**
 * The location fields below the site, whose sorts walk the partitions of the registered whole
 * locations that hold each value (`lib/store/list/run/location-walk.ts`): never refused when those
 * locations are proven (`locationsProven`).
 */
const locationSorts = ['department', 'workGroup', 'productiveUnit', 'team', 'crew'].flatMap((f) => [
  `sort=location.${f}`,
  `sort=-location.${f}`,
]);
/** The producer reference's sorts walk the reference order (`lib/store/list/run/reference-walk.ts`): never refused. */
const referenceSorts = ['sort=actionProducer.reference', 'sort=-actionProducer.reference'];

/**
 * Lists the counters answer exactly (issue 41): a `<` or `>` on a counted integer sums the
 * counters of the values in range, so a sort by status with one follows, and a `!` on the
 * producer's reference is the total less its value's partition. And `=`, `!`, `~` on the title
 * (contract section 4: exact on every field), from the counter of each folded title.
 */
function exact(): string[] {
  const reference = someValue('actionProducer.reference', 1);
  const [title, other] = [someValue('title', 1), someValue('title', 3)];
  return [
    q('title', title),
    q('title', `!${title}`),
    q('title', `~${title},${other}`),
    q('status', '<2'),
    q('status', '>2'),
    q('priority', '<2'),
    q('priority', '>2'),
    'priority=>1&sort=status',
    q('actionProducer.reference', `!${reference}`),
    ...dated(),
  ];
}

/** Sorts by `status`, which no index orders: answered from its value partitions, never refused. */
function byStatus(): string[] {
  const site = q('location.site', someValue('location.site', 1));
  return [
    'sort=status',
    'sort=-status',
    'status=~1,2,5&sort=-status',
    'status=>1&sort=status',
    `${site}&sort=-status`,
    'priority=>1&sort=status',
  ];
}

describe(`every list answers with LIST_READ_BUDGET scaled to 10,000,000 actions (${BUDGET} for ${SEEDED})`, () => {
  it('every operator on every field, every sort and the daily shapes: 200, the oracle page, an honest count', async () => {
    const problems: string[] = [];
    const relations = { eq: 0, gte: 0, refusedSort: 0 };
    const lowerBounds: string[] = [];
    const asked = queries();
    expect(exact().filter((query) => !asked.includes(query))).toEqual([]);
    expect(locationCounts).toHaveLength(7 * 6);
    for (const query of asked) {
      const reply = await send(`/api/actions?${query}&limit=${LIMIT}`);
      const expected = evaluate(listed, `${query}&limit=${LIMIT}`);
      if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
      if (reply.status === 400 && reply.body.errors?.[0]?.parameter === 'sort') {
        if (byStatus().includes(query)) problems.push(`${query}: refused, a sort by status must answer`);
        if (registeredSorts.includes(query)) problems.push(`${query}: refused, a registered field's sort must answer`);
        if (locationsProven() && locationSorts.includes(query))
          problems.push(`${query}: refused, a location field's sort must answer`);
        if (referenceSorts.includes(query)) problems.push(`${query}: refused, a reference's sort must answer`);
        relations.refusedSort++;
        continue;
      }
      if (reply.status !== 200) {
        problems.push(`${query}: ${reply.status} ${JSON.stringify(reply.body)}`);
        continue;
      }
      const ids = (reply.body.actions as Array<{ id: string }>).map((a) => a.id);
      if (JSON.stringify(ids) !== JSON.stringify(expected.ids.slice(0, ids.length)))
        problems.push(`${query}: page ${ids.join(',')} is not a prefix of ${expected.ids.join(',')}`);
      if (ids.length < expected.ids.length && typeof reply.body.nextCursor !== 'string')
        problems.push(`${query}: a short page (${ids.length} of ${expected.ids.length}) without a nextCursor`);
      // Filtered on status alone, the partitions hold only matches: the budget always fills the page.
      if (byStatus().slice(0, 4).includes(query) && JSON.stringify(ids) !== JSON.stringify(expected.ids))
        problems.push(`${query}: page ${ids.join(',')} is not the oracle's ${expected.ids.join(',')}`);
      const relation = reply.body.totalCountRelation as 'eq' | 'gte';
      relations[relation]++;
      if (relation === 'gte') lowerBounds.push(query);
      if (daily.includes(query) && relation !== 'eq') problems.push(`${query}: a daily shape counted as a lower bound`);
      if (registeredCounts.includes(query) && relation !== 'eq')
        problems.push(`${query}: a counted string field's range or fragment counted as a lower bound`);
      if (exact().includes(query) && relation !== 'eq') problems.push(`${query}: counted as a lower bound`);
      if (locationsProven() && locationCounts.includes(query) && relation !== 'eq')
        problems.push(`${query}: a location field's clause counted as a lower bound`);
      // Every sort is exact (contract section 4); with no filter its count is the total.
      if (query.startsWith('sort=') && relation !== 'eq') problems.push(`${query}: a sort counted as a lower bound`);
      if (relation === 'eq' && reply.body.totalCount !== expected.totalCount)
        problems.push(`${query}: totalCount ${reply.body.totalCount}, the oracle ${expected.totalCount}`);
      if (relation === 'gte' && reply.body.totalCount > expected.totalCount)
        problems.push(`${query}: lower bound ${reply.body.totalCount} above ${expected.totalCount}`);
    }
    expect(problems).toEqual([]);
    // What the planner answers today, for the report: exact counts, lower bounds, sorts refused
    // (before issue 41's registry and sums {"eq":59,"gte":73,"refusedSort":18}; the registry alone
    // 80, 58, 12; the sums alone 65, 67, 18; both 86, 52, 12; with the day counters and 9 date
    // ranges more asked, 108, 39, 12: no date query is a lower bound; with the title counters,
    // 111, 36, 12; with every whole location's counter read at once and the reference order too,
    // only title's and the reference's `<`, `>`, `*` are lower bounds, and no sort is refused). No
    // more lower bounds than that: a count made exact stays exact.
    console.info(
      `scaled lists: ${JSON.stringify(relations)}; locations proven: ${locationsProven()}; lower bounds: ${lowerBounds.join(' ')}`,
    );
    expect(relations.eq).toBeGreaterThan(0);
    expect(locationsProven()).toBe(true);
    // Only title's and the reference's `<`, `>`, `*` may be lower bounds.
    expect(relations.gte).toBeLessThanOrEqual(6);
    expect(relations.refusedSort).toBe(0);
  }, 600_000);

  it('a sort by status, any location field or a producer pages on by cursor exactly as the oracle orders, across value partitions', async () => {
    const pages = 8;
    for (const query of [
      'sort=status',
      'sort=-status',
      'status=>1&sort=-status',
      // Values first: the actions without a site come last, descending, after every registered value's.
      'sort=-location.site',
      'sort=-location.businessUnit',
      'sort=actionProducer.name',
      'sort=-actionProducer.name',
      `${q('location.site', `>${someValue('location.site', 0)}`)}&sort=location.site`,
      // Below the site: values from the registered whole locations, each merged from its sites' partitions.
      ...(locationsProven()
        ? [
            'sort=location.department',
            'sort=-location.crew',
            `${q('location.businessUnit', someValue('location.businessUnit', 1))}&sort=location.team`,
            'status=~1,2&sort=-location.workGroup',
          ]
        : []),
      // The reference order: '' first ascending, then every reference, ties by createdAt, then id.
      ...referenceSorts,
      'status=~1,2&sort=-actionProducer.reference',
    ]) {
      const ids: string[] = [];
      let cursor: string | undefined;
      // A page the budget cut is shorter, with a cursor: follow it until the pages hold enough. A
      // location field below the site reads the partitions of every site holding each value with
      // the value as a filter (about 30 sites a department here), so at this budget its pages are
      // short (23 actions in 32 requests measured): it is given more requests.
      const requests = (query.includes('sort=location.') || query.includes('sort=-location.') ? 16 : 4) * pages;
      for (let n = 0; n < requests && ids.length < pages * LIMIT; n++) {
        const reply = await send(`/api/actions?${query}&limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200);
        ids.push(...(reply.body.actions as Array<{ id: string }>).map((a) => a.id));
        cursor = reply.body.nextCursor as string | undefined;
        if (!cursor) break;
      }
      const expected = evaluate(listed, `${query}&limit=${ids.length}`);
      if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
      expect(ids.length, query).toBeGreaterThanOrEqual(pages * LIMIT);
      expect(ids, query).toEqual(expected.ids);
    }
  }, 300_000);
});
