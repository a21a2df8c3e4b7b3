import { getReminderSettings } from '../config';
import type { Placement } from '../model/access';
import {
  type Action,
  type Attachment,
  type Comment,
  type Endorsement,
  type Location,
  type LocationField,
  locationFields,
  type Person,
  UNASSIGNED,
} from '../model/action';
import type { HistoryEntry, RecordedEntry } from '../model/history';
import { isOpen } from '../model/reminders';
import { foldForComparison } from '../text';
import { type OrderKey, orderedFields, plainProperties, storedFieldList } from './catalogue';
import { shardOf } from './shards';
import {
  attr,
  everythingPartition,
  feedKey,
  feedPartition,
  filterKey,
  itemKind,
  locationKeys,
  lowerKey,
  reminderPartition,
} from './table';

/**
 * The mapping between an action and its stored item. Filterable values are kept once, in the
 * `f` map; the other copies are the lower-case ones `*` needs and the index keys.
 */

export type Item = Record<string, unknown>;
type Filters = Record<string, string | number>;

/** Index keys may not be empty strings, so an empty value simply leaves the item out of that index. */
const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

/** Sets a string filter value as sent and, when folding changes it, its case-insensitive copy. */
function putString(filters: Filters, key: string, value: string) {
  filters[key] = value;
  const lower = foldForComparison(value);
  if (lower !== value) filters[lowerKey(key)] = lower;
}

/**
 * The sort keys of the ordered indexes, from the value they order and the id that breaks ties
 * (composed as the catalogue says). The list reads them from the index, and rebuilds them from
 * a value where it read the value instead, so a list cursor names the same position whichever
 * index served the page.
 */
export const orderKeys: Record<string, OrderKey> = Object.fromEntries(
  orderedFields.flatMap(({ ordered }) => (ordered ? [[ordered.index.sortKey.name, ordered.key]] : [])),
);

/**
 * Each field's value in the `f` map (a string also as its lower-case copy), and its copies as
 * index keys: the partition of its equality index, the sort key of its ordered index, its
 * top-level copy. All from the catalogue.
 */
function filterValues(action: Action): { f: Filters; keys: Item } {
  const f: Filters = {};
  const keys: Item = {};
  for (const field of storedFieldList) {
    const value = field.value(action);
    // A date that is not set (an open action's `closedAt`) is left out, and so matches only `!`.
    if (value === null) continue;
    if (typeof value === 'boolean') {
      if (value) f[field.key] = 1;
    } else if (field.type === 'string') putString(f, field.key, String(value));
    else f[field.key] = value;
    const sortValue = field.sortBy?.value(action);
    if (field.sortBy) f[field.sortBy.key] = sortValue as string;
    if (field.copy) keys[field.copy] = value;
    if (field.equality) {
      const { index, sparse, empty } = field.equality;
      keys[index.partitionKey.name] = sparse ? (nonEmpty(String(value)) ?? empty) : value;
    }
    if (field.ordered)
      keys[field.ordered.index.sortKey.name] = field.ordered.key(sortValue ?? value, action.createdAt, action.id);
  }
  return { f, keys };
}

export function toItem(action: Action): Item {
  const { f, keys } = filterValues(action);
  return {
    [attr.id]: action.id,
    [attr.sortKey]: itemKind.action,
    [attr.filters]: f,
    [attr.title]: action.title,
    [attr.description]: action.description,
    [attr.producerUrl]: action.actionProducer.url,
    [attr.allowAnonymousEdits]: action.allowAnonymousEdits,
    [attr.ownerEmail]: action.owner.email,
    [attr.initiator]: action.initiator,
    [attr.assigneeEmail]: action.assignee ? action.assignee.email : null,
    [attr.endorsedBy]: action.endorsedBy,
    [attr.attachments]: action.attachments,
    [attr.tags]: action.tags,
    [attr.comments]: action.comments,
    [attr.commentCount]: action.commentCount,
    [attr.version]: action.version,
    [attr.everything]: everythingPartition(shardOf(action.id)),
    ...keys,
    [attr.reminded]: action.reminded,
    [attr.remindedBefore]: action.remindedBefore?.length ? action.remindedBefore : undefined,
    [attr.overdueKey]: action.overdue ? everythingPartition(shardOf(action.id)) : undefined,
    // Only open actions wait for reminders: a closed one leaves the sweep's queue.
    [attr.reminderKey]: isOpen(action.status, getReminderSettings())
      ? reminderPartition(action.reminded, action.id)
      : undefined,
  };
}

