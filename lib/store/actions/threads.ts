import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { cursorKey, encodeCursor } from '../../cursor';
import { settleAll } from '../../flow/fan-out';
import { type Placement, placementOf } from '../../model/access';
import type { Comment } from '../../model/action';
import type { HistoryEntry } from '../../model/history';
import { batchGet } from '../batch';
import { canBeKey, send, tableName } from '../client';
import {
  commentFrom,
  commentItem,
  fromItem,
  historyEntryFrom,
  type Item,
  isTombstone,
  recordedEntryFrom,
} from '../item';
import { queryInput } from '../query/key-query';
import { queryPage } from '../query/pager';
import { attr, itemKind } from '../table';

/**
 * The two threads kept in an action's partition beside it: its history entries and its
 * comments, each read by key in pages, oldest first. A page ends with a sealed cursor
 * (lib/cursor.ts) bound to the thread (the action and which of its threads) and to the reader
 * it was given to; a cursor for another action, for the other thread, of another reader, or
 * altered in any way is a 400, so no cursor reaches data its path does not name.
 */

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Which page of a thread, and for whom: `reader` (the caller's id) is who its cursors are bound to. */
export interface ThreadPage {
  limit: number;
  cursor?: string;
  reader: string;
}

/** What a thread's cursor is bound to: one thread of one action, and its reader. */
const threadBinding = (actionId: string, prefix: string, reader: string) => ({
  scope: `thread:${prefix}${actionId}`,
  caller: reader,
});

/** A thread cursor belongs to one action and one thread: its key must be of that thread's shape. */
const threadKey =
  (shape: RegExp) =>
  (key: unknown): key is string =>
    typeof key === 'string' && shape.test(key);

async function readThread(
  actionId: string,
  prefix: string,
  keyShape: RegExp,
  { limit, cursor, reader }: ThreadPage,
): Promise<{ items: Item[]; nextCursor?: string }> {
  const binding = threadBinding(actionId, prefix, reader);
  const after = cursor === undefined ? undefined : cursorKey(cursor, binding, threadKey(keyShape));
  if (!canBeKey(actionId)) return { items: [] };
  const result = await queryPage(
    queryInput({
      partition: actionId,
      sort: { op: 'begins_with', prefix },
      consistent: true,
      limit,
      ...(after ? { startKey: { [attr.id]: actionId, [attr.sortKey]: after } } : {}),
    }),
  );
  const items = result.Items ?? [];
  const last = items[items.length - 1];
  // DynamoDB hands back a LastEvaluatedKey whenever it stopped at the limit, even if nothing follows.
  const more = result.LastEvaluatedKey !== undefined && last !== undefined;
  return { items, ...(more ? { nextCursor: encodeCursor(binding, last[attr.sortKey] as string) } : {}) };
}

const HISTORY_KEY = /^h#\d{10}$/;
const COMMENT_KEY = /^c#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A history page stops early once it holds this many bytes of entries (an edit's entry carries
 * the changed fields before and after, up to ~130 KB), so no page outgrows Lambda's 6 MB response.
 */
export const MAX_HISTORY_PAGE_BYTES = 4_000_000;

