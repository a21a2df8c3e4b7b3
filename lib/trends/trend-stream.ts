import { getReminderSettings } from '../config';
import type { RecordedEntry } from '../model/history';
import { countTrends as countInStore, type TrendReport } from '../store/trends/trend-counters';

/**
 * What the stream consumer does for trends: each new history entry that creates, closes or
 * reopens an action adds to its day's counters, once (see `lib/store/trends/trend-counters.ts`
 * for how a repeated delivery is recognised). Closed is `CLOSED_STATUSES` as configured now.
 */
export const countTrends = (entries: readonly RecordedEntry[]): Promise<TrendReport> =>
  countInStore(entries, getReminderSettings().closedStatuses);
