import { nameOf } from './people';
import { statusName } from './statuses';
import { formatTime } from './time';
import type { HistoryEntry } from './types';

/**
 * One history entry in words ("Ann Lee changed status from Open to In progress"), pure, so the
 * wording is tested without a browser.
 */

const FIELD_NAMES: Record<string, string> = {
  title: 'title',
  description: 'description',
  dueAt: 'due date',
  priority: 'priority',
  status: 'status',
  assignee: 'assignee',
  allowAnonymousEdits: 'who may edit',
  tags: 'tags',
  attachments: 'attachments',
  'actionProducer.url': 'producer URL',
  'location.businessUnit': 'business unit',
  'location.site': 'site',
  'location.department': 'department',
  'location.workGroup': 'work group',
  'location.productiveUnit': 'productive unit',
  'location.team': 'team',
  'location.crew': 'crew',
};

function valueInWords(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'nothing';
  if (field === 'status') return statusName(String(value));
  if (field === 'dueAt') return formatTime(String(value));
  if (field === 'allowAnonymousEdits') return value ? 'anyone' : 'the owner and assignee';
  if (field === 'assignee') {
    const person = value as { id: string; name?: string };
    return nameOf({ id: person.id, name: person.name ?? person.id });
  }
  if (Array.isArray(value))
    return value.length === 0
      ? 'none'
      : value.map((v) => (typeof v === 'string' ? v : (v as { url?: string }).url)).join(', ');
  if (field === 'description') return `“${String(value).slice(0, 80)}${String(value).length > 80 ? '…' : ''}”`;
  return String(value);
}

/** Nested objects (location, producer) changed field by field, so each reads on its own. */
function flatten(changes: NonNullable<HistoryEntry['changes']>): [string, unknown, unknown][] {
  const flat: [string, unknown, unknown][] = [];
  for (const [field, { before, after }] of Object.entries(changes)) {
    if ((field === 'location' || field === 'actionProducer') && typeof after === 'object' && after) {
      const was = (before ?? {}) as Record<string, unknown>;
      const now = after as Record<string, unknown>;
      for (const key of new Set([...Object.keys(was), ...Object.keys(now)]))
        if (JSON.stringify(was[key]) !== JSON.stringify(now[key])) flat.push([`${field}.${key}`, was[key], now[key]]);
    } else flat.push([field, before, after]);
  }
  return flat;
}

/** An evidence entry's file in words: "a photo, guard.jpg" or "the file permit.pdf". */
function fileInWords(file: { name?: string; contentType?: string } | undefined): string {
  if (!file?.name) return 'a file';
  return file.contentType?.startsWith('image/') ? `a photo, ${file.name}` : `the file ${file.name}`;
}

export function historyInWords(entry: HistoryEntry): string {
  const who = entry.actor.name;
  switch (entry.type) {
    case 'created':
      return `${who} created the action`;
    case 'deleted':
      return `${who} deleted the action`;
    case 'updated': {
      const parts = flatten(entry.changes ?? {}).map(
        ([field, before, after]) =>
          `${FIELD_NAMES[field] ?? field} from ${valueInWords(field, before)} to ${valueInWords(field, after)}`,
      );
      return parts.length > 0 ? `${who} changed ${parts.join('; ')}` : `${who} changed the action`;
    }
    case 'commented':
      return `${who} commented${entry.comment?.text !== undefined ? `: “${entry.comment.text}”` : ''}`;
    case 'comment-edited':
      return `${who} edited a comment`;
    case 'comment-deleted':
      return `${who} deleted a comment`;
    case 'endorsed':
      return `${who} endorsed the action`;
    case 'endorsement-withdrawn':
      return `${who} withdrew their endorsement`;
    case 'due-soon':
      return 'Due soon';
    case 'overdue':
      return 'Overdue';
    case 'escalated':
      return 'Escalated';
    case 'attachment-added':
      return `${who} added ${fileInWords(entry.attachment)}`;
    case 'attachment-removed':
      return `${who} removed ${fileInWords(entry.attachment)}`;
    case 'attachment-scanned':
      return entry.attachment?.scan === 'threat'
        ? `The malware scan found a threat in ${fileInWords(entry.attachment)}; it is never served`
        : `The malware scan found no threat in ${fileInWords(entry.attachment)}`;
  }
}
