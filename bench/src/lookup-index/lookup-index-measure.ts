import { performance } from 'node:perf_hooks';
import type { TransferIntent } from '@giro/transfer-module/domain';
import { percentile } from '../stats';
import type { BenchDatabase } from './lookup-index-engines';
import { bankAnswerOf, intentWithOriginId, networkIdOf, writeCreatePath } from './lookup-index-store';

const OWNER = 'lookup-index-bench';
const LEASE_MS = 600_000;
/** Far enough that a movement answered here is not claimed again by the next round. */
const ANSWERED_DUE_IN_MS = 3_600_000;

export interface LookupLatency {
  lookups: number;
  p50Ms: number;
  p99Ms: number;
}

export interface WriteCost {
  operations: number;
  /** Wall time per operation at `concurrency` callers, in microseconds. */
  microsPerOperation: number;
  /** Postgres only: WAL bytes per operation (the whole server's: other work adds to it), index bytes added. */
  walBytesPerOperation: number | null;
  indexBytesPerOperation: number | null;
}

/**
 * `count` lookups of random seeded movements by network id, one at a time, through the store's own query
 * (`list({ networkId, limit: 1 })`, what MovementService.findByNetworkId and a lookup by network id run).
 */
export async function measureLookups(
  database: BenchDatabase,
  seeded: { first: number; count: number },
  count: number,
): Promise<LookupLatency> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const originId = seeded.first + Math.floor(Math.random() * seeded.count);
    const started = performance.now();
    const page = await database.store.list({ networkId: networkIdOf(originId), limit: 1 });
    samples.push(performance.now() - started);
    if (page.items[0]?.originId !== originId) throw new Error(`the lookup of ${originId} found another movement`);
  }
  return { lookups: count, p50Ms: percentile(samples, 0.5), p99Ms: percentile(samples, 0.99) };
}

/**
 * The create path's writes for `count` new transfers, `concurrency` at once: the intent recorded and leased
 * (`recordIntent`), then the bank's first answer (CREATED, its network id: the write that puts the movement
 * in a network-id index) applied fenced with its history row, as MovementSender writes them.
 */
export async function measureCreates(
  database: BenchDatabase,
  template: Omit<TransferIntent, 'originId'>,
  firstOriginId: number,
  count: number,
  concurrency: number,
): Promise<WriteCost> {
  const { store } = database;
  let next = firstOriginId;
  const last = firstOriginId + count - 1;
  const one = async (originId: number) => {
    const { intent, fingerprint } = intentWithOriginId(template, originId);
    await writeCreatePath(store, OWNER, intent, fingerprint);
  };
  return timed(database, count, concurrency, async () => {
    while (next <= last) await one(next++);
  });
}

/**
 * A sweep's answer writes for `count` seeded movements, `concurrency` at once: claimed first (`claimDue`, in
 * batches of 100, not timed: a claim's lease write touches no network id), then each quiet answer (the same
 * status, the same network id) applied fenced, as most of a sweep's writes are.
 */
export async function measureAnswers(
  database: BenchDatabase,
  template: Omit<TransferIntent, 'originId'>,
  count: number,
  concurrency: number,
): Promise<WriteCost> {
  const { store } = database;
  const claimed: number[] = [];
  while (claimed.length < count) {
    const batch = await store.claimDue({
      owner: OWNER,
      limit: Math.min(100, count - claimed.length),
      leaseMs: LEASE_MS,
    });
    if (batch.length === 0) throw new Error('no seeded movement is due any more');
    claimed.push(...batch.map((movement) => movement.originId));
  }
  const one = async (originId: number) => {
    const now = new Date();
    const written = await store.applyUpdate(originId, OWNER, {
      patch: {
        lastBankAnswer: bankAnswerOf({ ...template, originId }, 'IN_PROGRESS'),
        lastAnswerAt: now,
        lastError: null,
        bankMovementId: `mov-bench-${originId}`,
        networkId: networkIdOf(originId),
        network: 'COELSA',
        postingDatetime: '2026-11-24T10:00:00.000Z',
        nextQueryAt: new Date(now.getTime() + ANSWERED_DUE_IN_MS),
      },
      countQuery: true,
      releaseLease: true,
    });
    if (!written.applied) throw new Error(`the answer of ${originId} was not written`);
  };
  return timed(database, count, concurrency, async () => {
    for (let originId = claimed.pop(); originId !== undefined; originId = claimed.pop()) await one(originId);
  });
}

async function timed(
  database: BenchDatabase,
  count: number,
  concurrency: number,
  worker: () => Promise<void>,
): Promise<WriteCost> {
  const before = await database.writeCounters();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;
  const after = await database.writeCounters();
  return {
    operations: count,
    microsPerOperation: (elapsedMs * 1000) / count,
    walBytesPerOperation: before && after ? (after.walBytes - before.walBytes) / count : null,
    indexBytesPerOperation: before && after ? (after.indexBytes - before.indexBytes) / count : null,
  };
}
