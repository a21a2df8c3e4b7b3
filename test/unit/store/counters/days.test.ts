import { describe, expect, it } from 'vitest';
import {
  byDay,
  DAY_COUNTERS,
  type DayDeltas,
  dayAttribute,
  dayMoves,
  overdueByStatusOf,
  overdueDaysOf,
} from '../../../../lib/store/counters/days';
import { anAction } from '../../action-fixture';

/** `dayMoves`: what a write adds to the day counters, in its own transaction. */

/** The items moved, as [day, changes] for the service's days and [`<partition> <day>`, changes] for a site's overdue days. */
const items = (deltas: DayDeltas) =>
  byDay(deltas).map(({ partition, day, changes }) => [
    partition === DAY_COUNTERS ? day : `${partition} ${day}`,
    changes,
  ]);

describe('day counter moves', () => {
  const created = anAction({
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    dueAt: '2026-12-01T10:00:00.000Z',
  });

  it('a create counts createdAt and updatedAt on one day item, dueAt on its own', () => {
    expect(items(dayMoves(undefined, created))).toEqual([
      ['2026-11-01', { createdAt: 1, updatedAt: 1 }],
      ['2026-12-01', { dueAt: 1, 'dueAt@1': 1 }],
    ]);
  });

  it('a create due the day it is made moves one item', () => {
    const sameDay = { ...created, dueAt: '2026-11-01T23:00:00.000Z' };
    expect(items(dayMoves(undefined, sameDay))).toEqual([
      ['2026-11-01', { createdAt: 1, updatedAt: 1, dueAt: 1, 'dueAt@1': 1 }],
    ]);
  });

  it('an edit the same day moves nothing; a later one moves updatedAt, a new due day moves dueAt', () => {
    expect(dayMoves(created, { ...created, updatedAt: '2026-11-01T20:00:00.000Z' }).size).toBe(0);
    expect(items(dayMoves(created, { ...created, updatedAt: '2026-11-03T01:00:00.000Z' }))).toEqual([
      ['2026-11-01', { updatedAt: -1 }],
      ['2026-11-03', { updatedAt: 1 }],
    ]);
    expect(items(dayMoves(created, { ...created, dueAt: '2026-12-01T23:00:00.000Z' }))).toEqual([]);
    expect(items(dayMoves(created, { ...created, dueAt: '2026-11-01T23:00:00.000Z' }))).toEqual([
      ['2026-12-01', { dueAt: -1, 'dueAt@1': -1 }],
      ['2026-11-01', { dueAt: 1, 'dueAt@1': 1 }],
    ]);
  });

  it('a status change moves the due day count of each status, on the due day only', () => {
    expect(items(dayMoves(created, { ...created, status: 3 }))).toEqual([
      ['2026-12-01', { 'dueAt@1': -1, 'dueAt@3': 1 }],
    ]);
  });

  it('the sweep marking an action overdue moves its due day overdue count of its status; a close takes it back', () => {
    const late = { ...created, overdue: true };
    // And the same in the partitions of its business unit's and its site's overdue due days (`overdueDaysOf`).
    const { businessUnit, site: siteName } = created.location;
    const unit = `${overdueDaysOf([businessUnit])} 2026-12-01`;
    const site = `${overdueDaysOf([businessUnit, siteName])} 2026-12-01`;
    expect(unit).toMatch(/^n#@days&1#/);
    expect(site).toMatch(/^n#@days&2#/);
    expect(items(dayMoves(created, late))).toEqual([
      ['2026-12-01', { 'overdue@1': 1 }],
      [unit, { 'overdue@1': 1 }],
      [site, { 'overdue@1': 1 }],
    ]);
    expect(items(dayMoves(late, { ...late, status: 3, overdue: false }))).toEqual([
      ['2026-12-01', { 'dueAt@1': -1, 'overdue@1': -1, 'dueAt@3': 1 }],
      [unit, { 'overdue@1': -1 }],
      [site, { 'overdue@1': -1 }],
    ]);
    // A status change of an overdue action moves the unit's and site's items from one status to the other.
    expect(items(dayMoves(late, { ...late, status: 2 }))).toEqual([
      ['2026-12-01', { 'dueAt@1': -1, 'overdue@1': -1, 'dueAt@2': 1, 'overdue@2': 1 }],
      [unit, { 'overdue@1': -1, 'overdue@2': 1 }],
      [site, { 'overdue@1': -1, 'overdue@2': 1 }],
    ]);
    // Kept in `o<status>` beside `d<status>`, and read back by status.
    expect(dayAttribute('overdue@1')).toBe('o1');
    expect(dayAttribute('dueAt@1')).toBe('d1');
    expect([...overdueByStatusOf({ d1: 4, o1: 2, o2: 1, c: 3 })]).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it('a delete takes every date back', () => {
    expect(items(dayMoves(created, undefined))).toEqual([
      ['2026-11-01', { createdAt: -1, updatedAt: -1 }],
      ['2026-12-01', { dueAt: -1, 'dueAt@1': -1 }],
    ]);
  });
});
