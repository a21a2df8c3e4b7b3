/**
 * The action: what it is (its domain shape, the people on it, the location fields) and what one
 * action may hold. Types and constants only; what checks a body is in `validation.ts`, what makes
 * and edits an action in `edits.ts`, what the API shows in `view.ts`. Pure; the store decides how
 * it is kept.
 */

export interface Person {
  id: string;
  name: string;
  email: string | null;
}

export interface Attachment {
  url: string;
  name?: string;
  contentType?: string;
  size?: number;
}

/** Where an uploaded file stands with the malware scanner (contract section 15). */
export type ScanState = 'not-scanned' | 'pending' | 'clean' | 'threat';

/** A file uploaded to storage and attached (`lib/model/evidence.ts`); a link attachment has a `url` instead of an `id`. */
export interface UploadedAttachment {
  id: string;
  name: string;
  contentType: string;
  size: number;
  uploadedBy: Person;
  uploadedAt: string;
  scan: ScanState;
}

/** The seven location fields, in the order the seed lists them. */
export const locationFields = [
  'businessUnit',
  'site',
  'department',
  'workGroup',
  'productiveUnit',
  'team',
  'crew',
] as const;
export type LocationField = (typeof locationFields)[number];

export type Location = Record<LocationField, string>;

export interface Action {
  id: string;
  title: string;
  description: string;
  actionProducer: { name: string; url?: string; reference?: string };
  location: Location;
  allowAnonymousEdits: boolean;
  dueAt: string;
  priority: number;
  status: number;
  owner: Person;
  initiator: Person;
  /** `null` when nobody is assigned. */
  assignee: Person | null;
  /** Who endorsed the action, in endorsement order (at most `actionLimits.endorsements`). */
  endorsedBy: Endorsement[];
  attachments: Array<Attachment | UploadedAttachment>;
  tags: string[];
  /** The latest `actionLimits.latestComments` comments, oldest of them first. */
  comments: Comment[];
  /** How many comments the action has in all. */
  commentCount: number;
  createdAt: string;
  updatedAt: string;
  /**
   * When the status last entered a closed status (contract section 17), `null` while open; an
   * action created closed has its `createdAt`. Set by the service (`settleClosedAt`).
   */
  closedAt: string | null;
  /** Bumped by every write; the ETag. */
  version: number;
  /** Open and past `dueAt`, as of the last sweep (see `lib/model/reminders.ts`). */
  overdue: boolean;
  /** Which reminders were sent for the current `dueAt` (a `ReminderLevel`); not shown. */
  reminded: number;
  /** Earlier `dueAt` values and the reminders sent for each, latest last (bounded); not shown. */
  remindedBefore?: Array<{ dueAt: string; level: number }>;
}

export interface Comment {
  id: string;
  author: Person;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export interface Endorsement extends Person {
  endorsedAt: string;
}

/** What the API returns for an action (the seed's "actions object"). */
export interface ActionView extends Omit<Action, 'priority' | 'status' | 'assignee' | 'reminded' | 'remindedBefore'> {
  priority: string;
  status: string;
  assignee: { id: string; name: string; email: string | null };
}

/** How the seed shows an action nobody is assigned to. */
export const UNASSIGNED = { id: 'undefined', name: 'Unknown user', email: '' } as const;

/** What one action may hold (`queryLimits` bounds a list query, `MAX_BODY_BYTES` a request body). */
export const actionLimits = {
  title: 200,
  /**
   * UTF-8 bytes of a title once folded for comparison (`foldForComparison`): the title's sort key
   * holds it with a creation time and an id (62 bytes) within DynamoDB's 1,024. 200 ordinary
   * characters fold to at most 600 bytes; only characters that grow under NFC or case folding
   * (U+FB2C, U+1D160: 6 bytes a UTF-16 unit) reach it.
   */
  foldedTitleBytes: 900,
  description: 10_000,
  shortText: 200,
  url: 2_000,
  email: 320,
  attachments: 50,
  tags: 50,
  tag: 100,
  maxInteger: 999_999_999,
  comment: 2_000,
  latestComments: 5,
  endorsements: 100,
} as const;
