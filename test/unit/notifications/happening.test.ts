import { describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../../lib/actions/events';
import { placementOf } from '../../../lib/model/access';
import { happeningOf, sightNow } from '../../../lib/notifications/happening';
import { anAction } from '../action-fixture';

/**
 * The notifier's pure judgements (`lib/notifications/happening.ts`): the sight an entry recorded
 * before entries kept one is judged by, and what a person is told of an event.
 */

const event = (detailType: string, detail: Record<string, unknown>): PublishedEvent => ({
  id: 'e-1',
  detailType,
  time: '2026-11-02T09:00:00.000Z',
  detail: { id: 'a-1', ...detail },
});

describe('sightNow', () => {
  const current = anAction({ assignee: { id: 'bob', name: 'Bob', email: null } });

  it('sees nothing of an action that is gone', () => {
    expect(sightNow(event('ActionUpdated', {}), undefined)).toEqual({});
  });

  it('judges a create by the action alone: there was no before', () => {
    expect(sightNow(event('ActionCreated', {}), current)).toEqual({ after: placementOf(current) });
  });

  it('puts back the owner, assignee and location a change moved, for before', () => {
    const moved = event('ActionUpdated', {
      changes: {
        owner: { before: { id: 'olga' }, after: { id: current.owner.id } },
        assignee: { before: null, after: { id: 'bob' } },
        location: { before: { site: 'South' }, after: current.location },
      },
    });
    const sight = sightNow(moved, current);
    expect(sight.after).toEqual(placementOf(current));
    expect(sight.before).toEqual({
      ...placementOf(current),
      ownerId: 'olga',
      assigneeId: null,
      location: { site: 'South' },
    });
  });

  it('keeps before as after where the change moved none of them (a title edit)', () => {
    const renamed = event('ActionUpdated', { changes: { title: { before: 'Old', after: 'New' } } });
    expect(sightNow(renamed, current)).toEqual({ before: placementOf(current), after: placementOf(current) });
  });

  it('keeps the owner where the change names no id for the one before', () => {
    const odd = event('ActionUpdated', { changes: { owner: { before: { id: 'undefined' } } } });
    expect(sightNow(odd, current).before?.ownerId).toBe(current.owner.id);
  });
});

describe('happeningOf', () => {
  const notice = { personId: 'bob', topics: ['assigned' as const] };

  it('tells the title it is given (the one recorded at the change), the actor and the time', () => {
    const told = happeningOf(event('ActionUpdated', { actor: { name: 'Olga' }, title: 'Later title' }), notice, 'Then');
    expect(told).toEqual({
      eventId: 'e-1',
      actionId: 'a-1',
      title: 'Then',
      topics: ['assigned'],
      actorName: 'Olga',
      time: '2026-11-02T09:00:00.000Z',
    });
  });

  it('names "Someone" when the event has no actor, and carries a status change and a due time', () => {
    const told = happeningOf(
      event('ActionOverdue', { changes: { status: { before: 1, after: 2 } }, dueAt: '2026-11-01T00:00:00.000Z' }),
      notice,
      'T',
    );
    expect(told).toMatchObject({
      actorName: 'Someone',
      status: { before: '1', after: '2' },
      dueAt: '2026-11-01T00:00:00.000Z',
    });
  });
});
