import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Clause, parseListQuery } from '../../../../lib/filter/query';
import type { Action } from '../../../../lib/model/action';
import {
  type CounterCell,
  type CounterMove,
  cellId,
  countedFields,
  counterCell,
  counterCells,
  counterMoves,
} from '../../../../lib/store/counters/counters';
import { anAction } from '../../action-fixture';

/**
 * `counterMoves`: the counter changes a write makes in its own transaction. Whatever sequence of
 * writes an action goes through, the counters must end where counting the last state would put them.
 */

/** The counts the moves leave, by cell, without zeros. */
function apply(moves: CounterMove[], counts = new Map<string, number>()) {
  for (const move of moves) {
    const n = (counts.get(cellId(move)) ?? 0) + move.delta;
    if (n === 0) counts.delete(cellId(move));
    else counts.set(cellId(move), n);
  }
  return counts;
}

/** The counter cells one action in state `a` holds: one per counted value. */
/** The counter items some cells are kept in: a "no value" item holds several of them. */
const itemsOf = (cells: CounterCell[]) => new Set(cells.map((c) => JSON.stringify([c.key, c.status, c.member]))).size;
const countsOf = (a: Action) => new Map(counterCells(a).map((cell) => [cellId(cell), 1] as const));

const state = fc
  .record({
    status: fc.nat(5),
    priority: fc.nat(3),
    site: fc.constantFrom('', 'North', 'north', 'South'),
    owner: fc.constantFrom('o1', 'o2'),
    assignee: fc.constantFrom(null, 'a1', 'a2'),
    producer: fc.constantFrom('inspections', 'audits'),
    overdue: fc.boolean(),
    title: fc.constantFrom('Belt guard', 'BELT GUARD', 'Straße', 'STRASSE', 'Conveyor'),
  })
  .map((s) =>
    anAction({
      status: s.status,
      priority: s.priority,
      overdue: s.overdue,
      location: { ...anAction().location, site: s.site },
      owner: { id: s.owner, name: s.owner, email: null },
      assignee: s.assignee ? { id: s.assignee, name: s.assignee, email: null } : null,
      actionProducer: { name: s.producer },
      title: s.title,
    }),
  );

