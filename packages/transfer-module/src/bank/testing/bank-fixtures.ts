// Test support for the bank client's specs: answers and options. Not exported from the package barrel.
import type { TransferRequestWire } from '../../domain';
import type { BankClientOptions } from '../bank-client.options';

export const API = {
  transferRequest: '/v2/apibank/movements/transfer-request',
  getMovement: '/v2/apibank/movements/get-movement',
};

export interface ClientCertificates {
  ca: { cert: string };
  client: { cert: string; key: string };
}

/** Options for a client of `url` with a static token; `overrides` replace whole top-level options. */
export function clientOptions(
  certificates: ClientCertificates,
  url: string,
  overrides: Partial<BankClientOptions> = {},
): BankClientOptions {
  return {
    baseUrl: url,
    tls: { ca: certificates.ca.cert, cert: certificates.client.cert, key: certificates.client.key },
    auth: { token: 'test-token' },
    ...overrides,
  };
}

export function transferRequest(originId = 1001): TransferRequestWire {
  return {
    originId,
    from: {
      addressType: 'CBU_CVU',
      address: '0000003100010000000001',
      owner: { personIdType: 'CUI', personId: '20123456786' },
    },
    to: {
      addressType: 'CBU_CVU',
      address: '2850590940090418135201',
      owner: { personIdType: 'CUI', personId: '27123456780' },
    },
    body: { currencyId: '032', amount: 1234.5, description: 'rent', concept: 'ALQ' },
  } as TransferRequestWire;
}

/** A movement answer (docs/bank-api.md#movement-fields). */
export function movementAnswer(originId = 1001, status = 'IN_PROGRESS', details: Record<string, unknown> = {}) {
  return {
    id: `mov-${originId}`,
    status,
    counterparty: {
      personId: '27123456780',
      personIdType: 'CUI',
      personName: 'Ana Pérez',
      accountRouting: { addressType: 'CBU_CVU', address: '2850590940090418135201' },
    },
    details: {
      type: 'DEBIT_TRANSFER_SENT_CVU',
      typeDescription: 'Transferencia enviada',
      originId,
      network: 'COELSA',
      networkId: `net-${originId}`,
      postingDatetime: '2024-05-02T13:45:10Z',
      amountCurrency: '032',
      amount: 1234.5,
      motiveCode: 'ALQ',
      message: 'rent',
      ...details,
    },
    thisSubAccount: {
      owners: { personId: '20123456786', personIdType: 'CUI', personName: 'Giro SA', personType: 'LEGAL' },
    },
  };
}
