import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import type { Action } from '../../../../lib/model/action';
import * as counters from '../../../../lib/store/counters/counters';
import { toItem } from '../../../../lib/store/item';
import { countedTotal, sizesFor } from '../../../../lib/store/list/count/counts';
import { clauseHolds } from '../../../../lib/store/list/plan/expression';
import type { ReadBudget } from '../../../../lib/store/query/budget';
import { anAction } from '../../action-fixture';

/**
 * `counts.ts`: which lists the counters count exactly, and how. The counters here are what the
 * write side keeps for a set of actions (`counterCells` of each, the cells a create adds one to),
 * read as `readCounts` reads them (a cell without a status is its whole partition), so a count
 * that asks for a cell the writes never keep, or sums the wrong ones, differs from the oracle:
 * the list's filter judged on each action's stored item (`clauseHolds`, as a read filters).
 */

const cells = new Map<string, number>();
const reads: string[] = [];

vi.mock('../../../../lib/store/counters/counters', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../lib/store/counters/counters')>();
  const sumOf = (want: (cell: counters.CounterCell) => boolean) =>
    [...cells].reduce((sum, [id, n]) => (want(real.cellOf(id)) ? sum + n : sum), 0);
  const readCounts = async (field: counters.CountedField, values: ReadonlyArray<string | number>) => {
    reads.push(field);
    return [...new Set(values.map(String))].reduce((sum, value) => {
      const asked = real.counterCell(field, value);
      return (
        sum +
        sumOf(
          (c) =>
            c.key === asked.key &&
            c.attribute === asked.attribute &&
            (asked.status === undefined || c.status === asked.status) &&
            (asked.member === undefined || c.member === asked.member),
        )
      );
    }, 0);
  };
  return {
    ...real,
    readCounts,
    readCount: (field: counters.CountedField, value: string | number) => readCounts(field, [value]),
    // Every whole location with its count, as one read of the shared partitions lists them.
    readMembers: async (field: counters.CountedField) => {
      reads.push(field);
      const members = new Map<string, number>();
      for (const [id, n] of cells) {
        const cell = real.cellOf(id);
        if (cell.member === undefined || !cell.key.startsWith(`n#${field}@`)) continue;
        members.set(cell.member, (members.get(cell.member) ?? 0) + n);
      }
      return members;
    },
    readStatusCounts: async (field: counters.CountedField, value: string | number) => {
      reads.push(field);
      const asked = real.counterCell(field, value);
      const byStatus = new Map<number, number>();
      for (const [id, n] of cells) {
        const cell = real.cellOf(id);
        if (cell.key !== asked.key || cell.attribute !== asked.attribute || cell.status === undefined) continue;
        byStatus.set(Number(cell.status), (byStatus.get(Number(cell.status)) ?? 0) + n);
      }
      return byStatus;
    },
  };
});

/** Stores `actions` as the write side counts them. */
function store(actions: Action[]) {
  cells.clear();
  reads.length = 0;
  for (const action of actions)
    for (const cell of counters.counterCells(action)) {
      const id = counters.cellId(cell);
      cells.set(id, (cells.get(id) ?? 0) + 1);
    }
}

/** How many of `actions` the list `q` holds, judged on each stored item as a read's filter judges it. */
function oracle(actions: Action[], q: string): number {
  const { filters } = parseListQuery(q);
  return actions.filter((a) => {
    const item = toItem(a);
    return filters.every((c) => clauseHolds(c as Parameters<typeof clauseHolds>[0], item));
  }).length;
}

const stats = { readUnits: 0, requests: 0, entries: 0 } as never;
/** No shape below reads an index, so a budget that refuses everything proves none does. */
const noReads = {
  available: 0,
  limit: 0,
  take: async () => 0,
  settle: () => {},
} as unknown as ReadBudget;
const count = (q: string) => countedTotal(parseListQuery(q), stats, noReads);

const people = ['u-ann', 'u-bo', 'u-cy'];
const sites = ['North', 'South'];

/** An action of the given owner, assignee, site, status, priority and overdue flag. */
function action(
  i: number,
  o: { owner: number; assignee?: number; site: number; status: number; priority: number; overdue: boolean },
) {
  const person = (n: number) => ({ id: people[n] as string, name: `P ${n}`, email: null });
  return anAction({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    owner: person(o.owner),
    assignee: o.assignee === undefined ? null : person(o.assignee),
    location: { site: sites[o.site] as string, team: 'Blue' },
    status: o.status,
    priority: o.priority,
    overdue: o.overdue,
  } as Partial<Action>);
}

const actions = [
  action(1, { owner: 0, assignee: 1, site: 0, status: 1, priority: 2, overdue: true }),
  action(2, { owner: 0, site: 0, status: 2, priority: 4, overdue: false }),
  action(3, { owner: 1, assignee: 0, site: 1, status: 1, priority: 1, overdue: true }),
  action(4, { owner: 2, site: 1, status: 3, priority: 4, overdue: false }),
  action(5, { owner: 0, assignee: 2, site: 1, status: 5, priority: 5, overdue: true }),
  action(6, { owner: 1, site: 0, status: 4, priority: 2, overdue: false }),
  action(7, { owner: 2, assignee: 1, site: 0, status: 2, priority: 3, overdue: true }),
];

