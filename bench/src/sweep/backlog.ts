import { intentFingerprint, type TransferIntent, validateTransferIntent } from '@giro/transfer-module';
import { transferRequestBody } from '../workload/transfer-request';

/**
 * A backlog is `count` movements with consecutive originIds, each as the store keeps it once the bank
 * acknowledged it: IN_PROGRESS, last answered a minute ago, due now, not leased. Seeded straight into the
 * tables (and into the sandbox), because creating a million through the API would take most of an hour.
 */
export interface Backlog {
  firstOriginId: number;
  count: number;
  /** "Now" of the seeding, epoch ms. */
  nowMs: number;
}

export interface BacklogRow {
  originId: number;
  intent: string;
  fingerprint: string;
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
    nextQueryAtMs: backlog.nowMs - 1_000,
    createdAtMs: backlog.nowMs - 60_000,
  } as const;
}

/** The rows of the backlog, `chunkSize` at a time: the intent as the store records it, and its fingerprint. */
export function* backlogChunks(backlog: Backlog, chunkSize: number): Generator<BacklogRow[]> {
  const template = intentTemplate();
  const last = backlog.firstOriginId + backlog.count - 1;
  for (let first = backlog.firstOriginId; first <= last; first += chunkSize) {
    const rows: BacklogRow[] = [];
    for (let originId = first; originId <= Math.min(last, first + chunkSize - 1); originId++) {
      const intent: TransferIntent = { ...template, originId };
      rows.push({ originId, intent: JSON.stringify(intent), fingerprint: intentFingerprint(intent) });
    }
    yield rows;
  }
}

function intentTemplate(): Omit<TransferIntent, 'originId'> {
  const validated = validateTransferIntent(transferRequestBody(), {});
  if (!validated.ok) throw new Error(`the benchmark's transfer is invalid: ${JSON.stringify(validated.violations)}`);
  return validated.intent;
}
