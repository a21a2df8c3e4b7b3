import { historyInWords } from '../history-words';
import { formatTime } from '../time';
import type { HistoryEntry } from '../types';

/** Every history entry, oldest first, in words. */
export function History({ entries }: { entries: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <ol class="history">
        {entries.map((entry) => (
          <li key={entry.version}>
            <time dateTime={entry.time}>{formatTime(entry.time)}</time> {historyInWords(entry)}
          </li>
        ))}
      </ol>
    </section>
  );
}
