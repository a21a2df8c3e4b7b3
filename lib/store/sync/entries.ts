import type { RecordedEntry } from '../../model/history';
import { batchGet } from '../batch';
import { canBeKey } from '../client';
import { attr, itemKind } from '../table';

/**
 * History entries as recorded (sight, title and all), read by key in one BatchGetItem per 100:
 * what consumers of the bus judge an event by, as of its change (the bus carries only the public
 * detail). Keyed by `entryRef`; an entry that is not there is missing from the map. Light on
 * purpose (no item mapping module): the webhook functions load it.
 */
export async function recordedEntriesOf(
  refs: ReadonlyArray<{ actionId: string; version: number }>,
  attributes?: readonly string[],
): Promise<Map<string, RecordedEntry>> {
  const wanted = refs.filter((r) => canBeKey(r.actionId) && Number.isSafeInteger(r.version) && r.version > 0);
  const keys = [...new Map(wanted.map((r) => [entryRef(r.actionId, r.version), r])).values()].map((r) => ({
    [attr.id]: r.actionId,
    [attr.sortKey]: itemKind.history(r.version),
  }));
  if (keys.length === 0) return new Map();
  const { items } = await batchGet(keys, {
    consistent: true,
    ...(attributes ? { attributes: [attr.id, attr.sortKey, 'version', ...attributes] } : {}),
  });
  return new Map(
    items.map((item) => {
      const { [attr.id]: actionId, [attr.sortKey]: _key, [attr.feedPartition]: _p, [attr.feedKey]: _f, ...rest } = item;
      const entry = { ...(rest as unknown as RecordedEntry), actionId: actionId as string };
      return [entryRef(entry.actionId, Number(entry.version)), entry];
    }),
  );
}

/** How `recordedEntriesOf` keys an entry. */
export const entryRef = (actionId: string, version: number) => `${actionId}/${version}`;
