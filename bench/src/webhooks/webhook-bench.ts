import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BankClientOptions,
  systemClock,
  TransferModule,
  type TransferWebhookOptions,
  validateTransferIntent,
  WebhookDispatcher,
  WebhookService,
} from '@giro/transfer-module';
import type { TransferIntent } from '@giro/transfer-module/domain';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { summarizeLatencies } from '../stats';
import { intentFingerprint } from '../sweep/fingerprint';
import { transferRequest } from '../workload/transfer-request';
import { type Arrival, splitLags } from './lag-split';

// giro's side of the webhook benchmark: a Nest application with TransferModule and `webhooks` (the defaults a
// deployment gets, loopback allowed), its outbox filled through the store's real path (MovementStore.recordIntent:
// the intent and its `transfer.created` event, with the movement view, in one transaction), its WebhookDispatcher
// delivering to the receiver process.

type TransferModulePersistence = typeof import('@giro/transfer-module/persistence');
type DevCertificatesModule = typeof import('@giro/sandbox-bank/certs/dev-certificates');

// Internals read from the workspace's build by path, as bench/src/sweep/fingerprint.ts does (a package's exports
// map applies to its name, not to paths): the store, to write events as giro's own code does, and the sandbox's
// development certificates, which the bank client options need (no bank call is made here).
const transferModuleDir = dirname(require.resolve('@giro/transfer-module/package.json'));
const { MovementStore } = require(join(transferModuleDir, 'dist', 'persistence')) as TransferModulePersistence;
const sandboxDir = dirname(require.resolve('@giro/sandbox-bank/package.json'));
const { createDevCertificates } = require(
  join(sandboxDir, 'dist', 'certs', 'dev-certificates'),
) as DevCertificatesModule;

type Store = InstanceType<typeof MovementStore>;

export interface WebhookBenchPlan {
  /** Events delivered (and CPU-profiled) before measuring, through deliverDue(). */
  warmup: number;
  /** The pre-filled outbox the dispatcher drains. */
  events: number;
  /** How long events are committed at half the drain rate, for the lag. */
  lagSeconds: number;
  /** The lag run's rate instead of half the drain rate (to compare two builds at one rate on a busy machine). */
  lagRatePerSecond?: number;
  /** Postgres: the connections of giro's pool (the module's `databasePoolSize`; its default when absent). */
  poolSize?: number;
}

export interface WebhookBenchResult {
  engine: 'SQLite' | 'Postgres';
  events: number;
  drainMs: number;
  deliveriesPerSecond: number;
  /** CPU of the giro process per delivery while draining (ms). */
  cpuMsPerDelivery: number;
  /** Attempts the receiver got while draining, and distinct ids among them. */
  received: number;
  unique: number;
  /** The steady rate the lag run asked (half the drain rate), the events it committed and the rate they were. */
  lagRatePerSecond: number;
  lagEvents: number;
  committedPerSecond: number;
  /** Arrival at the receiver − the event's commit: the goal's lag. */
  lagP50Ms: number;
  lagP99Ms: number;
  /** The event's commit − the change's time (the payload's `timestamp`): the writer's part. */
  writeP50Ms: number;
  writeP99Ms: number;
  /** Arrival at the receiver − the change's time: both parts. */
  fromChangeP50Ms: number;
  fromChangeP99Ms: number;
  /** delivered_at − created_at as giro records it (the answer's arrival, from the change's time). */
  recordedLagP50Ms: number;
  recordedLagP99Ms: number;
}

interface ReceiverReport {
  received: number;
  unique: number;
  arrivals: Arrival[];
}

async function receiverReport(receiverUrl: string): Promise<ReceiverReport> {
  const response = await fetch(`${receiverUrl}/__report`);
  return (await response.json()) as ReceiverReport;
}

function intentTemplate(): Omit<TransferIntent, 'originId'> {
  const validated = validateTransferIntent(transferRequest(1, 'giro webhook bench'), {});
  if (!validated.ok) throw new Error('the benchmark transfer is invalid');
  const { originId: _originId, ...template } = validated.intent as TransferIntent;
  return template;
}

/** Counts what the dispatcher records, and lets the bench wait for a number of deliveries. */
class DeliveryCounter {
  delivered = 0;
  failed = 0;
  lagsMs: number[] = [];
  private waiter: { target: number; resolve: () => void } | undefined;

  attempted(outcome: 'delivered' | 'retry' | 'dead', lagMs: number | null): void {
    if (outcome !== 'delivered') {
      this.failed += 1;
      return;
    }
    this.delivered += 1;
    if (lagMs !== null) this.lagsMs.push(lagMs);
    if (this.waiter && this.delivered >= this.waiter.target) {
      this.waiter.resolve();
      this.waiter = undefined;
    }
  }

