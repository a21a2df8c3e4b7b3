import { describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../../lib/actions/events';
import { placementOf, type Sight, type Viewer } from '../../../lib/model/access';
import type { RecordedEntry } from '../../../lib/model/history';
import { importedEvent } from '../../../lib/notifications/imported';
import {
  importedHappening,
  judgedAsRecorded,
  judgedNow,
  noticeHappening,
  noticesFor,
  suppressedFor,
  toTell,
} from '../../../lib/notifications/notifier';
import { defaultPreferences } from '../../../lib/notifications/preferences';
import type { Notice } from '../../../lib/notifications/recipients';
import type { KnownPerson } from '../../../lib/store/people';
import { anAction } from '../action-fixture';

/**
 * The notifier's pure decisions (`lib/notifications/notifier.ts`, contract section 16): which
 * events may tell anyone, what an event is judged by, whose address is held back, who among the
 * people known is told, what their preferences let through, and what an import tells.
 */

const event = (detailType: string, detail: Record<string, unknown>): PublishedEvent => ({
  id: 'e-1',
  detailType,
  time: '2026-12-01T10:00:00.000Z',
  detail: { eventId: 'e-1', id: 'a-1', version: 2, time: '2026-12-01T10:00:00.000Z', ...detail },
});
const person = (id: string) => ({ id, name: id.toUpperCase(), email: `${id}@example.com` });
const unassigned = { id: 'undefined', name: 'Unknown user', email: '' };
const assigned = (to: string) =>
  event('ActionUpdated', { actor: person('ann'), changes: { assignee: { before: unassigned, after: person(to) } } });
const entry = (kept: Partial<RecordedEntry>): RecordedEntry => ({
  version: 2,
  type: 'updated',
  actor: person('ann'),
  time: '2026-12-01T10:00:00.000Z',
  actionId: 'a-1',
  ...kept,
});
const known = (id: string, signedInAt = 1_700_000_000): KnownPerson => ({
  id,
  name: id.toUpperCase(),
  email: `${id}@example.com`,
  groups: [],
  signedInAt,
  seenOn: '2026-12-01',
});

describe('toTell', () => {
  it('keeps the changes and reminders that may tell someone, and the imports with their detail', () => {
    const imported = importedEvent('imp-1', { id: 'ann', name: 'Ann' }, 'bob', 3, '2026-12-01T10:00:00.000Z');
    const events = [
      assigned('bob'),
      event('ActionUpdated', { actor: person('ann'), changes: { title: { before: 'a', after: 'b' } } }),
      event('ActionCreated', { actor: person('ann'), action: { assignee: unassigned } }),
      event('ActionOverdue', {}),
      event('ActionDeleted', { actor: person('ann') }),
      imported,
    ];
    const { telling, imports } = toTell(events);
    expect(telling).toEqual([events[0], events[3]]);
    expect(imports).toEqual([{ event: imported, imported: imported.detail }]);
  });

  it('skips an import event whose detail is not one (no count)', () => {
    const broken = importedEvent('imp-1', { id: 'ann', name: 'Ann' }, 'bob', 3, '2026-12-01T10:00:00.000Z');
    expect(toTell([{ ...broken, detail: { ...broken.detail, count: 0 } }])).toEqual({ telling: [], imports: [] });
  });
});

describe('what an event is judged by', () => {
  const action = anAction({ title: 'Renamed since' });
  const sight: Sight = { after: { ...placementOf(action), assigneeId: 'bob' } };

  it('takes the sight and title the entry recorded, without the action', () => {
    expect(judgedAsRecorded(entry({ sight, title: 'As it was' }))).toEqual({ sight, title: 'As it was' });
    expect(judgedAsRecorded(entry({ sight, changes: { title: { before: 'Old', after: 'New' } } }))).toEqual({
      sight,
      title: 'New',
    });
  });

  it('needs the action when the entry kept no sight or no title, or there is none', () => {
    expect(judgedAsRecorded(entry({ title: 'As it was' }))).toBeUndefined();
    expect(judgedAsRecorded(entry({ sight }))).toBeUndefined();
    expect(judgedAsRecorded(undefined)).toBeUndefined();
  });

  it('fills in from the action as it stands only what the entry did not keep', () => {
    const e = assigned('bob');
    expect(judgedNow(e, entry({ title: 'As it was' }), action)).toEqual({
      sight: { before: { ...placementOf(action), assigneeId: null }, after: placementOf(action) },
      title: 'As it was',
    });
    expect(judgedNow(e, entry({ sight }), action)).toEqual({ sight, title: 'Renamed since' });
    expect(judgedNow(e, undefined, action)?.title).toBe('Renamed since');
  });

  it('judges nothing of an action gone whose entry named no title', () => {
    expect(judgedNow(assigned('bob'), entry({ sight }), undefined)).toBeUndefined();
    expect(judgedNow(assigned('bob'), undefined, undefined)).toBeUndefined();
    expect(judgedNow(assigned('bob'), entry({ title: 'Kept' }), undefined)).toEqual({ sight: {}, title: 'Kept' });
  });
});

describe('suppressedFor', () => {
  const signedInAt = Date.parse('2026-12-01T10:00:00.000Z') / 1000;

  it('holds back an address that bounced since the person last signed in, or at that instant', () => {
    expect(suppressedFor('2026-12-02T00:00:00.000Z', signedInAt)).toBe(true);
    expect(suppressedFor('2026-12-01T10:00:00.000Z', signedInAt)).toBe(true);
  });

  it('lets through one that never bounced, or bounced before they signed in again', () => {
    expect(suppressedFor(undefined, signedInAt)).toBe(false);
    expect(suppressedFor('2026-11-30T23:59:59.000Z', signedInAt)).toBe(false);
  });
});

describe('noticesFor', () => {
  const where = anAction().location;
  const sight: Sight = {
    before: { location: where, ownerId: 'ann', assigneeId: null },
    after: { location: where, ownerId: 'ann', assigneeId: 'bob' },
  };
  const open = (id: string): Viewer => ({ mode: 'open', person: { id }, roles: [] });
  const scoped = (id: string): Viewer => ({ mode: 'scoped', person: { id }, roles: [] });

  it('tells a known person the sight lets see', () => {
    const people = new Map([['bob', known('bob')]]);
    expect(noticesFor(assigned('bob'), sight, people, new Map([['bob', open('bob')]]))).toEqual([
      { personId: 'bob', topics: ['assigned'] },
    ]);
    // Scoped, with no role: the assignee still sees their own action.
    expect(noticesFor(assigned('bob'), sight, people, new Map([['bob', scoped('bob')]]))).toHaveLength(1);
  });

  it('asks nothing about someone who never signed in, whatever viewer is at hand', () => {
    expect(noticesFor(assigned('bob'), sight, new Map(), new Map([['bob', open('bob')]]))).toEqual([]);
  });

  it('tells nobody the sight hides the action from', () => {
    const elsewhere: Sight = { after: { location: where, ownerId: 'ann', assigneeId: 'ann' } };
    const people = new Map([['bob', known('bob')]]);
    expect(noticesFor(assigned('bob'), elsewhere, people, new Map([['bob', scoped('bob')]]))).toEqual([]);
  });
});

describe('noticeHappening', () => {
  const e = event('ActionUpdated', {
    actor: person('ann'),
    changes: { status: { before: 1, after: 2 }, assignee: { before: unassigned, after: person('bob') } },
  });
  const notice: Notice = { personId: 'bob', topics: ['assigned', 'status'] };

  it('tells only the topics the person wants', () => {
    const preferences = defaultPreferences();
    preferences.events.status = false;
    const happening = noticeHappening(e, notice, 'Fix it', preferences);
    expect(happening).toMatchObject({ eventId: 'e-1', actionId: 'a-1', title: 'Fix it', topics: ['assigned'] });
    expect(happening?.status).toEqual({ before: '1', after: '2' });
  });

  it('tells nothing when they want none of the topics, or no email at all', () => {
    const none = defaultPreferences();
    none.events.status = false;
    none.events.assigned = false;
    expect(noticeHappening(e, notice, 'Fix it', none)).toBeUndefined();
    const off = { ...defaultPreferences(), email: 'off' as const };
    expect(noticeHappening(e, notice, 'Fix it', off)).toBeUndefined();
  });
});

describe('importedHappening', () => {
  const time = '2026-12-01T10:00:00.000Z';

  it('tells the assignee how many actions the importer’s import assigned them', () => {
    const imported = importedEvent('imp-1', { id: 'ann', name: 'Ann' }, 'bob', 3, time);
    expect(importedHappening(imported, imported.detail)).toEqual({
      eventId: imported.id,
      actionId: '',
      title: '',
      topics: ['assigned'],
      actorName: 'Ann',
      time,
      imported: { count: 3 },
    });
  });

  it('tells nobody of their own import', () => {
    const own = importedEvent('imp-1', { id: 'ann', name: 'Ann' }, 'ann', 3, time);
    expect(importedHappening(own, own.detail)).toBeUndefined();
  });
});
