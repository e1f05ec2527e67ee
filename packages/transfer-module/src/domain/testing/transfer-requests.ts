import type { DecimalAmount } from '../money';
import { type TransferInput, type TransferIntent, validateTransferIntent } from '../transfer-intent';

// Published numbers: Banco Macro's example CBU and AFIP's CUIT; a CVU and a CUIL completed by hand.
export const FROM_CBU = '2850590940090418135201';
export const FROM_CUIT = '33693450239';
export const TO_CVU = '0000003100000000000017'; // block 1: 3·3 = 9 → check 1; block 2: 1·3 = 3 → check 7
export const TO_CUIL = '20123456786';

export function validRequest(): Record<string, unknown> {
  return {
    originId: 1001,
    from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
    to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
    body: { currencyId: '032', amount: 1234.5, description: 'Alquiler marzo', concept: 'ALQ' },
  };
}

export const EXPECTED_INTENT: TransferIntent = {
  originId: 1001,
  from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
  to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
  currencyId: '032',
  amount: '1234.50' as DecimalAmount,
  description: 'Alquiler marzo',
  concept: 'ALQ',
};

/** The request with `path` (dotted) set to `value`, or removed when `value` is `REMOVE`. */
export const REMOVE = Symbol('remove');
export function requestWith(path: string, value: unknown): Record<string, unknown> {
  const request = validRequest();
  const keys = path.split('.');
  let target = request;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = keys[keys.length - 1];
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return request;
}

/** The validated intent of a request that must be valid. */
export function intentOf(input: unknown): TransferInput {
  const result = validateTransferIntent(input);
  if (!result.ok) throw new Error(`expected a valid request, got ${JSON.stringify(result.violations)}`);
  return result.intent;
}
