import { randomUUID } from 'node:crypto';
import {
  type Action,
  type ActionView,
  actionRequestedSchema,
  changesBetween,
  createActionSchema,
  newAction,
  type Person,
  patchActionSchema,
  personFrom,
  producerActionId,
  toView,
  validateBody,
} from './action';
import { nowIso } from './dates';
import { badParameter, noSuchAction } from './errors';
import { publish } from './events';
import { parseListQuery } from './filter/query';
import { logger } from './logger';
import * as store from './store/action-store';

/**
 * What the service does, independent of how it is called: the HTTP handlers and the event
 * ingester both come through here.
 */

/**
 * Creates an action owned and initiated by the caller, under a random id: a producer reference
 * sent here is data, a note of what the action is about, and claims nothing (contract section 7).
 */
export async function createAction(caller: Person, body: unknown): Promise<ActionView> {
  const input = validateBody(createActionSchema, body);
  const action = newAction(randomUUID(), input, caller, caller, nowIso());
  // A random UUID cannot be taken; `false` could only mean the store lost its mind.
  if (!(await store.putNewAction(action))) throw new Error(`action id ${action.id} was already taken`);
  await publish('ActionCreated', { id: action.id, actor: caller, time: action.createdAt, action: toView(action) });
  return toView(action);
}

/**
 * Creates the action an `ActionRequested` event asks for, once: its id is derived from the
 * producer's name and reference, so a duplicate, a replay or a request for a since-deleted
 * action changes nothing. Only events claim a reference; API creates never take these ids.
 */
export async function ingestActionRequested(detail: unknown): Promise<{ id: string; created: boolean }> {
  const input = validateBody(actionRequestedSchema, detail, { allowed: ['owner'] });
  const owner = personFrom(input.owner);
  const { name, reference } = input.actionProducer;
  const action = newAction(producerActionId(name, reference), input, owner, owner, nowIso());
  const created = await store.putNewAction(action);
  if (created) {
    await publish('ActionCreated', { id: action.id, actor: owner, time: action.createdAt, action: toView(action) });
  } else {
    logger.info('duplicate action request ignored', { actionId: action.id });
  }
  return { id: action.id, created };
}

export async function listActions(rawQueryString: string) {
  const query = parseListQuery(rawQueryString);
  const result = await store.listActions(query);
  logger.info('list cost', {
    index: result.plan.read.index.name,
    partitions: result.plan.read.partitions.length,
    countIndex: result.plan.count?.index.name,
    matched: result.totalCount,
    ...result.stats,
  });
  return { actions: result.actions.map(toView), totalCount: result.totalCount };
}

export async function getAction(id: string): Promise<Action> {
  const action = await store.getAction(id);
  if (!action) throw noSuchAction(id);
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
      throw badParameter(
        'If-Match',
        'must be * or one or more quoted ETags as GET returns them, e.g. "3" (with the double quotes)',
      );
    }
    // Strong comparison: a weak ETag never matches.
    if (!match[1] && /^\d{1,15}$/.test(match[2] as string)) versions.push(Number(match[2]));
  }
  return versions;
}

/** Applies a JSON merge patch under the edit rule. Body errors come before 404, 403 and 412. */
export async function updateAction(
  caller: Person,
  id: string,
  body: unknown,
  ifMatch: string | undefined,
): Promise<Action> {
  const patch = validateBody(patchActionSchema, body, {
    fixedFields: ['actionProducer.name', 'actionProducer.reference'],
  });
  const { before, after } = await store.patchAction(id, patch, caller, versionsFrom(ifMatch), nowIso);
  const changes = changesBetween(before, after);
  await publish('ActionUpdated', { id, actor: caller, time: after.updatedAt, version: after.version, changes });
  return after;
}

export async function deleteAction(caller: Person, id: string, ifMatch: string | undefined): Promise<void> {
  const versions = versionsFrom(ifMatch);
  const time = nowIso();
  const before = await store.deleteAction(id, caller, versions, () => time);
  await publish('ActionDeleted', { id, actor: caller, time, action: toView(before) });
}