describe('counterMoves', () => {
  it('a create adds one to the total and to each counted value; a delete takes them away', () => {
    const action = anAction({ status: 2 });
    const created = counterMoves(undefined, action);
    // The total is kept by status: its status-2 cell is also what `status=2` counts.
    expect(created).toContainEqual({ key: 'n#all#', status: '2', delta: 1 });
    expect(counterCell('status', 2)).toEqual({ key: 'n#all#', status: '2' });
    expect(created.some((m) => m.key.startsWith('n#status#') || m.key.includes('&status#'))).toBe(false);
    expect(created.every((m) => m.delta === 1)).toBe(true);
    const deleted = counterMoves(action, undefined);
    expect(deleted).toEqual(created.map((m) => ({ ...m, delta: -1 })));
  });

  it('an edit that changes no counted value moves nothing (a title that folds the same is the same value)', () => {
    const action = anAction();
    expect(counterMoves(action, { ...action, title: 'FIX THE GUARD RAIL', description: 'x', version: 9 })).toEqual([]);
  });

  it('a retitle moves the old folded title down and the new one up, and nothing else', () => {
    const action = anAction({ title: 'Fix the guard rail' });
    expect(counterMoves(action, { ...action, title: 'Renamed' })).toEqual([
      { key: 'n#title#fix the guard rail', delta: -1 },
      { key: 'n#title#renamed', delta: 1 },
    ]);
  });

  it('a status change moves each counter kept by status from the old status cell to the new one', () => {
    const action = anAction({ status: 1 });
    const moves = counterMoves(action, { ...action, status: 3 });
    // The total, the paired fields (owner, assignee, every location field, producer), the prefixes
    // and the priority's counter (kept by status, issue 53).
    expect(moves).toHaveLength(2 * 14);
    expect(moves.filter((m) => m.status === '1').every((m) => m.delta === -1)).toBe(true);
    expect(moves.filter((m) => m.status === '3').every((m) => m.delta === 1)).toBe(true);
    // Four location fields below the site (all but the team) have no value here: one item holds
    // their counts (an attribute each), so the change moves 11 items, each from one status to the other.
    expect(new Set(moves.map((m) => m.key)).size).toBe(11);
    expect(itemsOf(moves)).toBe(2 * 11);
    expect(moves.filter((m) => m.key === 'n#priority#2').map((m) => m.status)).toEqual(['1', '3']);
    // A pair is read from its value's partition, one status of it.
    expect(counterCell('owner&status', '3#o1')).toEqual({ key: 'n#owner#o1', status: '3' });
    // An overdue action's status edit moves its overdue counters from one status to the other too.
    const late = anAction({ status: 1, overdue: true });
    const lateMoves = counterMoves(late, { ...late, status: 2 }).filter((m) => m.key.includes('&overdue#'));
    expect(lateMoves.length).toBeGreaterThan(0);
    expect(lateMoves.filter((m) => m.status === '1').every((m) => m.delta === -1)).toBe(true);
    expect(lateMoves.filter((m) => m.status === '2').every((m) => m.delta === 1)).toBe(true);
    expect(counterMoves(action, { ...action, description: 'changed' })).toEqual([]);
  });

  it('a create moves 16 counters when not overdue (one per counted value, the status in the sort key), in 12 items', () => {
    // all, priority, owner, assignee, each of the 7 location fields, producer, title, 2 prefixes,
    // the whole location (total only) ... and status is none of its own: the total's cell is it.
    // The five location fields below the site have no value here: one item holds them all.
    const action = anAction({ overdue: false, location: { ...anAction().location, team: '' } });
    const cells = counterCells(action);
    expect(cells.map((c) => c.key.split(/[#@]/)[1]).sort()).toEqual(
      [
        'actionProducer.name',
        'all',
        'assignee',
        'location.businessUnit',
        'location.site',
        ...Array<string>(5).fill('location&none'),
        'owner',
        'priority',
        'scope&2',
        'scope&3',
        'scope&7',
        'title',
      ].sort(),
    );
    expect(cells.filter((c) => c.attribute !== undefined).map((c) => c.attribute)).toEqual(
      ['department', 'workGroup', 'productiveUnit', 'team', 'crew'].map((f) => `n#location.${f}`),
    );
    expect(itemsOf(cells)).toBe(12);
    // A field with a value keeps its own counter; the others stay in the shared item.
    const team = counterCells(anAction({ overdue: false }));
    expect(team).toContainEqual({ key: 'n#location.team#Blue', status: '1' });
    expect(team.filter((c) => c.attribute !== undefined)).toHaveLength(4);
  });

  it('counts overdue only while true, so a store from before overdue needs no new counters', () => {
    expect(countedFields).toContain('overdue');
    const action = anAction({ overdue: false });
    expect(counterMoves(undefined, action).some((m) => m.key.startsWith('n#overdue#'))).toBe(false);
    const moves = counterMoves(action, { ...action, overdue: true });
    // The overdue count is kept by status (issue 53), so the move names the action's status.
    expect(moves[0]).toEqual({ key: 'n#overdue#true', status: '1', delta: 1 });
    // Each value counted paired with overdue gains one, and nothing loses: false is not counted. Each
    // is kept by status (issue 50), so the move names the action's status.
    for (const move of moves.slice(1))
      expect(move).toEqual({
        key: expect.stringMatching(/&overdue#/),
        status: '1',
        delta: 1,
        ...(move.attribute === undefined ? {} : { attribute: expect.stringMatching(/^n#location\./) }),
      });
  });

  it('over any sequence of writes, leaves the counts of the last state, and nothing after a delete', () => {
    fc.assert(
      fc.property(fc.array(state, { minLength: 1, maxLength: 6 }), (states) => {
        const counts = apply(counterMoves(undefined, states[0]));
        for (let i = 1; i < states.length; i++) apply(counterMoves(states[i - 1], states[i]), counts);
        const last = states[states.length - 1] as Action;
        expect(counts).toEqual(countsOf(last));
        expect(apply(counterMoves(last, undefined), counts).size).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('never moves the same counter twice in one write (one transaction may not touch an item twice)', () => {
    fc.assert(
      fc.property(fc.option(state, { nil: undefined }), fc.option(state, { nil: undefined }), (before, after) => {
        const keys = counterMoves(before, after).map(cellId);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the title counter: a list asks the counter a write moved', () => {
  /** The title cell an action with this title adds one to. */
  const stored = (title: string) => counterCells(anAction({ title })).find((c) => c.key.startsWith('n#title#'));
  /**
   * The cells a title clause's count reads, each once: its values as the query holds them, each
   * value's cell (`readCounts` sums the distinct values' cells; `!` is the total less the one).
   */
  const asked = (query: string) => {
    const [clause] = parseListQuery(query).filters as [Clause];
    return [...new Set((clause.values as string[]).map((v) => cellId(counterCell('title', v))))];
  };

  it('`title=ABC` counts an action titled `abc`: the query folds its value as the counter folds the title', () => {
    expect(asked('title=ABC')).toEqual([cellId(stored('abc') as CounterCell)]);
    expect(asked('title==ABC')).toEqual([cellId(stored('abc') as CounterCell)]);
    expect(asked('title=!ABC')).toEqual([cellId(stored('Abc') as CounterCell)]);
    // Full case folding, not lower-casing: `ß` meets `SS`, and the final sigma meets its capital.
    expect(asked('title=STRASSE')).toEqual([cellId(stored('Straße') as CounterCell)]);
    expect(asked(`title=${encodeURIComponent('ΠΡΟΣ')}`)).toEqual([cellId(stored('προς') as CounterCell)]);
  });

  it('a `~` of two spellings of one title reads its counter once', () => {
    expect(asked('title=~Belt Guard,BELT GUARD,belt guard')).toEqual([cellId(stored('Belt guard') as CounterCell)]);
    expect(asked('title=~Belt Guard,Conveyor')).toHaveLength(2);
  });
});