  until(target: number, timeoutMs: number): Promise<void> {
    if (this.delivered >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`${this.delivered} of ${target} delivered after ${timeoutMs} ms (${this.failed} failed)`)),
        timeoutMs,
      );
      this.waiter = {
        target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

class EventWriter {
  private readonly template = intentTemplate();
  /** When each event's transaction returned committed (the receiver's clock), by originId, since `forget()`. */
  committedAtMs = new Map<number, number>();

  constructor(
    private readonly store: Store,
    private nextOriginId = 1,
  ) {}

  forget(): void {
    this.committedAtMs = new Map();
  }

  private async writeOne(): Promise<void> {
    const intent = { ...this.template, originId: this.nextOriginId++ } as TransferIntent;
    await this.store.recordIntent(intent, intentFingerprint(intent), { sendNow: false });
    this.committedAtMs.set(intent.originId, Date.now());
  }

  /** `count` events, `concurrency` transactions at once (they share commits, as concurrent requests do). */
  async fill(count: number, concurrency = 64): Promise<void> {
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left > 0) {
          left -= 1;
          await this.writeOne();
        }
      }),
    );
  }

  /** `ratePerSecond` events, each committed on its own as its time comes, for `durationMs`. */
  async atRate(ratePerSecond: number, durationMs: number): Promise<number> {
    const total = Math.round((ratePerSecond * durationMs) / 1000);
    const inFlight = new Set<Promise<void>>();
    const started = performance.now();
    let issued = 0;
    while (issued < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) * ratePerSecond) / 1000));
      while (issued < due) {
        const write = this.writeOne().finally(() => inFlight.delete(write));
        inFlight.add(write);
        issued += 1;
      }
      await sleep(2);
    }
    await Promise.all(inFlight);
    return total;
  }
}

async function openGiro(databaseUrl: string, webhooks: TransferWebhookOptions, databasePoolSize?: number) {
  const certs = await createDevCertificates();
  const bank: BankClientOptions = {
    // Never called: no transfer is sent, the intents wait for a sweep that does not run.
    baseUrl: 'https://127.0.0.1:9',
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'webhook-bench' },
    hmac: { secret: 'webhook-bench' },
  };
  const app: INestApplicationContext = await NestFactory.createApplicationContext(
    TransferModule.forRoot({
      bank,
      databaseUrl,
      runMigrations: true,
      clock: systemClock,
      webhooks,
      ...(databasePoolSize !== undefined && { databasePoolSize }),
    }),
    { logger: ['error', 'warn'] },
  );
  return app;
}

/**
 * (a) The dispatcher, started, drains a pre-filled outbox of `plan.events`; (b) events are committed at half
 * that rate for `plan.lagSeconds` while it runs, each one's lag measured from its commit to the receiver.
 */
export async function runWebhookBench(
  engine: WebhookBenchResult['engine'],
  databaseUrl: string,
  receiverUrl: string,
  plan: WebhookBenchPlan,
  log: (message: string) => void,
  webhookOptions: TransferWebhookOptions = {},
): Promise<WebhookBenchResult> {
  const poolSize = engine === 'Postgres' ? plan.poolSize : undefined;
  const app = await openGiro(databaseUrl, { allowLoopback: true, ...webhookOptions }, poolSize);
  try {
    const service = app.get(WebhookService);
    const dispatcher = app.get(WebhookDispatcher);
    const filler = new EventWriter(app.get(MovementStore));
    const counter = new DeliveryCounter();
    dispatcher.observe(counter);
    await service.createEndpoint({ url: `${receiverUrl}/hooks` });

    await filler.fill(plan.warmup);
    await dispatcher.deliverDue();
    log(`${engine}: ${plan.warmup} warm-up events delivered; filling the outbox with ${plan.events}`);
    await filler.fill(plan.events);
    await receiverReport(receiverUrl);
    const before = counter.delivered;

    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    dispatcher.start();
    await counter.until(before + plan.events, 600_000);
    const drainMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const drained = await receiverReport(receiverUrl);
    const deliveriesPerSecond = (plan.events * 1000) / drainMs;
    log(
      `${engine}: ${plan.events} delivered in ${(drainMs / 1000).toFixed(1)} s (${deliveriesPerSecond.toFixed(0)}/s)`,
    );

    // The lag run: events committed one by one at a steady half of that rate, in this process (as the reconciler
    // commits the changes it makes and delivers them), while the dispatcher runs. Each event's lag is taken from
    // its commit: its payload's time is taken before its transaction waits for a connection, and that wait is the
    // writers' (a create's answer waits for it), not the delivery's; it is reported beside, as the write part.
    const lagRate = plan.lagRatePerSecond ?? Math.max(1, Math.round(deliveriesPerSecond / 2));
    counter.lagsMs = [];
    filler.forget();
    const lagBefore = counter.delivered;
    const lagStartedAtMs = Date.now();
    const lagEvents = await filler.atRate(lagRate, plan.lagSeconds * 1000);
    await counter.until(lagBefore + lagEvents, 120_000);
    const lagged = await receiverReport(receiverUrl);
    const split = splitLags(lagged.arrivals, filler.committedAtMs, lagStartedAtMs);
    const recorded = summarizeLatencies(counter.lagsMs);
    log(
      `${engine}: ${lagEvents} events asked at ${lagRate}/s, committed at ${split.committedPerSecond.toFixed(0)}/s: lag from the commit p50 ${split.delivery.p50Ms} ms, p99 ${split.delivery.p99Ms} ms at the receiver (write part p50 ${split.write.p50Ms} ms, p99 ${split.write.p99Ms} ms)`,
    );
    return {
      engine,
      events: plan.events,
      drainMs,
      deliveriesPerSecond,
      cpuMsPerDelivery: (cpu.user + cpu.system) / 1000 / plan.events,
      received: drained.received,
      unique: drained.unique,
      lagRatePerSecond: lagRate,
      lagEvents,
      committedPerSecond: split.committedPerSecond,
      lagP50Ms: split.delivery.p50Ms,
      lagP99Ms: split.delivery.p99Ms,
      writeP50Ms: split.write.p50Ms,
      writeP99Ms: split.write.p99Ms,
      fromChangeP50Ms: split.fromChange.p50Ms,
      fromChangeP99Ms: split.fromChange.p99Ms,
      recordedLagP50Ms: recorded.p50Ms,
      recordedLagP99Ms: recorded.p99Ms,
    };
  } finally {
    await app.close();
  }
}
