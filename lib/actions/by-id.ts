import { refusal } from '../access/refusals';
import { nowIso } from '../dates';
import { noSuchAction, ValidationError } from '../errors';
import { type Rights, rightsOver, type Viewer, type Who } from '../model/access';
import type { Action } from '../model/action';
import { getAction as getStored, mutate } from '../store/actions/writes';

/**
 * One action by its id, with no body to validate: reading it, deleting it, and the `If-Match`
 * versions every write checks. Apart from `action-service.ts` (the writes that validate a
 * body) so that what reads or deletes carries no zod.
 */

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

/** Deletes (the owner, or in scoped mode a manager of its place), leaving a tombstone so the id is never reused. */
export async function deleteAction({ caller, viewer }: Who, id: string, ifMatch: string | undefined): Promise<void> {
  const expectedVersions = versionsFrom(ifMatch);
  const refuses = (rights: Rights) => (rights.delete ? undefined : refusal(viewer, 'owner'));
  await mutate(id, { caller, viewer, expectedVersions, refuses }, nowIso, () => ({
    next: undefined,
    entry: { type: 'deleted' },
  }));
}
