/** ISO 4217 numeric code of the Argentine peso, the only currency of these transfers. */
export const PESO_CURRENCY_ID = '032';
export type CurrencyId = typeof PESO_CURRENCY_ID;

export function isCurrencyId(value: unknown): value is CurrencyId {
  return value === PESO_CURRENCY_ID;
}
