import type { PublishedEvent } from '../actions/events';
import { type Placement, placementOf, type Sight } from '../model/access';
import type { Action } from '../model/action';
import type { Happening } from './email';
import type { Notice } from './recipients';

/**
 * The notifier's pure judgements of one event (`notifier.ts`): the sight an old entry is judged by,
 * and what a person is told of it. Pure.
 */

const idOf = (value: unknown): string | null => {
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== 'undefined' ? id : null;
};

/**
 * The sight of an entry recorded before entries kept one: the action as it stands, with the
 * people and place this change moved put back for `before`.
 */
export function sightNow(event: PublishedEvent, current: Action | undefined): Sight {
  if (!current) return {};
  const after = placementOf(current);
  if (event.detailType === 'ActionCreated') return { after };
  const changes = (event.detail.changes ?? {}) as Record<string, { before?: unknown }>;
  const before: Placement = {
    ...after,
    ...(changes.owner ? { ownerId: idOf(changes.owner.before) ?? after.ownerId } : {}),
    ...(changes.assignee ? { assigneeId: idOf(changes.assignee.before) } : {}),
    ...(changes.location ? { location: changes.location.before as Placement['location'] } : {}),
  };
  return { before, after };
}

/** What the person is told of the event, in the words of `email.ts`. */
export function happeningOf(event: PublishedEvent, notice: Notice, title: string): Happening {
  const detail = event.detail;
  const status = (detail.changes as Record<string, { before: unknown; after: unknown }> | undefined)?.status;
  return {
    eventId: event.id,
    actionId: String(detail.id),
    title,
    topics: notice.topics,
    actorName: String((detail.actor as { name?: unknown } | undefined)?.name ?? 'Someone'),
    time: event.time,
    ...(status ? { status: { before: String(status.before), after: String(status.after) } } : {}),
    ...(typeof detail.dueAt === 'string' ? { dueAt: detail.dueAt } : {}),
  };
}
