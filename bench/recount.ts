import { locationFields } from '../lib/model/action';
import {
  type CountedField,
  counterKey,
  counterOf,
  countsOfItem,
  noValueAttributes,
  readCount,
} from '../lib/store/counters/counters';
import {
  locationCounter,
  prefixByOverdue,
  prefixByStatus,
  prefixCounter,
  prefixDepths,
  prefixValue,
} from '../lib/store/counters/prefixes';
import { scanEvery } from '../lib/store/list/run/scan';
import { encodeLocation } from '../lib/store/location-tuple';
import { attr, filterKey, itemKind, locationKeys } from '../lib/store/table';

/**
 * The benchmark's proof that the counters equal the truth: one full Scan of the table counts
 * every live action by each counted value, straight from the stored filter map (not through the
 * counter code's own `countedValues`), and sums every counter item it meets; then every counter
 * is also read the way a list reads it (`readCount`). Any difference is a mismatch.
 */

/** Where the stored filter map keeps each counted value. */
const counted: Array<[Exclude<CountedField, 'all'>, string]> = [
  ['owner', filterKey.ownerId],
  ['assignee', filterKey.assigneeId],
  ['status', filterKey.status],
  ['priority', filterKey.priority],
  ['location.site', filterKey.site],
  ['location.businessUnit', filterKey.businessUnit],
  ['actionProducer.name', filterKey.producerName],
  // Every location field below the site too (issue 50, `KEY_VERSION` 11).
  ['location.department', filterKey.department],
  ['location.workGroup', filterKey.workGroup],
  ['location.productiveUnit', filterKey.productiveUnit],
  ['location.team', filterKey.team],
  ['location.crew', filterKey.crew],
  // The folded title (`foldForComparison`), as the filter map keeps it for `=` and `*`.
  ['title', filterKey.titleLower],
];

/** The fields whose counters are also split by status and by overdue, and where their values are. */
const paired: Array<[PairedField, string]> = [
  ['owner', filterKey.ownerId],
  ['assignee', filterKey.assigneeId],
  ['location.site', filterKey.site],
  ['location.businessUnit', filterKey.businessUnit],
  ['actionProducer.name', filterKey.producerName],
  ['location.department', filterKey.department],
  ['location.workGroup', filterKey.workGroup],
  ['location.productiveUnit', filterKey.productiveUnit],
  ['location.team', filterKey.team],
  ['location.crew', filterKey.crew],
];
type PairedField =
  | 'owner'
  | 'assignee'
  | 'location.site'
  | 'location.businessUnit'
  | 'actionProducer.name'
  | 'location.department'
  | 'location.workGroup'
  | 'location.productiveUnit'
  | 'location.team'
  | 'location.crew';

export interface RecountResult {
  actions: number;
  /** Distinct counters (field and value), over all their shards. */
  counters: number;
  counterItems: number;
  mismatches: string[];
  seconds: number;
}

