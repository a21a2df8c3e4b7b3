import { getConfig } from '../../config';
import { meterOf, type ReadMeter, type Usage } from '../../usage';
import { SHARDS } from '../table';

/**
 * A list's read budget (`LIST_READ_BUDGET`), shared by every query the list makes, so that what
 * it reads in all, skipped entries and read-ahead included, never passes the budget: each query
 * asks for a grant first and passes it as its `Limit` (DynamoDB stops a query after `Limit`
 * entries evaluated, matched or not), and gives back what it did not use.
 */
export class ReadBudget {
  private used = 0;
  private reserved = 0;
  private waiting: Array<() => void> = [];

  /**
   * `limit`: what the list may read in all. `meter`: the request's read quota, when there is one
   * (`requestBudget`): each grant is also covered by it as it is made, and when the quota has no
   * more to give, the limit comes down to what the budget holds; what is read is counted there.
   */
  constructor(
    public limit: number,
    private readonly meter?: ReadMeter,
  ) {}

  /** A budget of `limit` on the same quota, for one part of the list (`charge` it back). */
  share(limit: number): ReadBudget {
    return new ReadBudget(limit, this.meter);
  }

  /** The caller's read quota, not this budget, stopped the reads (a 429, not a 400). */
  get quotaStopped(): boolean {
    return this.meter?.stopped === true;
  }

  /** Entries read so far. */
  get spent(): number {
    return this.used;
  }

  /** Counts entries read under another budget (a part of this one) as read under this one. */
  charge(read: number): void {
    this.used += read;
  }

  /** Entries neither read nor promised to a query in flight. */
  get available(): number {
    return this.limit - this.used - this.reserved;
  }

  /**
   * Up to `want` entries to read (at least one). Waits while the rest is promised to queries in
   * flight, which may give some back; answers 0 once the budget is spent.
   */
  async take(want: number): Promise<number> {
    for (;;) {
      if (this.available > 0) {
        const granted = Math.min(Math.max(1, want), this.available);
        this.reserved += granted;
        const covered = this.meter ? await this.meter.cover(granted) : granted;
        if (covered === granted) return granted;
        // The quota gave less: the budget ends at what it holds, and whoever waits for it is told.
        this.reserved -= granted - covered;
        this.limit = Math.min(this.limit, this.used + this.reserved);
        this.wake();
        if (covered > 0) return covered;
      }
      if (this.reserved === 0) return 0;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /**
   * Counts entries read beside the list's queries, by key (a feed page's sights, its comments'
   * texts), toward the request's read quota, as the queries' own entries are.
   */
  record(entries: number): void {
    this.meter?.record(entries);
  }

  /** A query granted `granted` entries read `read` of them. */
  settle(granted: number, read: number): void {
    this.reserved -= granted;
    this.used += read;
    this.meter?.release(granted - read);
    this.meter?.record(read);
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

/**
 * The budget of one list a request makes: what its `usage` may read (the allowance the read quota
 * reserved at admission) on its quota, or, with no usage (a script, a sweep, the export worker),
 * `LIST_READ_BUDGET`. A request that runs `shares` lists at once (the groups of
 * `GET /api/actions/counts`, a trend's slices) gives each its share of the allowance, on the same
 * quota: with the whole allowance each, the first list's grant took the quota and the others were
 * granted nothing.
 */
export function requestBudget(usage?: Usage, shares = 1): ReadBudget {
  const allowance = usage?.allowance ?? getConfig().listReadBudget;
  return new ReadBudget(Math.max(1, Math.floor(allowance / shares)), usage && meterOf(usage));
}

/** The budget ran out before the list had read what it needs. */
export class BudgetSpent extends Error {
  constructor(readonly limit: number) {
    super(`the list read its budget of ${limit} index entries`);
    this.name = 'BudgetSpent';
  }
}

/**
 * What a list reads, about, for a window of `window` entries: merged from the shards of an index,
 * it reads a page of each shard (window / shards + 1 entries) and refills those the merge drew
 * from, about twice the window and two entries a shard. Held of the read quota at admission, it
 * lets the lists admitted together finish; holding only the window, thirty concurrent lists each
 * ran out half way and none answered.
 */
export const readsForPage = (window: number): number => 2 * window + 2 * SHARDS;
