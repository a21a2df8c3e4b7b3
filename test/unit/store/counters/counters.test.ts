import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../lib/model/action';
import { countedFields, countedValues, counterKey, counterMoves } from '../../../../lib/store/counters/counters';
import { anAction } from '../../action-fixture';

/**
 * `counterMoves`: the counter changes a write makes in its own transaction. Whatever sequence of
 * writes an action goes through, the counters must end where counting the last state would put them.
 */

/** The counts the moves leave, without zeros. */
function apply(moves: Array<{ key: string; delta: number }>, counts = new Map<string, number>()) {
  for (const { key, delta } of moves) {
    const n = (counts.get(key) ?? 0) + delta;
    if (n === 0) counts.delete(key);
    else counts.set(key, n);
  }
  return counts;
}

/** The counters one action in state `a` holds: one per counted value. */
const countsOf = (a: Action) =>
  new Map(
    Object.entries(countedValues(a)).flatMap(([field, value]) =>
      value === undefined ? [] : [[counterKey(field as never, value), 1] as const],
    ),
  );

const state = fc
  .record({
    status: fc.nat(5),
    priority: fc.nat(3),
    site: fc.constantFrom('', 'North', 'north', 'South'),
    owner: fc.constantFrom('o1', 'o2'),
    assignee: fc.constantFrom(null, 'a1', 'a2'),
    producer: fc.constantFrom('inspections', 'audits'),
    overdue: fc.boolean(),
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
    }),
  );

describe('counterMoves', () => {
  it('a create adds one to the total and to each counted value; a delete takes them away', () => {
    const action = anAction({ status: 2 });
    const created = counterMoves(undefined, action);
    expect(created).toContainEqual({ key: 'n#all#', delta: 1 });
    expect(created).toContainEqual({ key: 'n#status#2', delta: 1 });
    expect(created.every((m) => m.delta === 1)).toBe(true);
    const deleted = counterMoves(action, undefined);
    expect(deleted).toEqual(created.map((m) => ({ ...m, delta: -1 })));
  });

  it('an edit that changes no counted value moves nothing', () => {
    const action = anAction();
    expect(counterMoves(action, { ...action, title: 'Renamed', description: 'x', version: 9 })).toEqual([]);
  });

  it('an edit moves only the counters of the fields whose value changed, one down and one up', () => {
    const action = anAction({ status: 1 });
    const moves = counterMoves(action, { ...action, status: 3 });
    // The status, and each value counted paired with the status (owner, assignee, site, ...).
    expect(moves.slice(0, 2)).toEqual([
      { key: 'n#status#1', delta: -1 },
      { key: 'n#status#3', delta: 1 },
    ]);
    expect(moves.length).toBeGreaterThan(2);
    for (const move of moves.slice(2)) expect(move.key).toMatch(/^n#[^#]+&status#[13]#/);
    expect(moves.filter((m) => m.key.includes('&status#1#')).every((m) => m.delta === -1)).toBe(true);
    expect(moves.filter((m) => m.key.includes('&status#3#')).every((m) => m.delta === 1)).toBe(true);
    expect(counterMoves(action, { ...action, description: 'changed' })).toEqual([]);
  });

  it('counts overdue only while true, so a store from before overdue needs no new counters', () => {
    expect(countedFields).toContain('overdue');
    const action = anAction({ overdue: false });
    expect(counterMoves(undefined, action).some((m) => m.key.startsWith('n#overdue#'))).toBe(false);
    const moves = counterMoves(action, { ...action, overdue: true });
    expect(moves[0]).toEqual({ key: 'n#overdue#true', delta: 1 });
    // Each value counted paired with overdue gains one, and nothing loses: false is not counted.
    for (const move of moves.slice(1)) expect(move).toEqual({ key: expect.stringMatching(/&overdue#/), delta: 1 });
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
        const keys = counterMoves(before, after).map((m) => m.key);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 150 },
    );
  });
});
