import { PENDING_STATUS } from '../domain';
import { inSpan } from '../domain/tracing';
import type { ClaimedMovement, MovementStore } from '../persistence';

export interface SweepPipelineOptions {
  store: Pick<MovementStore, 'claimDue'>;
  owner: string;
  /** The most movements one claim takes. */
  batchSize: number;
  /** Movements worked at once. */
  concurrency: number;
  leaseMs: number;
  /** Only movements due by then are claimed: the sweep's start. */
  dueBy: Date;
  /** The clock: creations (PENDING) due by the claim's own time are claimed. */
  now(): Date;
  /** Whether creations (PENDING) may be claimed now (false outside the bank's hours). */
  creations(): boolean;
  /** Source accounts' weights in the creations' round robin. */
  accountWeights: ReadonlyMap<string, number>;
  /** Runs after each claim with its batch (to announce the scheduled transfers it released); a failure fails the claim. */
  claimed(batch: ClaimedMovement[]): Promise<void>;
  /** True once the service is stopping: no new claim, no new work. */
  stopping(): boolean;
  /**
   * Works one claimed movement and gives its lease up. Must not reject. False when the movement was left
   * due (released without progress: its nextQueryAt unchanged).
   */
  work(record: ClaimedMovement): Promise<boolean>;
  /**
   * Gives a claimed movement back unworked (one this sweep already worked, or one still queued when it stops). Not
   * a bare release: a claim may have taken the lease over from a worker that is still calling the bank about it,
   * and the movement must then wait as after any takeover (MovementSender.giveBackUnrecorded).
   */
  giveBack(record: ClaimedMovement): Promise<void>;
}

/**
 * The least time a claimed batch should last at the pace the sweep works. A transfer that becomes due while a
 * backlog drains (another account's, which the fair share puts first in the next batch) waits for the next claim,
 * which starts about a batch's time after the previous one: batches of many seconds' work at a slow pace (a loaded
 * database or bank) would hold it back by that much.
 */
export const BATCH_HORIZON_MS = 250;

/**
 * One sweep's work as a continuous pipeline: `concurrency` workers take claimed movements from a local queue,
 * and whenever the queue holds fewer than `concurrency` (or than the next batch, when that is more) the next
 * batch is claimed in the background (one claim at a time), so no worker waits for a claim to finish. What waits
 * in the queue holds a lease; a source account's first creation of a batch goes ahead of the queue when the
 * account has none queued (enqueue). A batch is what the workers get through, at the pace they have kept so far
 * in this sweep (by the sweep's clock), in BATCH_HORIZON_MS or in the time the last claim took, whichever is
 * longer (a batch that lasts less than a claim takes would leave the workers idle while the next one is claimed),
 * at most `batchSize`; the first one, before any pace is known, `batchSize`. So the claims start about
 * BATCH_HORIZON_MS apart (back to back when a claim takes longer), however slow the pace: a claim of at least
 * `concurrency` would last seconds at a few transfers a second.
 *
 * A movement worked in this sweep is not claimed again within it: its answer (or failure) put its nextQueryAt
 * after the sweep's start, past `dueBy` (a creation's after the claim's time: the bank's interval, or a backoff).
 * Creations that became due while it runs (approved, or scheduled for a moment that came) are claimed by its next batch. Only the ones released without progress are still due; those few are
 * remembered and, if a claim brings one back, given back again unworked (the next sweep takes them). The sweep
 * ends when a claim comes back short or brings nothing new, and the queue is empty.
 */
const isCreation = (record: ClaimedMovement) => record.status === PENDING_STATUS;
const accountOf = (record: ClaimedMovement) => record.intent.from.address;

export class SweepPipeline {
  private readonly queue: ClaimedMovement[] = [];
  /** OriginIds released without progress in this sweep (small: failures, lost leases). */
  private readonly leftDue = new Set<number>();
  private claiming: Promise<void> | undefined;
  private exhausted = false;
  private claimFailure: { error: unknown } | undefined;
  private claimedCount = 0;
  /** Movements worked in this sweep, and since when (the first claim's time, by the sweep's clock). */
  private workedCount = 0;
  private firstClaimAtMs: number | undefined;
  /** How long the last claim took, by the sweep's clock. */
  private lastClaimMs = 0;

  constructor(private readonly options: SweepPipelineOptions) {}