/** `expectedItems`: about how many items the table holds, to size the scan's segments. */
export async function recount(expectedItems: number): Promise<RecountResult> {
  const started = Date.now();
  const truth = new Map<string, { field: CountedField; value: string; count: number }>();
  const stored = new Map<string, number>();
  let actions = 0;
  let counterItems = 0;
  const bump = (field: CountedField, value: string) => {
    const key = counterKey(field, value);
    const entry = truth.get(key) ?? { field, value, count: 0 };
    entry.count++;
    truth.set(key, entry);
  };
  await scanEvery(
    expectedItems,
    (item) => {
      const id = item[attr.id] as string;
      if (item[attr.sortKey] === itemKind.action) {
        if (item[attr.deletedAt] !== undefined) return;
        actions++;
        bump('all', '');
        const f = (item[attr.filters] ?? {}) as Record<string, unknown>;
        for (const [field, key] of counted) bump(field, String(f[key] ?? ''));
        // Only overdue actions are counted (`overdue=true`); the flag is absent otherwise.
        const overdue = f[filterKey.overdue] !== undefined;
        if (overdue) bump('overdue', 'true');
        // The overdue count and each priority's are kept by status too (`statusSplitFields`).
        const status = String(f[filterKey.status] ?? '');
        if (overdue) bump('overdue&status', `${status}#true`);
        const priority = String(f[filterKey.priority] ?? '');
        bump('priority&status', `${status}#${priority}`);
        // Each priority's overdue actions, kept by status (issue 50, `KEY_VERSION` 11).
        if (overdue) bump('priority&overdue', priority);
        if (overdue) bump('priority&overdue&status' as CountedField, `${status}#${priority}`);
        // The pairs: by status (`<status>#<value>`), and by value among the overdue.
        for (const [field, key] of paired) {
          const value = String(f[key] ?? '');
          bump(`${field}&status`, `${String(f[filterKey.status] ?? '')}#${value}`);
          if (overdue) bump(`${field}&overdue`, value);
          // Each pair's overdue counter is kept by status too (issue 50).
          if (overdue) bump(`${field}&overdue&status` as CountedField, `${status}#${value}`);
        }
        // The location prefixes (section 14), named as lib/store/counters/prefixes.ts names them.
        const location = locationFields.map((field) => {
          const value = f[locationKeys[field]];
          return typeof value === 'string' ? value : '';
        });
        // The whole location's counter (total only), as location-counts sums it: none for a
        // location too long for its key.
        const whole = encodeLocation(Object.fromEntries(locationFields.map((field, i) => [field, location[i]])));
        if (whole !== undefined) bump(locationCounter, whole);
        for (const depth of prefixDepths) {
          const prefix = prefixValue(location.slice(0, depth));
          bump(prefixCounter(depth), prefix);
          bump(prefixByStatus(depth), `${status}#${prefix}`);
          if (overdue) bump(prefixByOverdue(depth), prefix);
          if (overdue) bump(`${prefixByOverdue(depth)}&status` as CountedField, `${status}#${prefix}`);
        }
      } else if (id.startsWith('n#')) {
        counterItems++;
        // A location field's "no value" item holds five counters, one an attribute (`counterOf`).
        for (const [cell, n] of countsOfItem(item)) {
          const { status, member } = cell;
          // A shared counter's item is one value's count, its sort key the value.
          const counter = member === undefined ? counterOf(cell) : counterKey(locationCounter, member);
          stored.set(counter, (stored.get(counter) ?? 0) + n);
          // A counter kept by status (its sort key `<shard>#<status>`) also holds its by-status pair.
          if (status !== undefined) {
            const field = counter.split('#')[1] as string;
            const value = counter.slice(`n#${field}#`.length);
            const pair =
              field === 'all'
                ? counterKey('status', status)
                : counterKey(`${field}&status` as CountedField, `${status}#${value}`);
            stored.set(pair, (stored.get(pair) ?? 0) + n);
          }
        }
      }
    },
    [attr.id, attr.sortKey, attr.filters, attr.deletedAt, attr.count, ...noValueAttributes()],
  );

  const mismatches: string[] = [];
  for (const key of new Set([...truth.keys(), ...stored.keys()])) {
    const want = truth.get(key)?.count ?? 0;
    const have = stored.get(key) ?? 0;
    if (want !== have) mismatches.push(`${key}: counters ${have}, actions ${want}`);
  }
  // And as a list reads them: every shard, one Query per counter.
  const entries = [...truth.values()];
  const workers = Array.from({ length: 8 }, async () => {
    for (let entry = entries.pop(); entry; entry = entries.pop()) {
      const read = await readCount(entry.field, entry.value);
      if (read !== entry.count)
        mismatches.push(`${counterKey(entry.field, entry.value)}: read ${read}, actions ${entry.count}`);
    }
  });
  await Promise.all(workers);
  return {
    actions,
    counters: new Set([...truth.keys(), ...stored.keys()]).size,
    counterItems,
    mismatches,
    seconds: (Date.now() - started) / 1000,
  };
}
