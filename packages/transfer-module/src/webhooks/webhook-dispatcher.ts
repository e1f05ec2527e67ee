import { performance } from 'node:perf_hooks';
import type { LoggerService, OnModuleDestroy } from '@nestjs/common';
import type { Clock } from '../domain';
import { type ResolvedWebhookOptions, resolveWebhookOptions } from '../options';
import type { ClaimedDelivery, DeliveryResult, WebhookDeliveryLane, WebhookStore } from '../persistence';
import { RetrySchedule } from './retry-schedule';
import { type PostOutcome, WebhookPost } from './webhook-post';
import type { WebhookWakeUp } from './webhook-wake-up';

const PRUNE_BATCH = 1000;
/** The most deliveries one claim takes. */
const MAX_CLAIM = 500;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** The least time from one claim to the next that is not full (the wait a committed event may add). */
const CLAIM_SPACING_MS = 20;

/** What a dispatcher reports of each recorded attempt (the reconciler's metrics). */
export interface WebhookAttemptObserver {
  /** `lagMs`: from the event's commit to this delivery, for a delivered one. */
  attempted(outcome: DeliveryResult['outcome'], lagMs: number | null): void;
}

/**
 * Delivers the outbox: claims due deliveries under a lease (so that many replicas share them, none twice),
 * POSTs each, signed, with up to `maxInFlight` in flight, and records the results in batches. A failure is
 * retried on the RetrySchedule; after the last try the delivery is dead (visible, delivered again on request);
 * 410 Gone disables the endpoint. A dispatcher that stops before recording an attempt leaves its lease to
 * expire: another tries again with the same event id (at least once).
 *
 * Runs beside the sweep: `start()` when the application starts sweeping, `stop()` at shutdown. Learns of new
 * events from this process's commits (WebhookWakeUp), from other processes' (on Postgres, LISTEN on the lane's
 * own connection: WebhookStore.openDeliveryLane), and otherwise at its poll.
 */
export class WebhookDispatcher implements OnModuleDestroy {
  private readonly schedule: RetrySchedule;
  /** Attempts not recorded yet, with when their events were committed (for the lag). */
  private readonly results: { result: DeliveryResult; eventCreatedAtMs: number }[] = [];
  private readonly observers: WebhookAttemptObserver[] = [];
  /** Endpoints whose last attempt failed: their failures are logged once, and their recovery. */
  private readonly failingEndpoints = new Set<string>();
  private inFlight = 0;
  /** Claimed (leased) and not started yet. */
  private readonly waiting: ClaimedDelivery[] = [];
  private running: Promise<void> | undefined;
  /** While started: what claims and records go through (on Postgres a connection of the dispatcher's own). */
  private lane: WebhookDeliveryLane | undefined;
  private stopping = false;
  private flushing: Promise<void> | undefined;
  private pruning: Promise<void> | undefined;
  private slotFreed: (() => void) | undefined;
  private started = false;
  private nextPruneAtMs = 0;
  private claimsFailing = false;

  private readonly options: ResolvedWebhookOptions;
  private readonly poster: WebhookPost;
  /** False without the module's `webhooks` option: nothing to deliver, start() does nothing. */
  private readonly enabled: boolean;

  constructor(
    private readonly store: WebhookStore,
    private readonly wakeUp: WebhookWakeUp,
    options: ResolvedWebhookOptions | undefined,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly logger: LoggerService,
  ) {
    this.enabled = options !== undefined;
    this.options = options ?? (resolveWebhookOptions({}) as ResolvedWebhookOptions);
    this.schedule = new RetrySchedule(this.options.retryDelaysMs);
    this.poster = new WebhookPost(this.options);
  }

  observe(observer: WebhookAttemptObserver): void {
    this.observers.push(observer);
  }

  /** Starts delivering until stop(). Idempotent. */
  start(): void {
    if (!this.enabled || this.running || this.stopping) return;
    this.started = true;
    this.lane = this.store.openDeliveryLane(() => this.wakeUp.notify());
    this.running = this.loop().catch((error: unknown) => {
      this.logger.error(`webhook deliveries stopped: ${describe(error)}`);
    });
  }

  /** At shutdown, like the sweep (before the module closes the database in onApplicationShutdown): stop() if started. */
  async onModuleDestroy(): Promise<void> {
    if (this.started && !this.stopping) await this.stop();
  }

