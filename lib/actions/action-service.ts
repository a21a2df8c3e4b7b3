import { patchRefusal, refusal } from '../access/refusals';
import { getConfig } from '../config';
import { badCursor, encodeCursor, openCursor } from '../cursor';
import { nowIso } from '../dates';
import { noSuchAction, ValidationError } from '../errors';
import { type ListQuery, parseListQuery, parseListTerms } from '../filter/query';
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
import { actionRequestedSchema, createActionSchema, patchActionSchema, validateBody } from '../model/validation';
import { toView } from '../model/view';
import { type GuardedWrite, getAction as getStored, mutate, putNewAction } from '../store/actions/writes';
import { listVisible } from '../store/list/entry';
import type { Position } from '../store/list/plan/result';

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

/** The most a list page may weigh; Lambda's response limit is 6 MB. */
const MAX_LIST_PAGE_BYTES = 5_500_000;

/** What a list cursor is bound to, beside its caller: its filters and sort travel inside it, sealed. */
const LIST_CURSOR = 'list';

/** Filters and sort as a cursor carries them: `[parameter, value]` pairs in a canonical order. */
const isTerms = (terms: unknown): terms is Array<[string, string]> =>
  Array.isArray(terms) &&
  terms.every((t) => Array.isArray(t) && t.length === 2 && t.every((v) => typeof v === 'string'));

/**
 * The query a cursor continues, and where: the request may repeat the cursor's filters and sort
 * exactly, or leave them out; any other filter or sort beside it is a 400 naming `cursor`. A
 * cursor opens only for the caller it was given to (lib/cursor.ts).
 */
function continued(
  query: ListQuery,
  cursor: string,
  callerId: string,
): { query: ListQuery; after: Position | undefined } {
  const { key, carried } = openCursor(cursor, { scope: LIST_CURSOR, caller: callerId });
  if (!isTerms(carried)) throw badCursor();
  // `null`: a cursor that starts the list again (one the budget stopped before its first sure match).
  const after = key === null ? undefined : (key as Position);
  if (query.terms.length > 0) {
    if (JSON.stringify(query.terms) !== JSON.stringify(carried))
      throw badCursor('belongs to another list: repeat its filters and sort exactly, or leave them out');
    return { query, after };
  }
  return { query: { ...parseListTerms([...carried, ['limit', String(query.limit)]], callerId), cursor }, after };
}

/**
 * A list for `caller`, who is `me` in its owner and assignee filters and the one its cursors are
 * bound to, of what `viewer` sees (section 14).
 */
export async function listActions(rawQueryString: string, caller: Pick<Person, 'id'>, viewer?: Viewer) {
  const parsed = parseListQuery(rawQueryString, caller.id);
  const { query, after } =
    parsed.cursor === undefined ? { query: parsed, after: undefined } : continued(parsed, parsed.cursor, caller.id);
  const result = await listVisible(query, after, viewer);
  logger.info('list cost', {
    strategy: result.strategy,
    index: result.index,
    partitions: result.partitions,
    matched: result.totalCount,
    relation: result.totalCountRelation,
    ...result.stats,
  });
  // A list the budget (or the read quota) stopped before it was sure of any match still continues:
  // its cursor starts where this page began (`null`: the beginning), so no cut page ends a walk.
  const next = result.next ?? (result.cut && query.limit > 0 ? (after ?? null) : undefined);
  const page = {
    actions: result.actions.map(toView),
    totalCount: result.totalCount,
    totalCountRelation: result.totalCountRelation,
    ...(next !== undefined
      ? { nextCursor: encodeCursor({ scope: LIST_CURSOR, caller: caller.id }, next, query.terms) }
      : {}),
  };
  // Lambda answers at most 6 MB; a page of the largest actions can pass that, and is then refused.
  const bytes = Buffer.byteLength(JSON.stringify(page), 'utf8');
  if (bytes > MAX_LIST_PAGE_BYTES) {
    const fits = Math.max(1, Math.floor((query.limit * MAX_LIST_PAGE_BYTES) / bytes));
    throw new ValidationError([
      {
        parameter: 'limit',
        message: `this page would be ${bytes} bytes, more than a response can carry; use limit=${fits} or less`,
      },
    ]);
  }
  return page;
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
