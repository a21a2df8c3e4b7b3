import type { Sight } from './access';
import type { ActionView, Person } from './action';
import type { TrendSubject } from './trends';

/**
 * An action's history: one entry per change, versions 1, 2, 3... with no gaps, each stored in
 * the same transaction as its change. Every entry is also published as an event (see
 * `lib/actions/events.ts`), so the history is the service's record of what happened.
 */

export type HistoryType =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'commented'
  | 'comment-edited'
  | 'comment-deleted'
  | 'endorsed'
  | 'endorsement-withdrawn'
  | 'due-soon'
  | 'overdue'
  | 'escalated'
  | 'attachment-added'
  | 'attachment-removed'
  | 'attachment-scanned';

export type Changes = Record<string, { before: unknown; after: unknown }>;

export interface HistoryEntry {
  version: number;
  type: HistoryType;
  actor: Person;
  time: string;
  /** For `updated`: exactly the fields that changed. */
  changes?: Changes;
  /**
   * For the comment types: which comment and who wrote it (entries recorded before this rule
   * name no author). The text is never stored here, only in the comment: the API adds the
   * comment's current text while it exists (contract section 12).
   */
  comment?: { id: string; author?: Person; text?: string };
  /** For the reminder types (`due-soon`, `overdue`, `escalated`): the `dueAt` the reminder is about. */
  dueAt?: string;
  /**
   * For the attachment types: which uploaded file (section 15); for `attachment-scanned`, written
   * by the service (actor `system`) when the malware scanner's verdict arrives, also that verdict.
   */
  attachment?: { id: string; name: string; contentType: string; size: number; scan?: 'clean' | 'threat' };
}

/** A stored entry also keeps the action as it was created or deleted, for the event. */
export interface RecordedEntry extends HistoryEntry {
  actionId: string;
  action?: ActionView;
  /** For the reminder types: who and what the reminder is about, for whoever acts on the event. */
  subject?: Pick<ActionView, 'owner' | 'assignee' | 'status' | 'title'>;
  /**
   * Where the action was and who was on it, before and after this change (section 14): what
   * judging who may hear of the entry needs. Internal: never part of a view, a feed entry or a
   * webhook body.
   */
  sight?: Sight;
  /**
   * For an `updated` entry that changes `status`: the action as the change left it, what the
   * trend counters count the change under (section 17, `lib/model/trends.ts`). Internal, like `sight`.
   */
  trend?: TrendSubject;
}

/** What a change records; the store adds the version, the time and the actor. */
export type EntryDraft = Pick<RecordedEntry, 'type' | 'changes' | 'dueAt' | 'subject' | 'attachment'> & {
  comment?: { id: string; author: Person };
};

/** The event each entry type publishes. */
export const eventTypeOf: Record<HistoryType, string> = {
  created: 'ActionCreated',
  updated: 'ActionUpdated',
  deleted: 'ActionDeleted',
  commented: 'ActionCommented',
  'comment-edited': 'ActionCommentEdited',
  'comment-deleted': 'ActionCommentDeleted',
  endorsed: 'ActionEndorsed',
  'endorsement-withdrawn': 'ActionEndorsementWithdrawn',
  'due-soon': 'ActionDueSoon',
  overdue: 'ActionOverdue',
  escalated: 'ActionEscalated',
  'attachment-added': 'ActionAttachmentAdded',
  'attachment-removed': 'ActionAttachmentRemoved',
  'attachment-scanned': 'ActionAttachmentScanned',
};