beforeEach(() => {
  // The whole locations' read takes its limit from the configuration, which needs these.
  for (const name of ['TABLE_NAME', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID']) vi.stubEnv(name, 'unit');
  store(actions);
});

describe('countedTotal: the lists the counters count exactly', () => {
  it.each([
    ['one status', 'status=1'],
    ['a status set', 'status=~1,2,5'],
    ['overdue', 'overdue=true'],
    ['not overdue: the total less the overdue', 'overdue=false'],
    ['a person', 'owner=u-ann'],
    ['people', 'owner=~u-ann,u-cy'],
    ['nobody assigned', 'assignee=undefined'],
    ['not a person: the total less them', 'owner=!u-bo'],
    ['a priority range, from the values its counters list', 'priority=>2'],
    ['a site', 'location.site=South'],
    ['a person by status (the paired counter)', 'owner=u-ann&status=~1,5'],
    ["a site's overdue (the paired overdue counter)", 'location.site=North&overdue=true'],
    ["a site's actions not overdue: its count less its overdue", 'location.site=North&overdue=false'],
    ['open and overdue (the overdue counter kept by status)', 'status=~1,2&overdue=true'],
    ['open and not overdue', 'status=~1,2&overdue=false'],
    ['a status with a priority range', 'status=~1,2&priority=>1'],
    ['statuses not closed (every status the clauses hold for)', 'status=!3&status=!4'],
    ["a site's open overdue actions", 'status=~1,2&location.site=North&overdue=true'],
    ["a person's open actions not overdue", 'status=~1,2&owner=u-ann&overdue=false'],
  ])('%s: %s', async (_, q) => {
    const want = oracle(actions, q);
    expect(await count(q)).toBe(want);
  });

  it('answers undefined, never a guess, for a list the counters cannot count', async () => {
    // Two paired fields together: no counter holds the pair.
    expect(await count('owner=u-ann&location.site=North')).toBeUndefined();
    // A free-text clause with a status.
    expect(await count('status=1&title=*guard')).toBeUndefined();
  });

  it('for any one or two clauses on counted fields, answers the oracle or undefined', async () => {
    const clause = fc.oneof(
      fc
        .constantFrom('=', '~', '!', '<', '>')
        .chain((op) =>
          fc.integer({ min: 0, max: 6 }).map((n) => `status=${op}${op === '~' ? `${n},${(n + 1) % 6}` : n}`),
        ),
      fc
        .constantFrom('=', '~', '<', '>')
        .chain((op) => fc.integer({ min: 0, max: 6 }).map((n) => `priority=${op}${n}`)),
      fc.constantFrom('overdue=true', 'overdue=false'),
      fc.constantFrom(...people, 'undefined').map((p) => `assignee=${p}`),
      fc.constantFrom(...sites).map((s) => `location.site=${s}`),
      fc.constantFrom('Blue', 'Red').map((t) => `location.team=${t}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(clause, { minLength: 1, maxLength: 2 }), async (clauses) => {
        const q = clauses.join('&');
        const counted = await count(q);
        if (counted !== undefined) expect(counted, q).toBe(oracle(actions, q));
      }),
      { numRuns: 300 },
    );
  });

  it('counts a status set from the total kept by status, one read, not a read a status', async () => {
    await count('status=~1,2,5');
    expect(reads).toEqual(['status']);
  });

  it('leaves a list with no filter to the caller: the total is not its to count', async () => {
    expect(await count('')).toBeUndefined();
  });
});

describe('sizesFor: what the planner is told', () => {
  it('the total, the count of each value the query names, and each status when a clause on status lists none', async () => {
    const sizes = await sizesFor(parseListQuery('owner=~u-ann,u-bo&status=!3&overdue=true'), { stats });
    expect(sizes.total).toBe(actions.length);
    expect(sizes.values.owner).toEqual({
      'u-ann': oracle(actions, 'owner=u-ann'),
      'u-bo': oracle(actions, 'owner=u-bo'),
    });
    expect(sizes.values.overdue).toEqual({ true: oracle(actions, 'overdue=true') });
    const statuses = Object.fromEntries(
      [1, 2, 3, 4, 5].map((s) => [String(s), oracle(actions, `status=${s}`)]).filter(([, n]) => n !== 0),
    );
    expect(sizes.statuses).toEqual(statuses);
  });

  it('asks no counter for overdue=false, and none for a field the counted part leaves to estimates', async () => {
    const sizes = await sizesFor(
      parseListQuery('owner=u-ann&location.site=North&overdue=false'),
      {
        stats,
        estimated: new Set(['location.site']),
      },
      true,
    );
    expect(Object.keys(sizes.values).sort()).toEqual(['owner']);
    expect(sizes.statuses).toBeUndefined();
  });
});
