import { v5 as uuidv5 } from 'uuid';
import { type Action, type Location, locationFields, type Person } from './action';
import { withLinks } from './evidence';
import type { ActionPatch, CreateActionBody } from './validation';
import { toView } from './view';

/**
 * What makes and changes an action: the id a producer's event claims, a new action from a
 * validated create body, the next one from a merge patch, and what changed between two. Pure, so
 * the store can compute what it writes.
 */

/** The caller as a stored person; a missing name shows the id, a missing email `null`. */
export const personFrom = (input: { id: string; name?: string; email?: string | null }): Person => ({
  id: input.id,
  name: input.name ?? input.id,
  email: input.email ?? null,
});

const emptyLocation = (): Location => Object.fromEntries(locationFields.map((f) => [f, ''])) as Location;

/** UUID v5 namespace for ids derived from a producer name and reference. */
const PRODUCER_NAMESPACE = '4f1c1b36-5e0e-4d47-9a57-6f1f6f0c2a11';

/**
 * The id an action raised by a producer's event always gets (UUID v5 of the event's source, the
 * producer's name and the reference), so one source, name and reference make at most one such
 * action, ever, without a read before the write, and an event from another source can neither
 * take nor block it (contract section 12). Only events claim it: an API create always gets a
 * random id (contract section 7). The JSON array keeps the three apart whatever they hold.
 */
export const producerActionId = (source: string, name: string, reference: string): string =>
  uuidv5(JSON.stringify([source, name, reference]), PRODUCER_NAMESPACE);

/**
 * The id the same event got before the source was part of it (name and reference alone). Actions
 * stored then keep it; ingest treats it as taken, so a replay of such an event stays a duplicate
 * (docs/deploy.md, "Producer ids").
 */
export const legacyProducerActionId = (name: string, reference: string): string =>
  uuidv5(`${name}\n${reference}`, PRODUCER_NAMESPACE);

/** A new action from a validated create body; `owner` is who it is created for. */
export function newAction(id: string, body: CreateActionBody, owner: Person, initiator: Person, now: string): Action {
  return {
    id,
    title: body.title,
    description: body.description ?? '',
    actionProducer: {
      name: body.actionProducer.name,
      ...(body.actionProducer.url !== undefined ? { url: body.actionProducer.url } : {}),
      ...(body.actionProducer.reference !== undefined ? { reference: body.actionProducer.reference } : {}),
    },
    location: { ...emptyLocation(), ...definedOnly(body.location ?? {}) },
    allowAnonymousEdits: body.allowAnonymousEdits ?? false,
    dueAt: body.dueAt,
    priority: body.priority,
    status: body.status,
    owner,
    initiator,
    assignee: body.assignee ? personFrom(body.assignee) : null,
    endorsedBy: [],
    attachments: body.attachments ?? [],
    tags: body.tags ?? [],
    comments: [],
    commentCount: 0,
    createdAt: now,
    updatedAt: now,
    // The store settles it as it writes (`settleClosedAt`): it knows which statuses close.
    closedAt: null,
    version: 1,
    overdue: false,
    reminded: 0,
  };
}

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The action after a merge patch; pure, so the store can compute what it writes. */
export function applyPatch(action: Action, patch: ActionPatch, now: string): Action {
  const next: Action = { ...action, updatedAt: now, version: action.version + 1 };
  if (patch.title !== undefined) next.title = patch.title;
  if (patch.description !== undefined) next.description = patch.description ?? '';
  if (patch.dueAt !== undefined) next.dueAt = patch.dueAt;
  if (patch.priority !== undefined) next.priority = patch.priority;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.allowAnonymousEdits !== undefined) next.allowAnonymousEdits = patch.allowAnonymousEdits;
  if (patch.attachments !== undefined) next.attachments = withLinks(action.attachments, patch.attachments ?? []);
  if (patch.tags !== undefined) next.tags = patch.tags ?? [];
  if (patch.assignee !== undefined) next.assignee = patch.assignee ? personFrom(patch.assignee) : null;
  if (patch.location !== undefined) {
    next.location =
      patch.location === null
        ? emptyLocation()
        : {
            ...action.location,
            ...Object.fromEntries(Object.entries(patch.location).map(([k, v]) => [k, v ?? ''])),
          };
  }
  if (patch.actionProducer?.url !== undefined) {
    const producer = { ...action.actionProducer };
    if (patch.actionProducer.url === null) delete producer.url;
    else producer.url = patch.actionProducer.url;
    next.actionProducer = producer;
  }
  return next;
}

/** Which fields an edit changed, with their API values before and after. */
export function changesBetween(before: Action, after: Action): Record<string, { before: unknown; after: unknown }> {
  const a = toView(before) as unknown as Record<string, unknown>;
  const b = toView(after) as unknown as Record<string, unknown>;
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of Object.keys(b)) {
    // Both move with every change; a change is what the person or producer changed.
    if (key === 'updatedAt' || key === 'version') continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) changes[key] = { before: a[key], after: b[key] };
  }
  return changes;
}
