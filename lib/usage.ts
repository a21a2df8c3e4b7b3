/**
 * What the request being served may read and has read, for the caller's read quota
 * (`lib/http/quotas.ts`): the allowance reserved when it was admitted, and the index entries (and
 * items) its reads took, so a list that is refused after reading is charged too. Made by the
 * edge for each request (`ApiEvent.usage`) and passed to the use cases that read lists, which make
 * each list's budget from it (`requestBudget`, lib/store/query/budget.ts).
 */
export interface Usage {
  indexEntries: number;
  /** What this request's list may read in all; none outside the API (scripts, sweeps). */
  allowance?: number;
  /**
   * The caller's read quota behind the allowance, reserved a slice at a time as the list's
   * queries are granted entries (`ReadMeter.cover`), so a list that reads little holds little.
   */
  quota?: QuotaCover;
}

/** How much of the read quota a request holds, and how it asks for more. */
export interface QuotaCover {
  /** Entries of the quota reserved for this request so far (the holder's count: `more` adds to it). */
  readonly covered: number;
  /** Entries granted to this request's queries and not given back. */
  promised: number;
  /** Reserves up to `want` more entries of the quota, adding them to `covered`; answers how many it got. */
  more(want: number): Promise<number>;
  /** The least it asks for at a time (what it held at admission). */
  step: number;
  /**
   * The quota, not the budget, gave less than was asked (at admission or since): nothing more is
   * to be had. The holder's flag (`QuotaState.cut`): a reservation its allowance capped is not it.
   */
  readonly exhausted: boolean;
  /** A reservation under way, which the others wait for. */
  growing?: Promise<void>;
}

/** What a request has read: nothing yet, and no allowance until the quota admits it. */
export const newUsage = (): Usage => ({ indexEntries: 0 });

/**
 * The request's read quota as one list's budget meets it (`ReadBudget`, lib/store/query/budget.ts):
 * made once, where the list's budget is made, and carried by the budget into every read the list
 * makes, so no step of the list looks the request up.
 */
export interface ReadMeter {
  /**
   * Covers `want` entries a query is about to be granted with the caller's read quota: reserves
   * more when what is held falls short, what is short and at least a `step` (so a list that reads
   * its whole budget asks at most 50 times; asking as much again as it held instead starved
   * concurrent small lists of a quota they together fit in). Answers how many of `want` are
   * covered, fewer (down to 0) once the quota has no more to give.
   */
  cover(want: number): Promise<number>;
  /** Gives back entries covered for a query that it did not read. */
  release(entries: number): void;
  /** Counts entries read toward the request's usage (what the quota charges at its end). */
  record(entries: number): void;
  /**
   * The caller's read quota, not the list's budget, stops the reads: the allowance was cut at
   * admission, or a later slice was refused. A list it stops short of its page is a 429 (retry
   * when the window refills), never the 400 of a skip past the budget.
   */
  readonly stopped: boolean;
}

/** `usage` as a list's budget meets it. */
export function meterOf(usage: Usage): ReadMeter {
  return {
    cover: (want) => (usage.quota ? coverReads(usage.quota, want) : Promise.resolve(want)),
    release(entries) {
      if (usage.quota) usage.quota.promised -= entries;
    },
    record(entries) {
      usage.indexEntries += entries;
    },
    get stopped() {
      return usage.quota?.exhausted === true;
    },
  };
}

async function coverReads(quota: QuotaCover, want: number): Promise<number> {
  for (;;) {
    if (quota.growing) {
      await quota.growing;
      continue;
    }
    const short = quota.promised + want - quota.covered;
    if (short <= 0 || quota.exhausted) break;
    const asked = Math.max(short, quota.step);
    let got = 0;
    quota.growing = quota.more(asked).then(
      (n) => {
        got = n;
        quota.growing = undefined;
      },
      (error: unknown) => {
        quota.growing = undefined;
        throw error;
      },
    );
    await quota.growing;
    // Less than asked: the quota (`exhausted`) or the allowance has no more to give this request.
    if (got < asked) break;
  }
  const covered = Math.max(0, Math.min(want, quota.covered - quota.promised));
  quota.promised += covered;
  return covered;
}