  /** Stops claiming, lets the attempts in flight finish and records them, gives the leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp.notify();
    this.slotFreed?.();
    await this.running;
    await this.pruning;
    // The attempts in flight finish (each within timeoutMs) and are recorded; the ones waiting never start.
    while (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        this.slotFreed = resolve;
      });
    }
    await this.settle();
    await this.store.releaseDeliveryLeases(this.owner).catch((error: unknown) => {
      this.logger.warn(`webhook leases not released (they expire): ${describe(error)}`);
    });
    await this.lane?.close();
    this.lane = undefined;
    await this.poster.close();
  }

  /**
   * One pass without the loop (tests, a host's own schedule): delivers what is due now, including what becomes
   * due as earlier events of the same transfers are delivered, and records it. Returns how many were attempted.
   */
  async deliverDue(): Promise<number> {
    if (!this.enabled) return 0;
    let attempted = 0;
    for (;;) {
      const claimed = await this.claim(this.options.maxInFlight);
      if (claimed.length === 0) break;
      attempted += claimed.length;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      await this.settle();
    }
    return attempted;
  }

  /**
   * Deletes the events kept longer than `retentionMs` with no delivery pending (their deliveries and attempts
   * with them), in batches; how many. The loop does it at most once an hour.
   */
  async pruneExpired(): Promise<number> {
    if (!this.enabled) return 0;
    const before = this.clock.now().getTime() - this.options.retentionMs;
    let pruned = 0;
    for (;;) {
      const deleted = await this.store.pruneEvents(before, PRUNE_BATCH);
      pruned += deleted;
      if (deleted < PRUNE_BATCH || this.stopping) return pruned;
    }
  }

  // The loop keeps up to `maxInFlight` attempts in flight and up to three times as many claimed, waiting to
  // start, so that the next claim (a round trip to the database, which on Postgres costs about the same for a few
  // deliveries as for many) overlaps the attempts instead of waiting for free slots. It claims again once half of
  // `maxInFlight` is free in that room, not for each delivery that ends. Waiting ones are leased like the others
  // and start within a fraction of the lease.
  private async loop(): Promise<void> {
    const room = () => 4 * this.options.maxInFlight - this.inFlight - this.waiting.length;
    while (!this.stopping) {
      this.pruneWhenDue();
      const free = room();
      if (this.inFlight > 0 && free < Math.ceil(this.options.maxInFlight / 2)) {
        await new Promise<void>((resolve) => {
          this.slotFreed = resolve;
        });
        continue;
      }
      let claimed: ClaimedDelivery[];
      const claimStartedAt = performance.now();
      try {
        claimed = await this.claim(Math.min(free, MAX_CLAIM));
      } catch (error) {
        // The database is out: said once per outage, and again when it is back.
        if (!this.claimsFailing) this.logger.warn(`webhook deliveries cannot be claimed: ${describe(error)}`);
        this.claimsFailing = true;
        await this.wakeUp.wait(this.options.pollIntervalMs * 4);
        continue;
      }
      if (this.claimsFailing) this.logger.log('webhook deliveries are claimed again');
      this.claimsFailing = false;
      this.waiting.push(...claimed);
      this.startWaiting();
      // A full claim: more may be due at once. Otherwise wait for news or the next poll, and let the commits that
      // come one by one gather for CLAIM_SPACING_MS: claimed one by one, each would cost a claim of its own.
      if (claimed.length < Math.min(free, MAX_CLAIM)) {
        await this.wakeUp.wait(this.options.pollIntervalMs);
        const gather = claimStartedAt + CLAIM_SPACING_MS - performance.now();
        if (gather > 0 && !this.stopping) await new Promise((resolve) => setTimeout(resolve, gather));
      }
    }
  }

  /** Starts claimed deliveries while slots are free (none once stopping: stop() gives their leases back). */
  private startWaiting(): void {
    while (!this.stopping && this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const delivery = this.waiting.shift() as ClaimedDelivery;
      this.inFlight += 1;
      void this.attempt(delivery).finally(() => {
        this.inFlight -= 1;
        this.startWaiting();
        const freed = this.slotFreed;
        this.slotFreed = undefined;
        freed?.();
      });
    }
  }

