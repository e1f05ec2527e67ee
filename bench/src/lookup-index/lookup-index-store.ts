import { dirname, join } from 'node:path';
import type { TransferIntent } from '@giro/transfer-module/domain';
import { intentFingerprint } from '../sweep/fingerprint';

// This benchmark measures the store's own statements (the lookup, the create path's two writes, a sweep's answer
// write), so it needs MovementStore, which the package does not export. It reads it from the workspace's build by
// path, as fingerprint.ts reads the intent fingerprint (a package's exports map applies to its name, not to paths).
type TransferModulePersistence = typeof import('@giro/transfer-module/persistence');

const transferModuleDir = dirname(require.resolve('@giro/transfer-module/package.json'));

export const { MovementStore } = require(join(transferModuleDir, 'dist', 'persistence')) as TransferModulePersistence;
export type MovementStoreInstance = InstanceType<typeof MovementStore>;

/** The network id the bench gives movement `originId`: unique, the shape of the sandbox's. */
export const networkIdOf = (originId: number) => `NET${String(originId).padStart(16, '0')}`;

/**
 * A bank answer as the sandbox gives it (about 900 bytes as JSON), so that rows are as wide as a real table's:
 * a scan reads every one of them.
 */
export function bankAnswerOf(intent: TransferIntent, status: string): Record<string, unknown> {
  const networkId = networkIdOf(intent.originId);
  return {
    id: `mov-bench-${intent.originId}`,
    status,
    counterparty: {
      personId: intent.to.owner.personId,
      personIdType: 'CUI',
      personName: 'Juan Pérez',
      accountRouting: { addressType: 'CBU_CVU', address: intent.to.address },
    },
    details: {
      type: 'DEBIT_TRANSFER_SENT_CVU',
      typeDescription: 'Transferencia enviada',
      originId: intent.originId,
      network: 'COELSA',
      networkId,
      postingDatetime: '2026-11-24T10:00:00Z',
      amountCurrency: intent.currencyId,
      amount: Number(intent.amount),
      motiveCode: intent.concept,
      message: intent.description,
    },
    thisSubAccount: {
      owners: {
        personId: intent.from.owner.personId,
        personIdType: 'CUI',
        personName: 'Giro Bench SA',
        personType: 'COMPANY',
      },
      accountRouting: { addressType: 'CVU', address: intent.from.address },
    },
  };
}

/** The intent `template` under `originId`, and its fingerprint. */
export function intentWithOriginId(template: Omit<TransferIntent, 'originId'>, originId: number) {
  const intent: TransferIntent = { ...template, originId };
  return { intent, fingerprint: intentFingerprint(intent) };
}

const LEASE_MS = 600_000;
/** Far enough that a movement answered here is not claimed again in the same run. */
const ANSWERED_DUE_IN_MS = 3_600_000;

/**
 * The create path's writes for `intent` as `owner`: `recordIntent`, then the bank's first answer (CREATED), as
 * MovementSender writes them.
 */
export async function writeCreatePath(
  store: MovementStoreInstance,
  owner: string,
  intent: TransferIntent,
  fingerprint: string,
): Promise<void> {
  const { originId } = intent;
  await store.recordIntent(intent, fingerprint, { sendNow: true, owner, leaseMs: LEASE_MS });
  const answer = bankAnswerOf(intent, 'CREATED');
  const now = new Date();
  const written = await store.applyUpdate(originId, owner, {
    patch: {
      lastBankAnswer: answer,
      lastAnswerAt: now,
      lastError: null,
      bankMovementId: answer.id as string,
      networkId: networkIdOf(originId),
      network: 'COELSA',
      postingDatetime: '2026-11-24T10:00:00.000Z',
      status: 'CREATED',
      nextQueryAt: new Date(now.getTime() + ANSWERED_DUE_IN_MS),
    },
    history: [{ to: 'CREATED', source: 'create' }],
    releaseLease: true,
  });
  if (!written.applied) throw new Error(`the answer of ${originId} was not written`);
}