  /** Works every movement due by `dueBy` (unless stopped); returns how many it claimed and kept. */
  async workAllDue(): Promise<number> {
    await Promise.all(Array.from({ length: this.options.concurrency }, () => this.worker()));
    // Stopped while a claim was under way: let it finish, so stop() releases its leases after it.
    await this.claiming;
    // Stopped with movements queued: each given back as it must be. One that cannot be (the database out) keeps
    // its lease, which ends on its own; whoever claims it then waits as after any takeover.
    for (const record of this.queue.splice(0)) await this.options.giveBack(record).catch(() => undefined);
    if (this.claimFailure) throw this.claimFailure.error;
    return this.claimedCount;
  }

  private async worker(): Promise<void> {
    for (;;) {
      if (this.options.stopping()) return;
      const record = this.queue.shift();
      this.refill();
      if (record) {
        if (!(await this.options.work(record))) this.leftDue.add(record.originId);
        this.workedCount += 1;
        continue;
      }
      // Nothing queued and no claim under way although refill ran: the backlog is done.
      if (this.claiming === undefined) return;
      await this.claiming;
    }
  }

  /** Starts the next claim when the queue runs low, unless one is under way or the backlog is done. */
  private refill(): void {
    if (this.claiming || this.exhausted || this.options.stopping()) return;
    const limit = this.claimSize();
    // Claimed before the queue runs dry: at least what keeps every worker busy, and once the pace sizes the batch,
    // a batch (it lasts as long as a claim takes, or longer).
    const low = this.pacePerMs() === undefined ? this.options.concurrency : Math.max(this.options.concurrency, limit);
    if (this.queue.length >= low) return;
    this.claiming = this.claimBatch(limit)
      .catch((error: unknown) => {
        // The workers finish what is queued; workAllDue() then throws it.
        this.exhausted = true;
        this.claimFailure = { error };
      })
      .finally(() => {
        this.claiming = undefined;
      });
  }

  /**
   * Queues a claimed batch. The queue keeps the claim's fair share: the batch's first creation of a source account
   * with no creation queued goes ahead of what is queued (one account's backlog fills the queue between claims).
   */
  private enqueue(batch: ClaimedMovement[]): void {
    const queued = new Set(this.queue.filter(isCreation).map(accountOf));
    const ahead: ClaimedMovement[] = [];
    for (const record of batch) {
      if (!isCreation(record) || queued.has(accountOf(record))) continue;
      queued.add(accountOf(record));
      ahead.push(record);
    }
    const behind = batch.filter((record) => !ahead.includes(record));
    this.queue.unshift(...ahead);
    this.queue.push(...behind);
  }

  /** How many the next claim takes: the workers' pace over BATCH_HORIZON_MS or the last claim's time, within its bounds. */
  private claimSize(): number {
    const pace = this.pacePerMs();
    if (pace === undefined) return this.options.batchSize;
    return Math.min(this.options.batchSize, Math.ceil(pace * Math.max(BATCH_HORIZON_MS, this.lastClaimMs)));
  }

  /** Movements worked per millisecond since the first claim; undefined until one was worked. */
  private pacePerMs(): number | undefined {
    if (this.firstClaimAtMs === undefined || this.workedCount === 0) return undefined;
    const elapsedMs = this.options.now().getTime() - this.firstClaimAtMs;
    return elapsedMs <= 0 ? undefined : this.workedCount / elapsedMs;
  }

  /** One batch claimed, as a span: its movements are then worked (their bank calls traced) under the sweep's span. */
  private claimBatch(limit: number): Promise<void> {
    const { store, owner, leaseMs, dueBy, creations, accountWeights, giveBack } = this.options;
    return inSpan('giro sweep batch', { attributes: { 'giro.sweep.batch_size': limit } }, async (span) => {
      const creationsDueBy = this.options.now();
      this.firstClaimAtMs ??= creationsDueBy.getTime();
      const claim = { owner, limit, leaseMs, dueBy, creations: creations(), creationsDueBy, accountWeights };
      const batch = await store.claimDue(claim);
      this.lastClaimMs = this.options.now().getTime() - creationsDueBy.getTime();
      await this.options.claimed(batch);
      const again = batch.filter((record) => this.leftDue.has(record.originId));
      const fresh = batch.filter((record) => !this.leftDue.has(record.originId));
      span.setAttribute('giro.sweep.claimed', fresh.length);
      this.enqueue(fresh);
      this.claimedCount += fresh.length;
      if (batch.length < limit || fresh.length === 0) this.exhausted = true;
      for (const record of again) await giveBack(record);
    });
  }
}
