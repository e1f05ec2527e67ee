import { validateTransferIntent } from '@giro/transfer-module';
import type { DataSource } from 'typeorm';
import {
  bankAnswerOf,
  intentWithOriginId,
  type MovementStoreInstance,
  writeCreatePath,
} from '../lookup-index/lookup-index-store';
import type { parties } from './search-seed';
import { DESCRIPTION_WORDS, invoiceOf } from './search-seed-sql';

// The writes whose cost the search's indexes raise, on a history the search bench seeds: the create path of a
// new transfer (its parties, amount and description drawn like the history's, so each index is written where a
// real one would be) and a sweep's quiet answer to an open movement of that history.

const OWNER = 'search-write-bench';
const LEASE_MS = 600_000;
/** Far enough that a movement answered here is not claimed again in the same run. */
const ANSWERED_DUE_IN_MS = 3_600_000;

type Parties = ReturnType<typeof parties>;

/** A transfer as a payout business sends them: the history's parties, amounts and descriptions, drawn by originId. */
function requestOf(originId: number, people: Parties) {
  const draw = (salt: number) => {
    const x = Math.sin(originId * 12.9898 + salt * 78.233) * 43_758.5453;
    return x - Math.floor(x);
  };
  const to = people.destinations[Math.floor(draw(1) ** 2 * people.destinations.length)];
  const from = people.sources[Math.floor(draw(2) ** 2 * people.sources.length)];
  const word = DESCRIPTION_WORDS.find(([, share]) => draw(3) < share)?.[0] ?? 'Varios';
  const description = draw(4) < 0.5 ? `${word} ${invoiceOf(originId)}` : word;
  const amount = Math.round(Math.exp(Math.log(25_000) + 1.2 * (draw(5) * 2 - 1)) * 100) / 100;
  return {
    originId,
    from: { addressType: 'CBU_CVU', address: from.address, owner: { personIdType: 'CUI', personId: from.personId } },
    to: { addressType: 'CBU_CVU', address: to.address, owner: { personIdType: 'CUI', personId: to.personId } },
    body: { currencyId: '032', amount, description, concept: 'VAR' },
  };
}

function intentOf(originId: number, people: Parties) {
  const validated = validateTransferIntent(requestOf(originId, people), {});
  if (!validated.ok) throw new Error(`transfer ${originId} is invalid`);
  return intentWithOriginId(validated.intent, originId);
}

/** The create path's writes for transfer `originId`: `recordIntent`, then the first answer, as MovementSender writes them. */
export async function createPath(store: MovementStoreInstance, originId: number, people: Parties): Promise<void> {
  const { intent, fingerprint } = intentOf(originId, people);
  await writeCreatePath(store, OWNER, intent, fingerprint);
}

/** The create path's first write alone: `recordIntent` (the insert; the first answer is the rest of the path). */
export async function intentOnly(store: MovementStoreInstance, originId: number, people: Parties): Promise<void> {
  const { intent, fingerprint } = intentOf(originId, people);
  await store.recordIntent(intent, fingerprint, { sendNow: true, owner: OWNER, leaseMs: LEASE_MS });
}

/** Claims up to `count` due movements (in batches of 100, as a sweep does); their ids. */
export async function claimOpen(store: MovementStoreInstance, count: number) {
  const claimed: Awaited<ReturnType<MovementStoreInstance['claimDue']>> = [];
  while (claimed.length < count) {
    const batch = await store.claimDue({
      owner: OWNER,
      limit: Math.min(100, count - claimed.length),
      leaseMs: LEASE_MS,
    });
    if (batch.length === 0) throw new Error('no open movement is due any more');
    claimed.push(...batch);
  }
  return claimed;
}

/** A sweep's quiet answer to a claimed movement: the same status, the next query later, fenced by the lease. */
export async function quietAnswer(
  store: MovementStoreInstance,
  movement: Awaited<ReturnType<MovementStoreInstance['claimDue']>>[number],
): Promise<void> {
  const now = new Date();
  const written = await store.applyUpdate(movement.originId, OWNER, {
    patch: {
      lastBankAnswer: bankAnswerOf(movement.intent, 'IN_PROGRESS'),
      lastAnswerAt: now,
      lastError: null,
      nextQueryAt: new Date(now.getTime() + ANSWERED_DUE_IN_MS),
    },
    countQuery: true,
    releaseLease: true,
  });
  if (!written.applied) throw new Error(`the answer of ${movement.originId} was not written`);
}

/** A sweep's answer that ends a claimed movement: COMPLETED, with its history row, fenced by the lease. */
export async function completingAnswer(
  store: MovementStoreInstance,
  movement: Awaited<ReturnType<MovementStoreInstance['claimDue']>>[number],
): Promise<void> {
  const written = await store.applyUpdate(movement.originId, OWNER, {
    patch: {
      lastBankAnswer: bankAnswerOf(movement.intent, 'COMPLETED'),
      lastAnswerAt: new Date(),
      lastError: null,
      status: 'COMPLETED',
    },
    history: [{ to: 'COMPLETED', source: 'query' }],
    countQuery: true,
    releaseLease: true,
  });
  if (!written.applied) throw new Error(`the answer of ${movement.originId} was not written`);
}

/**
 * `count` of the history's newest completed movements reopened (IN_PROGRESS, due, no lease) for the answers to
 * claim: open movements with all their search columns, as a sweep finds them. The same rows on every run.
 */
export async function reopen(dataSource: DataSource, count: number, postgres: boolean): Promise<void> {
  const sql = `UPDATE giro_movements SET status = 'IN_PROGRESS', next_query_at_ms = $1, lease_owner = NULL,
      lease_expires_at_ms = NULL, queries_held_until_ms = NULL
    WHERE origin_id IN (SELECT origin_id FROM giro_movements WHERE status = 'COMPLETED' ORDER BY origin_id DESC LIMIT $2)`;
  await dataSource.query(postgres ? sql : sql.replace('$1', '?').replace('$2', '?'), [Date.now() - 60_000, count]);
}