/** One page of an action's history, oldest first; shorter than `limit` when its entries are large. */
export async function readHistory(actionId: string, wanted: ThreadPage): Promise<Page<HistoryEntry>> {
  const page = await readThread(actionId, itemKind.historyPrefix, HISTORY_KEY, wanted);
  const entries: HistoryEntry[] = [];
  let bytes = 0;
  for (const [index, item] of page.items.entries()) {
    const entry = historyEntryFrom(item);
    bytes += Buffer.byteLength(JSON.stringify(entry), 'utf8');
    if (bytes > MAX_HISTORY_PAGE_BYTES && entries.length > 0) {
      const last = page.items[index - 1] as Item;
      const binding = threadBinding(actionId, itemKind.historyPrefix, wanted.reader);
      return { items: entries, nextCursor: encodeCursor(binding, last[attr.sortKey] as string) };
    }
    entries.push(entry);
  }
  return { items: entries, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/**
 * Where an action is and who is on it, or for a deleted one where it was and who was on it when
 * it was deleted (its last entry's sight, or the snapshot a delete entry keeps): what decides who
 * may read its history. `undefined` for an id that never named an action.
 */
export async function historyPlacement(actionId: string): Promise<Placement | undefined> {
  if (!canBeKey(actionId)) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: actionId, [attr.sortKey]: itemKind.action },
      ConsistentRead: true,
    }),
  );
  if (!item) return undefined;
  if (!isTombstone(item)) return placementOf(fromItem(item));
  const { Items = [] } = await queryPage(
    queryInput({
      partition: actionId,
      sort: { op: 'begins_with', prefix: itemKind.historyPrefix },
      consistent: true,
      descending: true,
      limit: 1,
    }),
  );
  const last = Items[0] && recordedEntryFrom(Items[0]);
  return last?.sight?.before ?? last?.sight?.after ?? (last?.action ? placementOf(last.action) : undefined);
}

/** Whether an action exists now, existed once (deleted: its tombstone remains), or never did. */
export type ActionState = 'live' | 'deleted' | 'never';

/**
 * The current text of these comments of an action, read from the comments themselves (history
 * entries and events never hold it): a comment that is deleted has none, and no comment has any
 * once its action is deleted. Also says whether the action exists, existed or never did, read
 * in the same call. One BatchGetItem per 100 keys, strongly consistent; the action item is read
 * with the comments, so the read costs its size.
 */
export async function currentCommentTexts(
  actionId: string,
  commentIds: readonly string[],
): Promise<{ action: ActionState; texts: Map<string, string> }> {
  const texts = new Map<string, string>();
  if (!canBeKey(actionId)) return { action: 'never', texts };
  const sortKeys = [
    itemKind.action,
    ...new Set(commentIds.map(itemKind.comment).filter((key) => COMMENT_KEY.test(key))),
  ];
  const { items: found } = await batchGet(
    sortKeys.map((sk) => ({ [attr.id]: actionId, [attr.sortKey]: sk })),
    COMMENT_TEXT_READ,
  );
  const actionItem = found.find((item) => item[attr.sortKey] === itemKind.action);
  const action: ActionState = !actionItem ? 'never' : actionItem[attr.deletedAt] !== undefined ? 'deleted' : 'live';
  if (action === 'live') {
    for (const item of found) {
      if (item[attr.sortKey] !== itemKind.action) texts.set(item[attr.commentId] as string, item.text as string);
    }
  }
  return { action, texts };
}

/** What a comment's text is read with: its key, its id and text (and, on the action, whether it is deleted). */
const COMMENT_TEXT_READ = {
  consistent: true,
  attributes: [attr.id, attr.sortKey, attr.deletedAt, attr.commentId, 'text'],
};

/** A comment's current text, when it was written, and (comments written since it was kept) where its action was then. */
export interface CommentText {
  text: string;
  writtenAt: string;
  placement?: Placement;
}

/**
 * The current text of comments of many actions (a page of the change feed), read by key: the
 * comment items themselves and, for each action, its latest history entry (whether it was
 * deleted), never the action items, which hold the whole action and cost its size. `read`: the
 * items read, for the caller's read quota.
 */
export async function commentTextsOf(
  refs: ReadonlyArray<{ actionId: string; commentId: string }>,
): Promise<{ texts: Map<string, CommentText>; read: number }> {
  const texts = new Map<string, CommentText>();
  const wanted = refs.filter((r) => canBeKey(r.actionId) && COMMENT_KEY.test(itemKind.comment(r.commentId)));
  const actions = [...new Set(wanted.map((r) => r.actionId))];
  const keys = [...new Map(wanted.map((r) => [`${r.actionId}/${r.commentId}`, r])).values()].map((r) => ({
    [attr.id]: r.actionId,
    [attr.sortKey]: itemKind.comment(r.commentId),
  }));
  const [comments, latest] = await settleAll([
    batchGet(keys, {
      ...COMMENT_TEXT_READ,
      attributes: [...COMMENT_TEXT_READ.attributes, 'updatedAt', attr.textPlacement],
    }).then((result) => result.items),
    settleAll(actions.map(latestHistoryType)),
  ] as const);
  const deleted = new Set(actions.filter((_, i) => latest[i] === 'deleted'));
  for (const item of comments) {
    if (deleted.has(item[attr.id] as string)) continue;
    const placement = item[attr.textPlacement] as Placement | undefined;
    texts.set(item[attr.commentId] as string, {
      text: item.text as string,
      writtenAt: item.updatedAt as string,
      ...(placement ? { placement } : {}),
    });
  }
  return { texts, read: comments.length + latest.filter((type) => type !== undefined).length };
}