  /**
   * Starts pruning when it is due, beside the loop: it goes through the shared pool, which writers may hold for
   * a while, and deliveries must not wait for it.
   */
  private pruneWhenDue(): void {
    const now = this.clock.now().getTime();
    if (now < this.nextPruneAtMs || this.pruning) return;
    this.nextPruneAtMs = now + PRUNE_INTERVAL_MS;
    this.pruning = this.pruneExpired()
      .then(
        (pruned) => {
          if (pruned > 0) this.logger.log(`${pruned} webhook events past their retention deleted`);
        },
        (error: unknown) => {
          this.logger.warn(`webhook events past their retention not deleted: ${describe(error)}`);
        },
      )
      .finally(() => {
        this.pruning = undefined;
      });
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const lane = this.lane ?? this.store;
    return lane.claimDueDeliveries({ owner: this.owner, limit, leaseMs: this.options.leaseMs });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = this.clock.now();
    const outcome = await this.poster.post(delivery, at);
    this.results.push({
      result: this.resultOf(delivery, at, outcome),
      eventCreatedAtMs: delivery.eventCreatedAt.getTime(),
    });
    if (outcome.statusCode === 410) await this.disableGone(delivery);
    this.noteEndpoint(delivery.endpointId, outcome);
    this.flushSoon();
  }

  private resultOf(delivery: ClaimedDelivery, at: Date, outcome: PostOutcome): DeliveryResult {
    const attempt = {
      atMs: at.getTime(),
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      response: outcome.response,
    };
    if (outcome.error === null) return { deliveryId: delivery.id, outcome: 'delivered', attempt };
    const next = this.schedule.afterFailure(delivery.attempts + 1, at.getTime(), outcome.retryAfterMs);
    if (next.kind === 'dead') return { deliveryId: delivery.id, outcome: 'dead', attempt };
    return { deliveryId: delivery.id, outcome: 'retry', nextAttemptAtMs: next.atMs, attempt };
  }

  private async disableGone(delivery: ClaimedDelivery): Promise<void> {
    try {
      await this.store.disableEndpoint(delivery.endpointId, 'the receiver answered 410 Gone');
      this.logger.warn(`webhook endpoint ${delivery.endpointId} disabled: it answered 410 Gone`);
    } catch (error) {
      this.logger.warn(`webhook endpoint ${delivery.endpointId} answered 410 but was not disabled: ${describe(error)}`);
    }
  }

  private noteEndpoint(endpointId: string, outcome: PostOutcome): void {
    if (outcome.error === null) {
      if (this.failingEndpoints.delete(endpointId)) this.logger.log(`webhook endpoint ${endpointId} delivers again`);
    } else if (!this.failingEndpoints.has(endpointId)) {
      this.failingEndpoints.add(endpointId);
      this.logger.warn(`webhook endpoint ${endpointId} failed a delivery: ${outcome.error} (retried on schedule)`);
    }
  }

  /** Records the results gathered so far; the ones that come meanwhile go in the next batch (group commit). */
  private flushSoon(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.results.length > 0) {
        const batch = this.results.splice(0);
        try {
          const recorded = new Set(
            await (this.lane ?? this.store).recordDeliveryResults(
              this.owner,
              batch.map((entry) => entry.result),
            ),
          );
          for (const entry of batch) if (recorded.has(entry.result.deliveryId)) this.report(entry);
        } catch (error) {
          // Not recorded: the leases expire and the deliveries are tried again (same ids).
          this.logger.warn(
            `${batch.length} webhook results not recorded (retried after the lease): ${describe(error)}`,
          );
        }
        // Later events of the same transfers may be due now.
        this.wakeUp.notify();
      }
    })().finally(() => {
      this.flushing = undefined;
    });
  }

  private report({ result, eventCreatedAtMs }: { result: DeliveryResult; eventCreatedAtMs: number }): void {
    const { atMs, durationMs } = result.attempt;
    const lagMs = result.outcome === 'delivered' ? atMs + durationMs - eventCreatedAtMs : null;
    for (const observer of this.observers) observer.attempted(result.outcome, lagMs);
  }

  /** Waits until every result gathered is recorded. */
  private async settle(): Promise<void> {
    while (this.flushing || this.results.length > 0) {
      if (!this.flushing) this.flushSoon();
      await this.flushing;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
