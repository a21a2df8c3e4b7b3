import { patchRefusal } from '../access/refusals';
import { getConfig } from '../config';
import { nowIso } from '../dates';
import { logger } from '../logger';
import type { Rights, Who } from '../model/access';
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
import { type GuardedWrite, mutate, putNewAction } from '../store/actions/writes';
import { versionsFrom } from './by-id';

/**
 * What the service does to actions, independent of how it is called: the HTTP handlers and the
 * event ingester both come through here. Each write is one transaction in the store, which
 * also records the history entry that becomes its event. These are the writes that validate a
 * body (and so carry zod); reading one action and deleting one are in `by-id.ts`.
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
