import { nowIso } from '../../dates';
import type { Person } from '../../model/action';
import { importedEvent } from '../../notifications/imported';
import { publishImportEvents } from './queue';

/**
 * How an import's assignees come to be told (contract sections 16 and 18): the worker sends no
 * email. It publishes one `ActionsImported` event per assignee but the importer, "N actions were
 * assigned to you", and the notifier (lib/notifications/), the one sender, turns each into an
 * email or a digest line by its rules (their `assigned` preference, their proved address, once
 * per person and event). An event's id is made of the import and the assignee, so a worker that
 * publishes again after a crash tells nobody twice. The creates themselves tell nobody: their
 * history entry's sight carries the import's id, and the notifier skips `assigned` for those.
 */

/** At most this many events a publish call (it sends them 10 to a PutEvents). */
const EVENTS_PER_CALL = 100;

export async function announceAssignments(
  importId: string,
  importer: Person,
  counts: ReadonlyArray<readonly [string, number]>,
): Promise<number> {
  const time = nowIso();
  const events = counts
    .filter(([id, count]) => id !== importer.id && count > 0)
    .map(([id, count]) => importedEvent(importId, { id: importer.id, name: importer.name }, id, count, time));
  for (let i = 0; i < events.length; i += EVENTS_PER_CALL)
    await publishImportEvents(events.slice(i, i + EVENTS_PER_CALL));
  return events.length;
}
