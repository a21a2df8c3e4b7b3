import { describe, expect, it } from 'vitest';
import { createBody, emptyValues, mergePatch, valuesOf } from '../../console/src/action-form';
import { historyInWords } from '../../console/src/history-words';
import { isSomeone, nameOf } from '../../console/src/people';
import { problemOf } from '../../console/src/problem';
import { formatTime, fromZonedInput, timeZone, toZonedInput, zoneName } from '../../console/src/time';
import type { Action, HistoryEntry } from '../../console/src/types';

/** Issue 39: times in the person's zone with the zone named; issue 40: the 'undefined' assignee and problems, once. */
describe('console times', () => {
  it('shows an instant in the zone, named as people there write it (Perth reads 18:00 AWST, not 10:00 UTC)', () => {
    const at = '2026-11-24T10:00:00.000Z';
    expect(formatTime(at, 'Australia/Perth', ['en-US'])).toBe('24 Nov 2026, 18:00 AWST');
    expect(formatTime(at, 'UTC', ['en-US'])).toBe('24 Nov 2026, 10:00 UTC');
    expect(formatTime(at, 'America/New_York', ['en-US'])).toBe('24 Nov 2026, 05:00 EST');
    expect(formatTime('2026-07-01T10:00:00Z', 'America/New_York', ['en-US'])).toBe('1 Jul 2026, 06:00 EDT');
    expect(formatTime(at, 'Asia/Kolkata', ['en-US'])).toBe('24 Nov 2026, 15:30 IST');
    // A zone with no written abbreviation keeps its offset.
    expect(zoneName('America/Santiago', new Date(at), ['en-US'])).toBe('GMT-3');
    expect(formatTime('not a date', 'UTC')).toBe('not a date');
  });

  it('uses the person’s zone by default, which their preference sets', () => {
    const before = timeZone.value;
    timeZone.value = 'Australia/Perth';
    try {
      expect(formatTime('2026-11-24T10:00:00Z')).toMatch(/^24 Nov 2026, 18:00 /);
    } finally {
      timeZone.value = before;
    }
  });

  it('reads the due field as wall-clock time in the zone, across daylight saving', () => {
    expect(toZonedInput('2026-11-24T10:00:00Z', 'Australia/Perth')).toBe('2026-11-24T18:00');
    expect(fromZonedInput('2026-11-24T18:00', 'Australia/Perth')).toBe('2026-11-24T10:00:00Z');
    expect(fromZonedInput('2026-07-01T09:00', 'Europe/London')).toBe('2026-07-01T08:00:00Z');
    expect(fromZonedInput('2026-01-01T09:00', 'Europe/London')).toBe('2026-01-01T09:00:00Z');
    expect(fromZonedInput('', 'UTC')).toBe('');
    for (const zone of ['UTC', 'Australia/Perth', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'])
      for (const iso of ['2026-03-08T12:00:00Z', '2026-11-01T05:30:00Z', '2026-12-31T23:59:00Z'])
        expect(fromZonedInput(toZonedInput(iso, zone), zone), `${zone} ${iso}`).toBe(iso);
  });

  it('builds the create body and the patch with the due time read in the person’s zone', () => {
    const values = { ...emptyValues(), title: 'T', 'actionProducer.name': 'P', dueAt: '2026-12-01T08:00' };
    expect(createBody(values, 'Australia/Perth').dueAt).toBe('2026-12-01T00:00:00Z');
    const action = {
      id: 'a',
      title: 'T',
      description: '',
      actionProducer: { name: 'P' },
      location: { businessUnit: '', site: '', department: '', workGroup: '', productiveUnit: '', team: '', crew: '' },
      dueAt: '2026-12-01T00:00:00.000Z',
      priority: 1,
      status: 1,
      assignee: { id: 'undefined', name: 'undefined' },
      tags: [],
      allowAnonymousEdits: false,
    } as unknown as Action;
    const before = valuesOf(action, 'Australia/Perth');
    expect(before.dueAt).toBe('2026-12-01T08:00');
    expect(before['assignee.id']).toBe('');
    expect(mergePatch(before, { ...before }, 'Australia/Perth')).toEqual({});
    expect(mergePatch(before, { ...before, dueAt: '2026-12-01T09:30' }, 'Australia/Perth')).toEqual({
      dueAt: '2026-12-01T01:30:00Z',
    });
  });
});

describe('console people and problems', () => {
  it('reads the API’s stand-in for nobody in one place', () => {
    expect(isSomeone({ id: 'undefined' })).toBe(false);
    expect(isSomeone({ id: '' })).toBe(false);
    expect(isSomeone(undefined)).toBe(false);
    expect(isSomeone({ id: 'u-1' })).toBe(true);
    expect(nameOf({ id: 'undefined', name: 'undefined' }, 'Unassigned')).toBe('Unassigned');
    expect(nameOf({ id: 'u-1', name: 'Ann Lee' })).toBe('Ann Lee');
    const entry = {
      type: 'updated',
      version: 2,
      time: '2026-11-24T10:00:00Z',
      actor: { id: 'u-1', name: 'Ann Lee' },
      changes: { assignee: { before: { id: 'undefined', name: 'undefined' }, after: { id: 'u-2', name: 'Bob' } } },
    } as unknown as HistoryEntry;
    expect(historyInWords(entry)).toBe('Ann Lee changed assignee from nobody to Bob');
    const evidence = (type: string, attachment?: object) =>
      historyInWords({ ...entry, type, attachment, changes: undefined } as unknown as HistoryEntry);
    expect(evidence('attachment-added', { name: 'guard.jpg', contentType: 'image/jpeg' })).toBe(
      'Ann Lee added a photo, guard.jpg',
    );
    expect(evidence('attachment-removed', { name: 'permit.pdf', contentType: 'application/pdf' })).toBe(
      'Ann Lee removed the file permit.pdf',
    );
    expect(evidence('attachment-added')).toBe('Ann Lee added a file');
    expect(evidence('attachment-scanned', { name: 'guard.jpg', contentType: 'image/jpeg', scan: 'clean' })).toBe(
      'The malware scan found no threat in a photo, guard.jpg',
    );
    expect(evidence('attachment-scanned', { name: 'permit.pdf', contentType: 'application/pdf', scan: 'threat' })).toBe(
      'The malware scan found a threat in the file permit.pdf; it is never served',
    );
  });

  it('turns any error into a problem: the API’s own, or one named by the status', () => {
    const problem = { type: 't', title: 'Not found', status: 404, detail: 'No such action' };
    expect(problemOf(problem)).toBe(problem);
    expect(problemOf(undefined, new Response(null, { status: 502 }))).toMatchObject({
      status: 502,
      detail: 'The service answered 502',
    });
    expect(problemOf('<html>', undefined)).toMatchObject({ status: 0 });
  });
});
