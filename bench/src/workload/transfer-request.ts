import { completeCbuCvu, completeCuit } from '@giro/transfer-module';

function cuit(first10: string): string {
  const value = completeCuit(first10);
  if (value === undefined) throw new Error(`no CUIT starts with ${first10}`);
  return value;
}

const FROM = { address: completeCbuCvu('0000003', '1000000000017'), personId: cuit('3071234567') };
/** SOURCE_ACCOUNTS for a reconciler that sends these requests. */
export const SOURCE_ACCOUNTS_ENV = `${FROM.address}:${FROM.personId}`;
const TO = { address: completeCbuCvu('2850590', '9400900418135'), personId: cuit('2012345678') };

/** The request every system sends (docs/bank-api.md#request-fields), without an originId: giro allocates one. */
export function transferRequestBody(description = 'giro bench') {
  return {
    from: { addressType: 'CBU_CVU', address: FROM.address, owner: { personIdType: 'CUI', personId: FROM.personId } },
    to: { addressType: 'CBU_CVU', address: TO.address, owner: { personIdType: 'CUI', personId: TO.personId } },
    body: { currencyId: '032', amount: 1234.5, description, concept: 'VAR' },
  };
}

/** The same request with the client's own originId (the limit and the peer bring theirs). */
export function transferRequest(originId: number, description?: string) {
  return { originId, ...transferRequestBody(description) };
}

/**
 * The first originId of a range no earlier run used: the same floor as giro's allocator (epoch ms × 1000),
 * so the limit and the peer, which bring their own ids, never collide with giro's or with each other's.
 */
export function freshOriginIdRange(): number {
  return Date.now() * 1000;
}

/**
 * How far apart the ranges of workers run side by side start: giro's time floor (ms × 1000) takes some 11 days to
 * cross it, so no run's ids reach the next worker's range.
 */
export const SIDE_BY_SIDE_ID_RANGE = 1_000_000_000_000;