/** The type of an action's latest history entry (`deleted` once it is deleted), reading that entry alone. */
async function latestHistoryType(actionId: string): Promise<string | undefined> {
  const result = await queryPage(
    queryInput({
      partition: actionId,
      sort: { op: 'begins_with', prefix: itemKind.historyPrefix },
      projection: ['type'],
      descending: true,
      consistent: true,
      limit: 1,
    }),
  );
  return result.Items?.[0]?.type as string | undefined;
}

/** One page of an action's comments, oldest first. */
export async function readComments(actionId: string, wanted: ThreadPage): Promise<Page<Comment>> {
  const page = await readThread(actionId, itemKind.commentPrefix, COMMENT_KEY, wanted);
  return { items: page.items.map(commentFrom), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** The latest `count` comments of an action, oldest of them first. */
export async function latestComments(actionId: string, count: number): Promise<Comment[]> {
  const result = await queryPage(
    queryInput({
      partition: actionId,
      sort: { op: 'begins_with', prefix: itemKind.commentPrefix },
      consistent: true,
      descending: true,
      limit: count,
    }),
  );
  return (result.Items ?? []).map(commentFrom).reverse();
}

/** One comment, if the action has it. */
export async function readComment(actionId: string, commentId: string): Promise<Comment | undefined> {
  const sortKey = itemKind.comment(commentId);
  if (!COMMENT_KEY.test(sortKey) || !canBeKey(actionId)) return undefined;
  const result = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: actionId, [attr.sortKey]: sortKey },
      ConsistentRead: true,
    }),
  );
  return result.Item ? commentFrom(result.Item) : undefined;
}

/** The comment's key, with a condition that it still exists (and, for an edit, who wrote it). */
const existing = (actionId: string, commentId: string, authorId?: string) => ({
  TableName: tableName(),
  Key: { [attr.id]: actionId, [attr.sortKey]: itemKind.comment(commentId) },
  ConditionExpression: authorId ? 'attribute_exists(#sk) AND #author.#id = :author' : 'attribute_exists(#sk)',
  ExpressionAttributeNames: { '#sk': attr.sortKey, ...(authorId ? { '#author': 'author', '#id': 'id' } : {}) },
});

/** The parts of a change's transaction that write comments. */
export const commentWrites = {
  add: (actionId: string, comment: Comment, textPlacement: Placement) => ({
    Put: {
      TableName: tableName(),
      Item: commentItem(actionId, comment, textPlacement),
      ConditionExpression: 'attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#sk': attr.sortKey },
    },
  }),
  edit: (actionId: string, comment: Comment, textPlacement: Placement) => {
    const key = existing(actionId, comment.id, comment.author.id);
    return {
      Update: {
        ...key,
        UpdateExpression: 'SET #text = :text, #updatedAt = :stamp, #placement = :placement',
        ExpressionAttributeNames: {
          ...key.ExpressionAttributeNames,
          '#text': 'text',
          '#updatedAt': 'updatedAt',
          '#placement': attr.textPlacement,
        },
        ExpressionAttributeValues: {
          ':author': comment.author.id,
          ':text': comment.text,
          ':stamp': comment.updatedAt,
          ':placement': textPlacement,
        },
      },
    };
  },
  remove: (actionId: string, commentId: string) => ({ Delete: existing(actionId, commentId) }),
};