export function fromItem(item: Item): Action {
  const f = (item[attr.filters] ?? {}) as Filters;
  const text = (key: string): string => (typeof f[key] === 'string' ? (f[key] as string) : '');
  const assigneeId = text(filterKey.assigneeId);
  const producerUrl = item[attr.producerUrl];
  const reference = text(filterKey.producerReference);
  // The plain properties in the places the view has always shown them; any other comes last.
  const { dueAt, createdAt, updatedAt, ...otherPlain } = plainProperties(f);
  return {
    id: item[attr.id] as string,
    title: item[attr.title] as string,
    description: (item[attr.description] as string | undefined) ?? '',
    actionProducer: {
      name: text(filterKey.producerName),
      ...(typeof producerUrl === 'string' ? { url: producerUrl } : {}),
      ...(reference ? { reference } : {}),
    },
    location: Object.fromEntries(locationFields.map((l: LocationField) => [l, text(locationKeys[l])])) as Location,
    allowAnonymousEdits: item[attr.allowAnonymousEdits] === true,
    dueAt,
    priority: Number(f[filterKey.priority]),
    status: Number(f[filterKey.status]),
    owner: {
      id: text(filterKey.ownerId),
      name: text(filterKey.ownerName),
      email: (item[attr.ownerEmail] as string | null | undefined) ?? null,
    },
    initiator: item[attr.initiator] as Person,
    assignee:
      assigneeId === UNASSIGNED.id
        ? null
        : {
            id: assigneeId,
            name: text(filterKey.assigneeName),
            email: (item[attr.assigneeEmail] as string | null | undefined) ?? null,
          },
    endorsedBy: (item[attr.endorsedBy] as Endorsement[] | undefined) ?? [],
    attachments: (item[attr.attachments] as Attachment[] | undefined) ?? [],
    tags: (item[attr.tags] as string[] | undefined) ?? [],
    comments: (item[attr.comments] as Comment[] | undefined) ?? [],
    commentCount: Number(item[attr.commentCount] ?? 0),
    createdAt,
    updatedAt,
    closedAt: typeof f[filterKey.closedAt] === 'string' ? (f[filterKey.closedAt] as string) : null,
    version: Number(item[attr.version] ?? 1),
    overdue: f[filterKey.overdue] !== undefined,
    reminded: Number(item[attr.reminded] ?? 0),
    ...(Array.isArray(item[attr.remindedBefore])
      ? { remindedBefore: item[attr.remindedBefore] as Array<{ dueAt: string; level: number }> }
      : {}),
    ...otherPlain,
  };
}

/** A deleted action's tombstone: its id, when, and nothing any index keys on. */
export const tombstone = (id: string, version: number, deletedAt: string): Item => ({
  [attr.id]: id,
  [attr.sortKey]: itemKind.action,
  [attr.deletedAt]: deletedAt,
  [attr.version]: version,
});

export const isTombstone = (item: Item): boolean => item[attr.deletedAt] !== undefined;

/**
 * Whether a scanned item is an action's own (live or a tombstone): sort key `A` in an action's
 * partition. Every other partition of the two tables is named `<kind>#…` (counters `n#`, the
 * value registry `v#`, postings and marks `g#`), and a registered value is a sort key too: a
 * crew named "A" is not an action.
 */
export const isActionItem = (item: Item): boolean =>
  item[attr.sortKey] === itemKind.action && !String(item[attr.id]).includes('#');

/** A value by its path (`f.st`) in an item read from the store. */
export function valueAt(item: Item, path: string): unknown {
  let value: unknown = item;
  for (const segment of path.split('.')) value = (value as Item | undefined)?.[segment];
  return value;
}

/** A history entry as stored: in its action's partition, sorted by version. */
export const historyItem = (entry: RecordedEntry): Item => {
  const { actionId, ...rest } = entry;
  return {
    [attr.id]: actionId,
    [attr.sortKey]: itemKind.history(entry.version),
    ...rest,
    [attr.feedPartition]: feedPartition(shardOf(actionId)),
    [attr.feedKey]: feedKey(entry.time, actionId, entry.version),
  };
};

/** A stored history entry, as recorded (with the action snapshot events carry). */
export function recordedEntryFrom(item: Item): RecordedEntry {
  const {
    [attr.id]: actionId,
    [attr.sortKey]: _sortKey,
    [attr.feedPartition]: _feedPartition,
    [attr.feedKey]: _feedKey,
    ...rest
  } = item;
  return { actionId: actionId as string, ...(rest as unknown as HistoryEntry) };
}

/** A history entry as the API shows it. */
export function historyEntryFrom(item: Item): HistoryEntry {
  const { version, type, actor, time, changes, comment, dueAt, attachment } = recordedEntryFrom(item);
  return {
    version: Number(version),
    type,
    actor,
    time,
    ...(changes ? { changes } : {}),
    // Only the id and the author: entries recorded before the text left them may still hold one.
    ...(comment ? { comment: { id: comment.id, ...(comment.author ? { author: comment.author } : {}) } } : {}),
    ...(dueAt ? { dueAt } : {}),
    ...(attachment ? { attachment } : {}),
  };
}

/**
 * A comment as stored: in its action's partition, sorted by its time-ordered id (UUIDv7), with
 * where the action was and who was on it when its text was written (`textPlacement`, internal):
 * the change feed shows the text only to a reader who could see the action then.
 */
export const commentItem = (actionId: string, comment: Comment, textPlacement: Placement): Item => ({
  [attr.id]: actionId,
  [attr.sortKey]: itemKind.comment(comment.id),
  [attr.commentId]: comment.id,
  author: comment.author,
  text: comment.text,
  createdAt: comment.createdAt,
  updatedAt: comment.updatedAt,
  [attr.textPlacement]: textPlacement,
});

export const commentFrom = (item: Item): Comment => ({
  id: item[attr.commentId] as string,
  author: item.author as Person,
  text: item.text as string,
  createdAt: item.createdAt as string,
  updatedAt: item.updatedAt as string,
});
