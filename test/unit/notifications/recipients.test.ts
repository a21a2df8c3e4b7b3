import { describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../../lib/actions/events';
import type { Sight, Viewer } from '../../../lib/model/access';
import { whoIsTold } from '../../../lib/notifications/recipients';

/** Section 16's rules of who is told what, one event at a time, with section 14's visibility. */

const location = {
  businessUnit: 'Iron Ore',
  site: 'North Pit',
  department: 'Maintenance',
  workGroup: 'Mechanical',
  productiveUnit: 'Crusher 2',
  team: 'Day',
  crew: 'A',
};
const on = (ownerId: string, assigneeId: string | null, where = location) => ({ location: where, ownerId, assigneeId });
const person = (id: string) => ({ id, name: id.toUpperCase(), email: `${id}@example.com` });
const open = (id: string): Viewer => ({ mode: 'open', person: { id }, roles: [] });
const scoped = (id: string, roles: Viewer['roles'] = []): Viewer => ({ mode: 'scoped', person: { id }, roles });

const event = (detailType: string, detail: Record<string, unknown>): PublishedEvent => ({
  id: 'e-1',
  detailType,
  time: '2026-12-01T10:00:00.000Z',
  detail: { eventId: 'e-1', id: 'a-1', version: 2, time: '2026-12-01T10:00:00.000Z', ...detail },
});
const unassigned = { id: 'undefined', name: 'Unknown user', email: '' };
const told = (e: PublishedEvent, sight: Sight, viewerOf: (id: string) => Viewer | undefined = open) =>
  whoIsTold(e, sight, viewerOf).sort((a, b) => a.personId.localeCompare(b.personId));

describe('who is told', () => {
  it('tells the new assignee when someone else assigns them, and nobody else', () => {
    const e = event('ActionUpdated', {
      actor: person('ann'),
      changes: { assignee: { before: unassigned, after: person('bob') } },
    });
    expect(told(e, { before: on('ann', null), after: on('ann', 'bob') })).toEqual([
      { personId: 'bob', topics: ['assigned'] },
    ]);
  });

  it('tells nobody who assigns themselves', () => {
    const e = event('ActionUpdated', {
      actor: person('bob'),
      changes: { assignee: { before: unassigned, after: person('bob') } },
    });
    expect(told(e, { before: on('ann', null), after: on('ann', 'bob') })).toEqual([]);
  });

  it('tells the assignee of a new action made by someone else', () => {
    const e = event('ActionCreated', { actor: person('ann'), action: { assignee: person('bob') } });
    expect(told(e, { after: on('ann', 'bob') })).toEqual([{ personId: 'bob', topics: ['assigned'] }]);
    const alone = event('ActionCreated', { actor: person('ann'), action: { assignee: unassigned } });
    expect(told(alone, { after: on('ann', null) })).toEqual([]);
  });

  it('tells the assignee, or the owner when nobody is assigned, when due soon or overdue', () => {
    for (const type of ['ActionDueSoon', 'ActionOverdue']) {
      const topic = type === 'ActionDueSoon' ? 'dueSoon' : 'overdue';
      const assigned = event(type, {
        actor: { id: 'system', name: 'Action tracking service', email: null },
        subject: { owner: person('ann'), assignee: person('bob'), status: '1', title: 'Belt' },
      });
      expect(told(assigned, { before: on('ann', 'bob'), after: on('ann', 'bob') })).toEqual([
        { personId: 'bob', topics: [topic] },
      ]);
      const alone = event(type, {
        actor: { id: 'system', name: 'Action tracking service', email: null },
        subject: { owner: person('ann'), assignee: unassigned, status: '1', title: 'Belt' },
      });
      expect(told(alone, { before: on('ann', null), after: on('ann', null) })).toEqual([
        { personId: 'ann', topics: [topic] },
      ]);
    }
  });

  it('tells the assignee and the owner when escalated', () => {
    const e = event('ActionEscalated', {
      actor: { id: 'system', name: 'Action tracking service', email: null },
      subject: { owner: person('ann'), assignee: person('bob'), status: '1', title: 'Belt' },
    });
    expect(told(e, { before: on('ann', 'bob'), after: on('ann', 'bob') })).toEqual([
      { personId: 'ann', topics: ['escalated'] },
      { personId: 'bob', topics: ['escalated'] },
    ]);
  });

  it('tells the owner and the assignee when someone else comments, never the commenter', () => {
    const sight = { before: on('ann', 'bob'), after: on('ann', 'bob') };
    expect(told(event('ActionCommented', { actor: person('cat'), comment: { id: 'c' } }), sight)).toEqual([
      { personId: 'ann', topics: ['comments'] },
      { personId: 'bob', topics: ['comments'] },
    ]);
    expect(told(event('ActionCommented', { actor: person('bob'), comment: { id: 'c' } }), sight)).toEqual([
      { personId: 'ann', topics: ['comments'] },
    ]);
  });

  it('tells the owner and the assignee of a status change by someone else; an assignee also assigned hears once', () => {
    const e = event('ActionUpdated', {
      actor: person('ann'),
      changes: { status: { before: '1', after: '2' }, assignee: { before: unassigned, after: person('bob') } },
    });
    expect(told(e, { before: on('ann', null), after: on('ann', 'bob') })).toEqual([
      { personId: 'bob', topics: ['assigned', 'status'] },
    ]);
  });

  it('tells nobody of edits, endorsements, comment edits and deletes', () => {
    const sight = { before: on('ann', 'bob'), after: on('ann', 'bob') };
    for (const type of ['ActionEndorsed', 'ActionCommentEdited', 'ActionCommentDeleted', 'ActionDeleted']) {
      expect(told(event(type, { actor: person('cat') }), sight)).toEqual([]);
    }
    const title = event('ActionUpdated', { actor: person('cat'), changes: { title: { before: 'a', after: 'b' } } });
    expect(told(title, sight)).toEqual([]);
  });

  it('tells nobody about an action they could see neither before nor after the change', () => {
    // Scoped: the reminder names Bob, but by the change's placement he is not on the action, and
    // it is at South Pit: only a grant there lets him hear of it.
    const south = { ...location, site: 'South Pit' };
    const e = event('ActionOverdue', {
      actor: { id: 'system', name: 'Action tracking service', email: null },
      subject: { owner: person('ann'), assignee: person('bob'), status: '1', title: 'Belt' },
    });
    const sight = { before: on('ann', null, south), after: on('ann', null, south) };
    expect(told(e, sight, (id) => scoped(id))).toEqual([]);
    const north = scoped('bob', [{ role: 'viewer', scope: { businessUnit: 'Iron Ore', site: 'North Pit' } }]);
    expect(told(e, sight, (id) => (id === 'bob' ? north : scoped(id)))).toEqual([]);
    const there = scoped('bob', [{ role: 'viewer', scope: { businessUnit: 'Iron Ore', site: 'South Pit' } }]);
    expect(told(e, sight, (id) => (id === 'bob' ? there : scoped(id)))).toEqual([
      { personId: 'bob', topics: ['overdue'] },
    ]);
    // Moved out of his sight by this very change: he saw it before, so he hears of it.
    const moved = { before: on('ann', null), after: on('ann', null, south) };
    expect(told(e, moved, (id) => (id === 'bob' ? north : scoped(id)))).toEqual([
      { personId: 'bob', topics: ['overdue'] },
    ]);
  });

  it('tells nobody the service does not know', () => {
    const e = event('ActionCommented', { actor: person('cat'), comment: { id: 'c' } });
    expect(
      told(e, { before: on('ann', 'bob'), after: on('ann', 'bob') }, (id) => (id === 'bob' ? open(id) : undefined)),
    ).toEqual([{ personId: 'bob', topics: ['comments'] }]);
  });
});
