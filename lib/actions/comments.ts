import { refusal } from '../access/refusals';
import { nowIso } from '../dates';
import {
  ConflictError,
  clip,
  ForbiddenError,
  NotFoundError,
  noSuchAction,
  TooManyRequestsError,
  ValidationError,
} from '../errors';
import { parseThreadQuery } from '../filter/page-query';
import { guardedAt, type Rights, rightsOver, type Viewer, type Who } from '../model/access';
import { type Action, actionLimits, type Person } from '../model/action';
import type { HistoryEntry } from '../model/history';
import {
  commentWrites,
  currentCommentTexts,
  historyPlacement,
  latestComments,
  readComment,
  readComments,
  readHistory,
} from '../store/actions/threads';
import { readToggles, toggleWrite } from '../store/actions/toggles';
import { getAction as getStored, mutate } from '../store/actions/writes';

/**
 * Comments, endorsements and the history of an action (contract section 8). Each comment or
 * endorsement is one transaction with the action's version check, like an edit: it moves the
 * action's version, `updatedAt` and ETag, and records its history entry, so a comment racing an
 * edit never loses either.
 */

export const noSuchComment = (id: string) => new NotFoundError(`This action has no comment with the id '${clip(id)}'.`);

/** Refuses a caller who may not comment on (or endorse) the action. */
export const commenting = (viewer: Viewer) => (rights: Rights) =>
  rights.comment ? undefined : refusal(viewer, 'comment');

/** Deletes a comment: its author, the action's owner, or (scoped) a manager of its place; all who see it. */
export async function deleteComment({ caller, viewer }: Who, actionId: string, commentId: string): Promise<void> {
  await mutate(actionId, { caller, viewer, social: true }, nowIso, async (current, _stamp, rights) => {
    const comment = await readComment(actionId, commentId);
    if (!comment) throw noSuchComment(commentId);
    if (comment.author.id !== caller.id && !rights.delete) {
      throw new ForbiddenError(refusal(viewer, 'deleteComment'));
    }
    // When a comment of the latest few goes, the one before them takes its place.
    const comments = current.comments.some((c) => c.id === commentId)
      ? (await latestComments(actionId, actionLimits.latestComments + 1))
          .filter((c) => c.id !== commentId)
          .slice(-actionLimits.latestComments)
      : current.comments;
    return {
      next: { ...current, comments, commentCount: Math.max(0, current.commentCount - 1) },
      entry: { type: 'comment-deleted', comment: { id: commentId, author: comment.author } },
      items: [commentWrites.remove(actionId, commentId)],
    };
  });
}

/**
 * A caller may change their endorsement of one action (endorse or withdraw; a request that changes
 * nothing does not count) at most this many times in any hour (contract section 12), so nobody
 * can flood an action's history and keep its owner's `If-Match` edits failing.
 */
export const endorsementToggles = { count: 10, windowSeconds: 3600 } as const;

/**
 * The toggle the caller is about to make, as part of the change's transaction; a 429 past the
 * bound, with `Retry-After` saying when the oldest counted change leaves the hour.
 */
async function countToggle(caller: Person, actionId: string) {
  const now = Math.floor(Date.now() / 1000);
  const log = await readToggles(actionId, caller.id);
  const recent = log.times.filter((t) => t > now - endorsementToggles.windowSeconds);
  if (recent.length >= endorsementToggles.count) {
    const oldest = recent[recent.length - endorsementToggles.count] as number;
    throw new TooManyRequestsError(
      `You have changed your endorsement of this action ${endorsementToggles.count} times in the last hour, the most allowed; try again later.`,
      oldest + endorsementToggles.windowSeconds - now,
    );
  }
  return toggleWrite(actionId, caller.id, log, [...recent, now], now + endorsementToggles.windowSeconds);
}

