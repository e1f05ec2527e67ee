/**
 * An amount as typed by a person in Argentina (`1.234,50`, `1234,5`) or by a program (`1234.50`), as the admin
 * API reads amounts: a decimal string with a dot. Anything else is passed as typed, for the API to name the error.
 */
export function toApiDecimal(typed: string): string {
  const value = typed.trim().replace(/^\$\s*/, '');
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(value)) return value.replace(/\./g, '').replace(',', '.');
  if (/^\d+,\d{1,2}$/.test(value)) return value.replace(',', '.');
  return value;
}

/** An API amount (`1234.5`) as a person in Argentina types it (`1.234,5`); anything else as it is. */
export function typedAmount(apiDecimal: string): string {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(apiDecimal);
  if (!match) return apiDecimal;
  const whole = match[1].replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return match[2] === undefined ? whole : `${whole},${match[2]}`;
}

/** What some transfers add up to, per currency in the order they first come: each amount summed exactly in cents. */
export function totalsByCurrency(
  transfers: readonly { amount: string; currencyId: string }[],
): { currencyId: string; amount: string; count: number }[] {
  const totals = new Map<string, { cents: bigint; count: number }>();
  for (const { amount, currencyId } of transfers) {
    const [whole, fraction = ''] = amount.split('.');
    const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
    const total = totals.get(currencyId) ?? { cents: 0n, count: 0 };
    totals.set(currencyId, { cents: total.cents + cents, count: total.count + 1 });
  }
  return [...totals].map(([currencyId, { cents, count }]) => {
    const digits = cents.toString().padStart(3, '0');
    return { currencyId, amount: `${digits.slice(0, -2)}.${digits.slice(-2)}`, count };
  });
}
