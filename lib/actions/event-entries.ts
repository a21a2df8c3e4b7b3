import type { RecordedEntry } from '../model/history';
import { entryRef, recordedEntriesOf } from '../store/sync/entries';
import type { PublishedEvent } from './events';

/**
 * The history entries behind events, as recorded, by event id: what a consumer of the bus
 * (the webhook fan-out, the notifier) judges an event by, as of its change: where the action was
 * and who was on it (`sight`), its title then. The bus carries only the public detail, so these
 * are read from the table by key (`attributes`: only those of each entry).
 */
export async function entriesBehind(
  events: readonly PublishedEvent[],
  attributes?: readonly string[],
): Promise<Map<string, RecordedEntry>> {
  const refs = events.flatMap((event) => {
    const ref = refOf(event);
    return ref ? [ref] : [];
  });
  const entries = await recordedEntriesOf(refs, attributes);
  const byEvent = new Map<string, RecordedEntry>();
  for (const event of events) {
    const ref = refOf(event);
    const entry = ref && entries.get(entryRef(ref.actionId, ref.version));
    if (entry) byEvent.set(event.id, entry);
  }
  return byEvent;
}

/** The action and version an event names. */
function refOf(event: PublishedEvent): { actionId: string; version: number } | undefined {
  const { id, version } = event.detail;
  return typeof id === 'string' && typeof version === 'number' ? { actionId: id, version } : undefined;
}
