import { amountToWire, type BankStatus, completeCuit, isCvu } from '@giro/transfer-module';
import type { MovementIds } from '../ledger/ledger';
import type { Movement } from '../ledger/movement';
import { namesAnotherCounterparty } from '../ledger/scenario';
import { isCompany, personNameOf } from './person-names';
import { wireDatetime } from './wire-datetime';

export const NETWORK_NAME = 'COELSA';
const MOVEMENT_TYPE = 'DEBIT_TRANSFER_SENT_CVU';
const MOVEMENT_TYPE_DESCRIPTION = 'Transferencia enviada';

/** The movement as the bank answers it (docs/bank-api.md#movement-fields), plus a `warning` for a repeated originId. */
export interface MovementAnswer {
  id: string;
  status: BankStatus;
  counterparty: {
    personId: string;
    personIdType: 'CUI';
    personName: string;
    accountRouting: { addressType: 'CBU_CVU'; address: string };
  };
  details: {
    type: string;
    typeDescription: string;
    originId: number;
    network: string;
    networkId: string;
    postingDatetime: string;
    /** Present once the movement is final. */
    completedDatetime?: string;
    amountCurrency: '032';
    amount: number;
    motiveCode: string;
    message: string;
  };
  thisSubAccount: {
    owners: { personId: string; personIdType: 'CUI'; personName: string; personType: 'INDIVIDUAL' | 'COMPANY' };
    accountRouting: { addressType: 'CVU' | 'CBU'; address: string };
  };
  warning?: string;
}

export function movementAnswer(movement: Movement, ids: MovementIds, nowMs: number): MovementAnswer {
  const { transfer } = movement;
  const finalAtMs = movement.finalAtMs(nowMs);
  const paid = namesAnotherCounterparty(transfer.description)
    ? anotherCuitThan(transfer.toPersonId)
    : transfer.toPersonId;
  return {
    id: ids.id,
    status: movement.statusAt(nowMs),
    counterparty: {
      personId: paid,
      personIdType: 'CUI',
      personName: personNameOf(paid),
      accountRouting: { addressType: 'CBU_CVU', address: transfer.toAddress },
    },
    details: {
      type: MOVEMENT_TYPE,
      typeDescription: MOVEMENT_TYPE_DESCRIPTION,
      originId: transfer.originId,
      network: NETWORK_NAME,
      networkId: ids.networkId,
      postingDatetime: wireDatetime(movement.createdAtMs),
      ...(finalAtMs === undefined ? {} : { completedDatetime: wireDatetime(finalAtMs) }),
      amountCurrency: '032',
      amount: amountToWire(transfer.amount),
      motiveCode: transfer.concept,
      message: transfer.description,
    },
    thisSubAccount: {
      owners: {
        personId: transfer.fromPersonId,
        personIdType: 'CUI',
        personName: personNameOf(transfer.fromPersonId),
        personType: isCompany(transfer.fromPersonId) ? 'COMPANY' : 'INDIVIDUAL',
      },
      accountRouting: { addressType: isCvu(transfer.fromAddress) ? 'CVU' : 'CBU', address: transfer.fromAddress },
    },
  };
}

/** A valid CUIT of a company other than `personId`, always the same for it (the `[other-payee]` scenario). */
function anotherCuitThan(personId: string): string {
  for (let step = 1; ; step++) {
    const base = `30${String((Number(personId.slice(2, 10)) + step * 7919) % 100_000_000).padStart(8, '0')}`;
    const cuit = completeCuit(base);
    if (cuit !== undefined && cuit !== personId) return cuit;
  }
}
