import { cursorKey, encodeCursor } from '../cursor';
import { parseDateTime } from '../dates';
import { ValidationError } from '../errors';
import { parsePageQuery } from '../filter/page-query';
import { type Sight, sawChange, type Viewer } from '../model/access';
import { type CommentText, commentTextsOf } from '../store/actions/threads';
import { type ReadBudget, requestBudget } from '../store/query/budget';
import { type FeedEntry, isFeedPosition, readChanges } from '../store/sync/feed';
import type { Usage } from '../usage';

/**
 * The change feed (contract section 11): `GET /api/changes?limit=&after=` or `?since=`. Every
 * history entry of every action, oldest first, with a cursor on every page, also an empty one.
 * How the store keeps a poller from missing or repeating an entry is in `lib/store/sync/feed.ts`.
 */

export const changesLimits = { defaultLimit: 100, maxLimit: 1000 } as const;

/** What a feed cursor is bound to. */
const FEED_SCOPE = 'changes';

/** `limit` (1-1000), and where to start: `after` (a cursor) or `since` (a date-time), or the beginning. */
export function parseChangesQuery(raw: string, callerId: string): { limit: number; from: string } {
  const {
    limit,
    cursor: after,
    others,
  } = parsePageQuery(
    raw,
    { limits: changesLimits, cursor: 'after', others: ['since'] },
    ({ cursor, others: { since } }) => [
      ...(cursor !== undefined && since !== undefined
        ? [{ parameter: 'since', message: 'starts a feed; a cursor in after continues one: send one of them' }]
        : []),
      ...(since !== undefined && parseDateTime(since) === undefined
        ? [{ parameter: 'since', message: 'must be an ISO 8601 date-time with an offset or Z' }]
        : []),
    ],
  );
  const since = others.since === undefined ? undefined : parseDateTime(others.since);
  return { limit, from: after !== undefined ? feedCursor(after, callerId) : (since ?? '') };
}

/** Where a feed cursor given to this caller stops; another caller's cursor is a 400 naming `after`. */
function feedCursor(after: string, callerId: string): string {
  try {
    return cursorKey(after, { scope: FEED_SCOPE, caller: callerId }, isFeedPosition);
  } catch (error) {
    // The feed names its cursor `after`.
    if (error instanceof ValidationError)
      throw new ValidationError([{ parameter: 'after', message: 'is not a cursor this feed gave out' }]);
    throw error;
  }
}

/**
 * One page of the feed and the cursor to poll with next (always present). A scoped caller sees
 * the entries of actions they could see before or after each entry's change (contract section 14).
 */
export async function listChanges(
  raw: string,
  viewer: Viewer,
  usage?: Usage,
): Promise<{ entries: FeedEntry[]; nextCursor: string }> {
  const { limit, from } = parseChangesQuery(raw, viewer.person.id);
  const seen = viewer.mode === 'scoped' ? (sight: Sight) => sawChange(viewer, sight) : undefined;
  const budget = requestBudget(usage);
  const page = await readChanges(limit, from, Date.now(), seen, budget);
  return {
    entries: await withCommentTexts(page.entries, viewer, budget),
    nextCursor: encodeCursor({ scope: FEED_SCOPE, caller: viewer.person.id }, page.next),
  };
}

/**
 * Comment entries show the comment's current text while it exists, as `GET .../history` does
 * (contract section 12: the text lives only in the comment), read by key from the comments
 * themselves (never the whole actions); what is read is charged to the caller's read quota.
 * A scoped caller sees that text only if they could see the action when it was written: an
 * entry shown because it came before the action left their sight never carries a later edit.
 */
async function withCommentTexts(entries: FeedEntry[], viewer: Viewer, budget: ReadBudget): Promise<FeedEntry[]> {
  const refs = entries.flatMap((entry) =>
    entry.comment ? [{ actionId: entry.actionId, commentId: entry.comment.id }] : [],
  );
  if (refs.length === 0) return entries;
  const { texts, read } = await commentTextsOf(refs);
  budget.record(read);
  return entries.map((entry) => {
    if (!entry.comment) return entry;
    const { text: _stored, ...comment } = entry.comment;
    const current = texts.get(comment.id);
    const readable = current !== undefined && sawText(viewer, current, entry.time);
    return { ...entry, comment: readable ? { ...comment, text: current.text } : comment };
  });
}

/**
 * Whether the viewer could see the action when the comment's text was written; for a comment
 * written before comments kept where that was, whether the text is no later than the entry (a
 * scoped viewer shown the entry saw the action then).
 */
function sawText(viewer: Viewer, current: CommentText, entryTime: string): boolean {
  if (viewer.mode === 'open') return true;
  if (current.placement) return sawChange(viewer, { after: current.placement });
  return current.writtenAt <= entryTime;
}
