import { completeCbuCvu } from '../domain/cbu-cvu';
import { completeCuit } from '../domain/cuit';
import type { TransferRequestWire } from '../domain/transfer-intent';

export interface SampleTransferOptions {
  originId?: number;
  /** A JSON number or a decimal string (default `'1234.50'`). */
  amount?: number | string;
  /** The sandbox bank picks its scenario from tags here: `[fail]`, `[delay]`, `[reject]`, `[lost]`, `[other-payee]`. */
  description?: string;
  /** The sending account and its holder's CUIT (default a valid pair). */
  from?: { address: string; personId: string };
}

/** The request's shape as `requestTransfer` takes it: `originId` optional, the amount a number or a string. */
export type SampleTransferRequest = Omit<TransferRequestWire, 'originId' | 'body'> & {
  originId?: number;
  body: Omit<TransferRequestWire['body'], 'amount'> & { amount: number | string };
};

function cuit(first10: string): string {
  const value = completeCuit(first10);
  if (value === undefined) throw new Error(`no CUIT starts with ${first10}`);
  return value;
}

const DEFAULT_FROM = { address: completeCbuCvu('0000003', '1000000000017'), personId: cuit('3071234567') };
const DEFAULT_TO = { address: completeCbuCvu('2850590', '9400900418135'), personId: cuit('2012345678') };

/** A valid transfer request (valid CBUs and CUITs, peso, concept `VAR`), for `TransferService.requestTransfer`. */
export function sampleTransferRequest(options: SampleTransferOptions = {}): SampleTransferRequest {
  const from = options.from ?? DEFAULT_FROM;
  return {
    ...(options.originId !== undefined && { originId: options.originId }),
    from: { addressType: 'CBU_CVU', address: from.address, owner: { personIdType: 'CUI', personId: from.personId } },
    to: {
      addressType: 'CBU_CVU',
      address: DEFAULT_TO.address,
      owner: { personIdType: 'CUI', personId: DEFAULT_TO.personId },
    },
    body: {
      currencyId: '032',
      amount: options.amount ?? '1234.50',
      description: options.description ?? 'giro test transfer',
      concept: 'VAR',
    },
  };
}
