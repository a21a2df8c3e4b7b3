import { foldForComparison } from '../../text';

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

/** The distinct grams of an already folded text, in the order they first occur. */
export function gramsOfFolded(folded: string): string[] {
  const points = [...folded];
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= points.length; i++) grams.add(points.slice(i, i + GRAM).join(''));
  return [...grams];
}

/** The distinct grams of a text as stored: folded first. */
export const gramsOf = (text: string): string[] => gramsOfFolded(foldForComparison(text));

/** Whether a fragment is long enough for the index to answer: at least one gram. */
export const searchable = (folded: string): boolean => [...folded].length >= GRAM;
