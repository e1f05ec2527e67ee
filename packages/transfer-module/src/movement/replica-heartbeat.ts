import type { LoggerService, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { BankCallBudget } from '../bank';
import type { ReplicaCensus, ReplicaRegistry } from '../persistence';
import { describeError } from './movement-logger';

/** How often a replica writes its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 1_000;
/** A replica silent for longer than this no longer counts: the others take its share of the bank's allowance. */
export const REPLICA_LIVE_WITHIN_MS = 5_000;
/** Rows of replicas silent for a day are deleted (they crashed long ago). */
const PRUNE_SILENT_FOR_MS = 24 * 3_600_000;
const PRUNE_EVERY_BEATS = 3_600;
/** How late another replica's beat may come after its interval (a slow database), for the join's hold. */
const LATE_BEAT_MS = 500;

/**
 * One bank budget for the whole deployment. The options' rate and in-flight cap are the limits of every
 * replica together: each replica on one Postgres database writes a heartbeat every second and takes its part of them, 1/N with the
 * remainder to the first by owner, N the replicas heard from in the last 5 s (BankCallBudget.setShare). A 429 with Retry-After any replica gets is
 * written beside its heartbeat, and every replica pauses its budget until then at its next beat. Heartbeats
 * rather than a shared token bucket: a bank call costs no database round trip, and a replica that loses the
 * database keeps its last share. A joining replica starts no call until its first heartbeat counted it among the
 * others and, if any other is live, until they have all heard of it and a whole window of their larger shares has
 * passed (joinHoldMs): only then is the sum of the shares within the rate again. SQLite is one process: no
 * heartbeat, the whole budget.
 */
export class ReplicaHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** The end of a pause this replica's budget took and has not written yet. */
  private pauseToReport: number | undefined;
  /** The end of the latest pause read from the registry (one the budget takes from there is not reported back). */
  private lastKnownPause: number | undefined;
  private beats = 0;
  private failing = false;
  /** Whether a heartbeat of this replica has been written and counted (the join is then decided). */
  private joined = false;

  constructor(
    private readonly registry: ReplicaRegistry | undefined,
    private readonly budget: BankCallBudget,
    private readonly owner: string,
    private readonly logger: LoggerService,
  ) {
    budget.onPause((untilMs) => {
      // A pause read from the registry ends no later than one already known: only a newer one is reported.
      if (untilMs > (this.lastKnownPause ?? 0)) this.pauseToReport = Math.max(this.pauseToReport ?? 0, untilMs);
    });
  }

  /** Starts beating (Postgres only; a registry is given only then), holding the bank calls until the join is decided. */
  onApplicationBootstrap(): void {
    if (this.registry === undefined || this.timer !== undefined) return;
    if (!this.joined) this.budget.holdFor(Number.POSITIVE_INFINITY);
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS).unref();
    void this.beat();
  }

  /** Stops beating and removes this replica, so the others take its share at once; then ends the registry's connection. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.registry?.leave(this.owner).catch(() => undefined);
    await this.registry?.close();
  }

  /** One heartbeat: write this replica's, read the census, set the budget's share and pause. Never throws. */
  beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  /**
   * How long a joining replica holds its calls after its first heartbeat: every other replica hears of it at its
   * next beat (an interval, or a little later), and the calls they started under their larger share leave the rate's
   * window one window later.
   */
  private joinHoldMs(): number {
    return HEARTBEAT_INTERVAL_MS + LATE_BEAT_MS + this.budget.windowMs;
  }

  private async beatOnce(): Promise<void> {
    if (this.registry === undefined) return;
    const report = this.pauseToReport;
    let census: ReplicaCensus;
    try {
      census = await this.registry.beat(this.owner, REPLICA_LIVE_WITHIN_MS, {
        ...(report !== undefined && { bankPausedUntilMs: report }),
      });
      if (++this.beats % PRUNE_EVERY_BEATS === 0) await this.registry.prune(PRUNE_SILENT_FOR_MS);
    } catch (error) {
      // The last share stays: a replica that lost the database keeps sending within it.
      if (!this.failing)
        this.logger.warn?.(`replica heartbeat failed, keeping the last bank share: ${describeError(error)}`);
      this.failing = true;
      return;
    }
    if (this.failing) this.logger.log?.('replica heartbeat written again');
    this.failing = false;
    if (report !== undefined && this.pauseToReport === report) this.pauseToReport = undefined;
    this.budget.setShare(census.rank, census.live);
    if (!this.joined) {
      this.joined = true;
      // Alone: no other share to wait for. (Beats are serialized: two replicas starting together never both see none.)
      this.budget.holdFor(census.live === 1 ? 0 : this.joinHoldMs());
    }
    const paused = census.bankPausedUntilMs;
    if (paused !== null) {
      // One already over changes nothing: the budget starts no call before a pause's end, and that end is past.
      this.lastKnownPause = paused;
      this.budget.pauseUntil(paused);
    }
  }
}
