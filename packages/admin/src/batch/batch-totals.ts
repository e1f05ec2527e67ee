import type { BatchRowResult } from './transfer-batch';

/** What some rows add up to in one currency: how many, and their amount (a canonical decimal, summed exactly). */
export interface BatchTotal {
  currencyId: string;
  count: number;
  amount: string;
}

export interface BatchTotals {
  /** Per source account and currency, in the order the accounts first appear in the file. */
  perSource: (BatchTotal & { fromAddress: string })[];
  /** Per currency: amounts in different currencies are never added together. */
  overall: BatchTotal[];
}

/** The money of a dry run: the rows that would be created (`valid`), added up in cents. */
export function batchTotalsOf(rows: BatchRowResult[]): BatchTotals {
  const perSource = new Map<string, { fromAddress: string; currencyId: string; count: number; cents: bigint }>();
  const overall = new Map<string, { currencyId: string; count: number; cents: bigint }>();
  for (const { outcome, transfer } of rows) {
    if (outcome !== 'valid' || transfer === undefined) continue;
    const cents = centsOf(transfer.amount);
    const key = `${transfer.fromAddress}:${transfer.currencyId}`;
    const source = perSource.get(key) ?? {
      fromAddress: transfer.fromAddress,
      currencyId: transfer.currencyId,
      count: 0,
      cents: 0n,
    };
    perSource.set(key, { ...source, count: source.count + 1, cents: source.cents + cents });
    const total = overall.get(transfer.currencyId) ?? { currencyId: transfer.currencyId, count: 0, cents: 0n };
    overall.set(transfer.currencyId, { ...total, count: total.count + 1, cents: total.cents + cents });
  }
  return {
    perSource: [...perSource.values()].map(({ cents, ...total }) => ({ ...total, amount: decimalOf(cents) })),
    overall: [...overall.values()].map(({ cents, ...total }) => ({ ...total, amount: decimalOf(cents) })),
  };
}

/** A validated amount (`1234.50`, always two decimals) in cents. */
function centsOf(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

function decimalOf(cents: bigint): string {
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
