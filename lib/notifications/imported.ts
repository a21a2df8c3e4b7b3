import { v5 as uuidv5 } from 'uuid';
import type { PublishedEvent } from '../actions/events';

/**
 * What an import tells the notifier (contract sections 16 and 18): one `ActionsImported` event per
 * assignee of a real run, "N actions were assigned to you by X's import", instead of one notice
 * per created row. The import worker publishes them (lib/transfer/import/announce.ts); the
 * notifier, the one sender, judges and sends them by its own rules.
 */

export const ACTIONS_IMPORTED = 'ActionsImported';

/** UUID v5 namespace of these events' ids: one id per (import, assignee), so a republished one is the same event. */
const IMPORTED_NAMESPACE = '0f6d2c4a-8e1b-4b7f-a3d5-6c9e1f2b7a40';

export interface ImportedDetail {
  eventId: string;
  importId: string;
  importer: { id: string; name: string };
  assignee: { id: string };
  /** Actions of the import assigned to them. */
  count: number;
  time: string;
}

/** The event that tells `assigneeId` how many actions `importer`'s import `importId` assigned them. */
export function importedEvent(
  importId: string,
  importer: { id: string; name: string },
  assigneeId: string,
  count: number,
  time: string,
): PublishedEvent & { detail: ImportedDetail & Record<string, unknown> } {
  const id = uuidv5(`${importId}/${assigneeId}`, IMPORTED_NAMESPACE);
  return {
    id,
    detailType: ACTIONS_IMPORTED,
    time,
    detail: { eventId: id, importId, importer, assignee: { id: assigneeId }, count, time },
  };
}

/** The detail of an `ActionsImported` event as a queue delivers it, or `undefined` when it is not one. */
export function importedDetail(event: PublishedEvent): ImportedDetail | undefined {
  if (event.detailType !== ACTIONS_IMPORTED) return undefined;
  const d = event.detail as Partial<ImportedDetail>;
  const ok =
    typeof d.importId === 'string' &&
    typeof d.importer?.id === 'string' &&
    typeof d.importer.name === 'string' &&
    typeof d.assignee?.id === 'string' &&
    Number.isSafeInteger(d.count) &&
    (d.count as number) > 0;
  return ok ? (d as ImportedDetail) : undefined;
}
