import type { PublishedEvent } from '../actions/events';
import { type Sight, sawChange, type Viewer } from '../model/access';
import { UNASSIGNED } from '../model/action';

/**
 * Who is told what (contract section 16), as one pure decision from a published event: the new
 * assignee when someone else assigns them; the assignee (or the owner when nobody is) when an
 * action is due soon or overdue; the assignee and the owner when it is escalated; the owner and
 * the assignee when someone else comments or changes its status. Nobody about their own change,
 * and nobody about an action they could see neither before nor after the change (section 14).
 */

/** What a person can be told about, one switch each in their preferences. */
export const topics = ['assigned', 'dueSoon', 'overdue', 'escalated', 'comments', 'status'] as const;
export type Topic = (typeof topics)[number];

/** One person to tell about one event, and why (one event can be two things: assigned with a new status). */
export interface Notice {
  personId: string;
  topics: Topic[];
}

const reminderTopics: Record<string, Topic> = {
  ActionDueSoon: 'dueSoon',
  ActionOverdue: 'overdue',
  ActionEscalated: 'escalated',
};

/** A person's id as an event shows it, or `undefined` for nobody (the API's unassigned placeholder). */
const personId = (value: unknown): string | undefined => {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id !== '' && id !== UNASSIGNED.id ? id : undefined;
};

/** The people on the action after the change (before it, for a delete). */
const peopleOn = (sight: Sight) => {
  const on = sight.after ?? sight.before;
  return { owner: on?.ownerId, assignee: on?.assigneeId ?? undefined };
};

/** Every (person, topic) the event calls for, before visibility and preferences. */
function candidates(event: PublishedEvent, sight: Sight): Array<[string | undefined, Topic]> {
  const detail = event.detail;
  const reminder = reminderTopics[event.detailType];
  if (reminder) {
    // Reminders carry who they are about; the sight is the fallback for one recorded without.
    const subject = detail.subject as { owner?: unknown; assignee?: unknown } | undefined;
    const owner = personId(subject?.owner) ?? peopleOn(sight).owner;
    const assignee = subject ? personId(subject.assignee) : peopleOn(sight).assignee;
    if (reminder === 'escalated')
      return [
        [assignee, reminder],
        [owner, reminder],
      ];
    return [[assignee ?? owner, reminder]];
  }
  const { owner, assignee } = peopleOn(sight);
  const told: Array<[string | undefined, Topic]> = [];
  // An import's creates: their assignees are told once for the whole import (lib/transfer/import/notify.ts).
  if (event.detailType === 'ActionCreated' && sight.importId) return told;
  if (event.detailType === 'ActionCreated') {
    const action = detail.action as { assignee?: unknown } | undefined;
    told.push([personId(action?.assignee) ?? assignee, 'assigned']);
  } else if (event.detailType === 'ActionUpdated') {
    const changes = (detail.changes ?? {}) as Record<string, { before?: unknown; after?: unknown }>;
    if (changes.assignee) told.push([personId(changes.assignee.after), 'assigned']);
    if (changes.status) told.push([owner, 'status'], [assignee, 'status']);
  } else if (event.detailType === 'ActionCommented') {
    told.push([owner, 'comments'], [assignee, 'comments']);
  }
  return told;
}

/**
 * The people an event tells, each once with what it tells them. `viewerOf` gives each
 * candidate as the access decision sees them; someone it does not know is told nothing.
 */
export function whoIsTold(
  event: PublishedEvent,
  sight: Sight,
  viewerOf: (personId: string) => Viewer | undefined,
): Notice[] {
  const actor = personId(event.detail.actor);
  const byPerson = new Map<string, Topic[]>();
  for (const [id, topic] of candidates(event, sight)) {
    if (id === undefined || id === actor) continue;
    const listed = byPerson.get(id) ?? [];
    if (!listed.includes(topic)) listed.push(topic);
    byPerson.set(id, listed);
  }
  const notices: Notice[] = [];
  for (const [id, told] of byPerson) {
    const viewer = viewerOf(id);
    if (viewer && sawChange(viewer, sight)) notices.push({ personId: id, topics: told });
  }
  return notices;
}

/** The people a notifier must know (resolve as viewers) to decide an event: cheap, before any read. */
export function peopleConcerned(event: PublishedEvent, sight: Sight): string[] {
  const actor = personId(event.detail.actor);
  const ids = candidates(event, sight)
    .map(([id]) => id)
    .filter((id): id is string => id !== undefined && id !== actor);
  return [...new Set(ids)];
}
