import { patchRefusal, refusal } from '../access/refusals';
import { getConfig } from '../config';
import { nowIso } from '../dates';
import { noSuchAction, ValidationError } from '../errors';
import { logger } from '../logger';
import { type Rights, rightsOver, type Viewer, type Who } from '../model/access';
import type { Action, ActionView, Person } from '../model/action';
import {
  applyPatch,
  changesBetween,
  legacyProducerActionId,
  newAction,
  personFrom,
  producerActionId,
} from '../model/edits';
import { requireEvidence } from '../model/evidence';
import { validateBody } from '../model/validate-body';
import { actionRequestedSchema, createActionSchema, patchActionSchema } from '../model/validation';
import { toView } from '../model/view';
import { type GuardedWrite, getAction as getStored, mutate, putNewAction } from '../store/actions/writes';

/**
 * What the service does to actions, independent of how it is called: the HTTP handlers and the
 * event ingester both come through here. Each write is one transaction in the store, which
 * also records the history entry that becomes its event.
 */

/**
 * Creates an action owned and initiated by the caller. Its id is random: a producer reference
 * sent here is data, and never claims the producer's own action (only an event does). An
 * import's creates name the import (`importId`), so its assignees are told once for all of them.
 */
export async function createAction(
  caller: Person,
  body: unknown,
  remember?: (created: ActionView) => GuardedWrite,
  importId?: string,
): Promise<ActionView> {
  const input = validateBody(createActionSchema, body);
  const action = newAction(crypto.randomUUID(), input, caller, caller, nowIso());
  // A random id cannot be taken; `false` here would be a broken random source.
  if (!(await putNewAction(action, caller, remember?.(toView(action)), [], importId)))
    throw new Error(`a new random id was taken: ${action.id}`);
  return toView(action);
}

/**
 * Creates the action an `ActionRequested` event from `source` asks for, once: its id derives from
 * the source and the producer's name and reference, so a duplicate, a replay or a request for a
 * since-deleted action changes nothing, and no other source can take or block it. An action
 * stored before ids included the source keeps its old id, which still counts as taken.
 */
export async function ingestActionRequested(
  detail: unknown,
  source: string,
): Promise<{ id: string; created: boolean }> {
  const input = validateBody(actionRequestedSchema, detail, { allowed: ['owner'] });
  const owner = personFrom(input.owner);
  const { name, reference } = input.actionProducer;
  const id = producerActionId(source, name, reference);
  const action = newAction(id, input, owner, owner, nowIso());
  const created = await putNewAction(action, owner, undefined, [legacyProducerActionId(name, reference)]);
  if (!created) logger.info('duplicate action request ignored', { actionId: id });
  return { id, created };
}

/** One action, as the caller may see it: one they may not see is the 404 of an id that never existed. */
export async function getAction(viewer: Viewer, id: string): Promise<Action> {
  const action = await getStored(id);
  if (!action || !rightsOver(viewer, action).see) throw noSuchAction(id);
  return action;
}

/** One entity tag (RFC 9110 section 8.8.3): optionally weak, then a quoted string of etagc. */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/**
 * The versions an `If-Match` header accepts: `undefined` for none sent or `*` (any version),
 * else the versions its strong ETags name (maybe none: a weak ETag or one this service never
 * issued matches nothing, which is a 412). Anything that is not `*` or a list of ETags is a 400.
 */
export function versionsFrom(ifMatch: string | undefined): number[] | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const versions: number[] = [];
  // RFC 9110 section 5.6.1: a list may hold empty elements, but it must hold a tag.
  const tags = ifMatch
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  for (const tag of tags.length > 0 ? tags : ['']) {
    const match = ENTITY_TAG.exec(tag);
    if (!match) {
      throw new ValidationError([
        {
          parameter: 'If-Match',
          message: 'must be * or one or more quoted ETags as GET returns them, e.g. "3" (with the double quotes)',
        },
      ]);
    }
    // Strong comparison: a weak ETag never matches, and tags compare as exact strings, so only
    // the very digits an ETag of ours carries match (`"01"` is not `"1"`).
    if (!match[1] && /^[1-9]\d{0,14}$/.test(match[2] as string)) versions.push(Number(match[2]));
  }
  return versions;
}

/**
 * Applies a JSON merge patch under the edit rules (`patchRefusal` says which rights each field
 * needs). Body errors come before 404, 403 and 412.
 */
export async function updateAction(
  { caller, viewer }: Who,
  id: string,
  body: unknown,
  ifMatch: string | undefined,
): Promise<Action> {
  const patch = validateBody(patchActionSchema, body, {
    fixedFields: ['actionProducer.name', 'actionProducer.reference'],
  });
  const expectedVersions = versionsFrom(ifMatch);
  const refuses = (rights: Rights, current: Action) => patchRefusal(viewer, patch, rights, current);
  const result = await mutate(id, { caller, viewer, expectedVersions, refuses }, nowIso, (current, stamp) => {
    const next = applyPatch(current, patch, stamp);
    requireEvidence(current, next, getConfig().evidence.requiredStatuses);
    return { next, entry: { type: 'updated', changes: changesBetween(current, next) } };
  });
  return result.after as Action;
}

/** Deletes (the owner, or in scoped mode a manager of its place), leaving a tombstone so the id is never reused. */
export async function deleteAction({ caller, viewer }: Who, id: string, ifMatch: string | undefined): Promise<void> {
  const expectedVersions = versionsFrom(ifMatch);
  const refuses = (rights: Rights) => (rights.delete ? undefined : refusal(viewer, 'owner'));
  await mutate(id, { caller, viewer, expectedVersions, refuses }, nowIso, () => ({
    next: undefined,
    entry: { type: 'deleted' },
  }));
}
