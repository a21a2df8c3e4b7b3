import { cutToBytes, foldForComparison } from '../../text';

/**
 * The n-grams of the search index: every run of `GRAM` code points of a text as the service
 * compares it (NFD, full case folding, NFC: `foldForComparison`), so `title=*café` and a stored
 * `Cafe\u0301` meet on the same grams. Code points, not UTF-16 units: a gram never splits an
 * astral character.
 *
 * Trigrams rather than sparse n-grams (GitHub code search): a text of n code points has at most
 * n - 2 trigrams, the fewest grams that still cover every fragment of 3 or more, while sparse
 * n-grams index about twice as many per text to make the query's grams longer and rarer. Each
 * gram is one posting write, so the write cost decides (see docs in `postings.ts`).
 */
export const GRAM = 3;

/**
 * How much of a field's folded text the index covers, counted in what DynamoDB charges for: at
 * most `points` code points (so at most `points - 2` distinct grams, one posting write each) and
 * `bytes` bytes of UTF-8 (so each posting stays under 1 KB, one write unit). Fragments past the
 * cut are not found. Each searched field has its own (`searchFields` in `keys.ts`).
 */
export interface IndexedLimits {
  points: number;
  bytes: number;
}

/**
 * Code points a posting keeps on each side of each place its gram occurs (`contexts`): enough to
 * verify any fragment of up to `2 * CONTEXT + GRAM` code points on the posting alone, few enough
 * that an edit rewrites only the postings of grams within `CONTEXT + GRAM - 1` code points of
 * what changed, not every posting of the text.
 */
export const CONTEXT = 16;

/** Between two separate runs of context in a posting; no one-line text holds it. */
export const RUN_SEPARATOR = '\u0000';

/** The part of a folded text the index covers. */
export function indexedPart(folded: string, limits: IndexedLimits): string {
  const points = [...folded];
  const cut = points.length > limits.points ? points.slice(0, limits.points).join('') : folded;
  return cutToBytes(cut, limits.bytes);
}

/** The distinct grams of an already folded text, in the order they first occur. */
export function gramsOfFolded(folded: string): string[] {
  const points = [...folded];
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= points.length; i++) grams.add(points.slice(i, i + GRAM).join(''));
  return [...grams];
}

/** The distinct grams of a text as stored: folded first. */
export const gramsOf = (text: string): string[] => gramsOfFolded(foldForComparison(text));

/**
 * The postings of an indexed text: each distinct gram, with the text around every place it
 * occurs (`CONTEXT` code points each side), overlapping runs merged, separate ones joined by
 * `RUN_SEPARATOR`. Every run is a piece of the text, so a fragment found in it is in the text.
 */
export function contexts(indexed: string): Map<string, string> {
  const points = [...indexed];
  const places = new Map<string, number[]>();
  for (let i = 0; i + GRAM <= points.length; i++) {
    const gram = points.slice(i, i + GRAM).join('');
    const list = places.get(gram);
    if (list) list.push(i);
    else places.set(gram, [i]);
  }
  const result = new Map<string, string>();
  for (const [gram, at] of places) {
    const runs: Array<[number, number]> = [];
    for (const p of at) {
      const start = Math.max(0, p - CONTEXT);
      const end = Math.min(points.length, p + GRAM + CONTEXT);
      const last = runs[runs.length - 1];
      if (last && start <= last[1]) last[1] = end;
      else runs.push([start, end]);
    }
    result.set(gram, runs.map(([s, e]) => points.slice(s, e).join('')).join(RUN_SEPARATOR));
  }
  return result;
}

/** Whether a fragment is long enough for the index to answer: at least one gram. */
export const searchable = (folded: string): boolean => [...folded].length >= GRAM;

/**
 * The grams of a fragment whose postings alone can verify it, each with where it starts in the
 * fragment: a posting's context around its gram holds the whole fragment when the gram starts at
 * most `CONTEXT` code points from the fragment's start and ends at most `CONTEXT` from its end.
 * A fragment longer than `2 * CONTEXT + GRAM` has none (`verifiable: false`): then every gram is
 * offered, with the piece of the fragment its context can hold, and a candidate is checked on the
 * action itself.
 */
export function probeGrams(fragment: string): {
  verifiable: boolean;
  grams: Array<{ gram: string; piece: string }>;
} {
  const points = [...fragment];
  const last = points.length - GRAM;
  const low = Math.max(0, last - CONTEXT);
  const high = Math.min(CONTEXT, last);
  const verifiable = low <= high;
  const grams = new Map<string, string>();
  for (let j = verifiable ? low : 0; j <= (verifiable ? high : last); j++) {
    const gram = points.slice(j, j + GRAM).join('');
    if (grams.has(gram)) continue;
    grams.set(gram, points.slice(Math.max(0, j - CONTEXT), j + GRAM + CONTEXT).join(''));
  }
  return { verifiable, grams: [...grams].map(([gram, piece]) => ({ gram, piece })) };
}
