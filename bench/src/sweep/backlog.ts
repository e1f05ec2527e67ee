import { validateTransferIntent } from '@giro/transfer-module';
import type { TransferIntent } from '@giro/transfer-module/domain';
import { transferRequestBody } from '../workload/transfer-request';
import { intentFingerprint } from './fingerprint';

/**
 * A backlog is movements with consecutive originIds, each as the store keeps it once the bank acknowledged
 * it: IN_PROGRESS, last answered a minute ago, not leased. The first `warmup` are due at seeding; the
 * `count` measured ones after them are due `MEASURED_DUE_LATER_BY_MS` later, so a sweeping process can sweep
 * the warm-up ones first (connections opened, code compiled); the measured ones are made due just before it
 * is told to go (makeMeasuredDue). Seeded straight into the tables (and into the sandbox),
 * because creating a million through the API would take most of an hour.
 */
export interface Backlog {
  firstOriginId: number;
  /** Movements due at seeding, swept before measuring. */
  warmup: number;
  /** Measured movements, due `MEASURED_DUE_LATER_BY_MS` after seeding. */
  count: number;
  /** "Now" of the seeding, epoch ms. */
  nowMs: number;
}

/**
 * How much later than the warm-up movements the measured ones fall due on their own: longer than any wait
 * between seeding and measuring (in --full, the limit sweeps a million movements of a copy of the same file
 * first, for over ten minutes: the measured part must not fall due meanwhile, or giro's warm-up sweep takes it).
 */
export const MEASURED_DUE_LATER_BY_MS = 6 * 3_600_000;

/**
 * Longer than any run: a movement queried in a sweep (warm-up or measured) is not due again before the backlog
 * is drained, by this process or another, so each is queried exactly once. (giro's default lease is twice its
 * polling interval, and a lease is at most a day.)
 */
export const SWEPT_AGAIN_AFTER_MS = 10 * 3_600_000;

export interface BacklogRow {
  originId: number;
  intent: string;
  fingerprint: string;
  nextQueryAtMs: number;
}

/** The columns every row of a backlog shares. */
export function backlogConstants(backlog: Backlog) {
  const template = intentTemplate();
  return {
    status: 'IN_PROGRESS',
    amount: template.amount,
    currencyId: template.currencyId,
    attempts: 1,
    lastAnswerAtMs: backlog.nowMs - 60_000,
    createdAtMs: backlog.nowMs - 60_000,
  } as const;
}

/** The rows of the backlog, `chunkSize` at a time: the intent as the store records it, its fingerprint, when due. */
export function* backlogChunks(backlog: Backlog, chunkSize: number): Generator<BacklogRow[]> {
  const template = intentTemplate();
  const firstMeasured = backlog.firstOriginId + backlog.warmup;
  const last = backlog.firstOriginId + backlog.warmup + backlog.count - 1;
  const dueNow = backlog.nowMs - 1_000;
  for (let first = backlog.firstOriginId; first <= last; first += chunkSize) {
    const rows: BacklogRow[] = [];
    for (let originId = first; originId <= Math.min(last, first + chunkSize - 1); originId++) {
      const intent: TransferIntent = { ...template, originId };
      rows.push({
        originId,
        intent: JSON.stringify(intent),
        fingerprint: intentFingerprint(intent),
        nextQueryAtMs: originId < firstMeasured ? dueNow : dueNow + MEASURED_DUE_LATER_BY_MS,
      });
    }
    yield rows;
  }
}

export function intentTemplate(): Omit<TransferIntent, 'originId'> {
  const validated = validateTransferIntent(transferRequestBody(), {});
  if (!validated.ok) throw new Error(`the benchmark's transfer is invalid: ${JSON.stringify(validated.violations)}`);
  return validated.intent;
}