/** The caller endorses the action (the comment right); endorsing again changes nothing. */
export async function endorse({ caller, viewer }: Who, actionId: string): Promise<Action> {
  const guard = { caller, viewer, refuses: commenting(viewer), social: true };
  const result = await mutate(actionId, guard, nowIso, async (current, stamp) => {
    if (current.endorsedBy.some((e) => e.id === caller.id)) return undefined;
    if (current.endorsedBy.length >= actionLimits.endorsements) {
      throw new ConflictError(
        `This action already has the most endorsements it can hold (${actionLimits.endorsements}).`,
      );
    }
    return {
      next: { ...current, endorsedBy: [...current.endorsedBy, { ...caller, endorsedAt: stamp }] },
      entry: { type: 'endorsed' },
      items: [await countToggle(caller, actionId)],
    };
  });
  return result.after as Action;
}

/** Withdraws the caller's endorsement (the comment right); withdrawing one that is not there changes nothing. */
export async function withdrawEndorsement({ caller, viewer }: Who, actionId: string): Promise<void> {
  await mutate(actionId, { caller, viewer, refuses: commenting(viewer), social: true }, nowIso, async (current) => {
    if (!current.endorsedBy.some((e) => e.id === caller.id)) return undefined;
    return {
      next: { ...current, endorsedBy: current.endorsedBy.filter((e) => e.id !== caller.id) },
      entry: { type: 'endorsement-withdrawn' },
      items: [await countToggle(caller, actionId)],
    };
  });
}

/** The 404 of an action that does not exist (now), or that the caller may not see. */
export async function seeAction(viewer: Viewer, actionId: string): Promise<void> {
  const action = await getStored(actionId);
  if (!action || !rightsOver(viewer, action).see) throw noSuchAction(actionId);
}

/** A page of the thread of comments, oldest first; 404 for an action that does not exist (now) or that the caller may not see. */
export async function listComments(viewer: Viewer, actionId: string, rawQuery: string) {
  const query = parseThreadQuery(rawQuery);
  await seeAction(viewer, actionId);
  const page = await readComments(actionId, { ...query, reader: viewer.person.id });
  return { comments: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/**
 * A page of the history, oldest first; readable after a delete, 404 for an id that never existed
 * and (scoped) for an action the caller may not see, or could not when it was deleted.
 */
export async function listHistory(
  viewer: Viewer,
  actionId: string,
  rawQuery: string,
): Promise<{ entries: HistoryEntry[]; nextCursor?: string }> {
  // A cursor this thread did not give out is a 400, but an id that never existed is a 404 whatever the cursor.
  const neverExisted = async (error: unknown): Promise<never> => {
    if (error instanceof ValidationError && (await currentCommentTexts(actionId, [])).action === 'never')
      throw noSuchAction(actionId);
    throw error;
  };
  // Open mode shows every history to everyone: no read to decide it. An action the caller may not
  // see is a 404 before its query is read, as an id that never existed is (no 400 tells them apart).
  if (viewer.mode !== 'open') {
    const placement = await historyPlacement(actionId);
    if (placement && !rightsOver(viewer, guardedAt(placement)).see) throw noSuchAction(actionId);
  }
  let query: ReturnType<typeof parseThreadQuery>;
  try {
    query = parseThreadQuery(rawQuery);
  } catch (error) {
    return neverExisted(error);
  }
  const page = await readHistory(actionId, { ...query, reader: viewer.person.id }).catch(neverExisted);
  const commentIds = page.items.flatMap((entry) => (entry.comment ? [entry.comment.id] : []));
  // An empty page (a cursor past the end, or one forged for an id that never existed) and a page
  // naming comments both need to know what is stored now; other pages need no second read.
  if (page.items.length > 0 && commentIds.length === 0) {
    return { entries: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }
  const { action, texts } = await currentCommentTexts(actionId, commentIds);
  if (action === 'never') throw noSuchAction(actionId);
  const entries = page.items.map((entry) => {
    const text = entry.comment && texts.get(entry.comment.id);
    return entry.comment && text !== undefined ? { ...entry, comment: { ...entry.comment, text } } : entry;
  });
  return { entries, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
