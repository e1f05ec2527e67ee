import { explainCbuCvu } from './cbu-cvu';
import { amountFromCents, amountToCents, type DecimalAmount, MAX_WIRE_AMOUNT, parseAmount } from './money';
import type { Violation } from './violation';

// Limits per source account: a maximum per transfer, an amount per day and a number of transfers per
// day, for each account and a default for all. A day is a calendar day of Buenos Aires (business-day.ts).
// Amounts are decimal strings read with the domain's money rules and compared as integer cents, never floats.

/** The limits a transfer may pass, named as a refusal names them. */
export const LIMIT_RULES = ['per_transfer', 'daily_amount', 'daily_count'] as const;
export type LimitRule = (typeof LIMIT_RULES)[number];

/** The most transfers a daily count may allow. */
export const MAX_DAILY_COUNT = 1_000_000;

/**
 * One account's limits as configured: amounts as decimal strings (`"50000.00"`), the count a whole number.
 * In an account's entry, an absent limit is the default's and `null` is none for that account.
 */
export interface AccountLimitsOptions {
  perTransfer?: string | null;
  dailyAmount?: string | null;
  dailyCount?: number | null;
}

/** The limits of every source account: `default` for all, `accounts` by address (CBU/CVU) for some. */
export interface SourceAccountLimitsOptions {
  default?: AccountLimitsOptions;
  accounts?: Record<string, AccountLimitsOptions>;
}

/** The limits in force for one account; null = no such limit. */
export interface AccountLimits {
  perTransfer: DecimalAmount | null;
  dailyAmount: DecimalAmount | null;
  dailyCount: number | null;
}

/** What an account has used of one day: the amount and the number of its transfers that count. */
export interface DailyUsage {
  amount: DecimalAmount;
  transfers: number;
}

/** A transfer that would pass a limit: which one, of which account, its value and what remains of it. */
export type LimitRefusal =
  | { rule: 'per_transfer'; address: string; limit: DecimalAmount; amount: DecimalAmount }
  | { rule: 'daily_amount'; address: string; limit: DecimalAmount; remaining: DecimalAmount }
  | { rule: 'daily_count'; address: string; limit: number; remaining: number };

const LIMIT_KEYS = ['perTransfer', 'dailyAmount', 'dailyCount'] as const;
const NONE: AccountLimits = { perTransfer: null, dailyAmount: null, dailyCount: null };

/** Checked limits: the default and each account's own, merged field by field. */
export class SourceAccountLimits {
  private constructor(
    readonly defaults: AccountLimits,
    private readonly accounts: ReadonlyMap<string, AccountLimits>,
  ) {}

  /**
   * Reads limits options; throws a RangeError whose message starts with the path of the bad value
   * (`default.dailyAmount must be …`, `accounts.<address>.dailyCount must be …`).
   */
  static from(value: unknown): SourceAccountLimits {
    const options = asObject(value, '');
    for (const key of Object.keys(options)) {
      if (key !== 'default' && key !== 'accounts')
        throw new RangeError(`${key} is not a limits key (known: default, accounts)`);
    }
    const defaults = options.default === undefined ? NONE : orNone(readLimits(options.default, 'default', false));
    const accounts = new Map<string, AccountLimits>();
    for (const [address, entry] of Object.entries(asObject(options.accounts ?? {}, 'accounts'))) {
      const problem = explainCbuCvu(address);
      if (problem !== undefined) throw new RangeError(`accounts.${address} is not an account: ${problem}`);
      const own = readLimits(entry, `accounts.${address}`, true);
      accounts.set(address, {
        perTransfer: own.perTransfer === undefined ? defaults.perTransfer : own.perTransfer,
        dailyAmount: own.dailyAmount === undefined ? defaults.dailyAmount : own.dailyAmount,
        dailyCount: own.dailyCount === undefined ? defaults.dailyCount : own.dailyCount,
      });
    }
    return new SourceAccountLimits(defaults, accounts);
  }

  /** The limits in force for transfers from `address`: its own, else the default. */
  of(address: string): AccountLimits {
    return this.accounts.get(address) ?? this.defaults;
  }

  /** The addresses with limits of their own. */
  addresses(): string[] {
    return [...this.accounts.keys()];
  }

  /** True when no account has any limit (then nothing is checked or counted). */
  isEmpty(): boolean {
    return !hasAnyLimit(this.defaults) && [...this.accounts.values()].every((limits) => !hasAnyLimit(limits));
  }
}

/** True when a day's usage must be counted for an account with these limits. */
export function hasDailyLimit(limits: AccountLimits): boolean {
  return limits.dailyAmount !== null || limits.dailyCount !== null;
}

function hasAnyLimit(limits: AccountLimits): boolean {
  return limits.perTransfer !== null || hasDailyLimit(limits);
}

/**
 * The first limit a transfer of `amount` from `address` would pass, given what the account has used today
 * (per transfer, then the daily amount, then the daily count); undefined when it fits.
 */
export function checkLimits(
  limits: AccountLimits,
  address: string,
  amount: DecimalAmount,
  used: DailyUsage,
): LimitRefusal | undefined {
  const cents = amountToCents(amount);
  if (limits.perTransfer !== null && cents > amountToCents(limits.perTransfer)) {
    return { rule: 'per_transfer', address, limit: limits.perTransfer, amount };
  }
  if (limits.dailyAmount !== null) {
    const left = amountToCents(limits.dailyAmount) - amountToCents(used.amount);
    if (cents > left) {
      return {
        rule: 'daily_amount',
        address,
        limit: limits.dailyAmount,
        remaining: amountFromCents(left > 0n ? left : 0n),
      };
    }
  }
  if (limits.dailyCount !== null && used.transfers + 1 > limits.dailyCount) {
    return {
      rule: 'daily_count',
      address,
      limit: limits.dailyCount,
      remaining: Math.max(0, limits.dailyCount - used.transfers),
    };
  }
  return undefined;
}

/** The refusal as a violation: the field it is about, the limit's name, its value and what remains. */
export function limitViolation(refusal: LimitRefusal): Violation {
  switch (refusal.rule) {
    case 'per_transfer':
      return {
        field: 'body.amount',
        rule: refusal.rule,
        params: { address: refusal.address, limit: refusal.limit, amount: refusal.amount },
        message: `${refusal.amount} would pass the per-transfer maximum of ${refusal.address}, ${refusal.limit}`,
      };
    case 'daily_amount':
      return {
        field: 'body.amount',
        rule: refusal.rule,
        params: { address: refusal.address, limit: refusal.limit, remaining: refusal.remaining },
        message: `the daily amount of ${refusal.address} would pass ${refusal.limit}: ${refusal.remaining} remain today`,
      };
    case 'daily_count':
      return {
        field: 'from.address',
        rule: refusal.rule,
        params: { address: refusal.address, limit: refusal.limit, remaining: refusal.remaining },
        message: `the daily count of ${refusal.address} would pass ${refusal.limit} transfers: ${refusal.remaining} remain today`,
      };
  }
}

function asObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RangeError(`${path === '' ? 'limits' : path} must be an object`);
  }
  return value as Record<string, unknown>;
}

type OwnLimits = { [key in keyof AccountLimits]: AccountLimits[key] | undefined };

/** An entry's limits: undefined = not given (the default's, in an account's entry), null = none. */
function readLimits(value: unknown, path: string, nullAllowed: boolean): OwnLimits {
  const entry = asObject(value, path);
  for (const key of Object.keys(entry)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key)) {
      throw new RangeError(`${path}.${key} is not a limit (known: ${LIMIT_KEYS.join(', ')})`);
    }
  }
  const given = (key: (typeof LIMIT_KEYS)[number]) => {
    const field = entry[key];
    if (field === null && !nullAllowed) {
      throw new RangeError(`${path}.${key} must not be null (leave it out for no limit)`);
    }
    return field;
  };
  return {
    perTransfer: readAmount(given('perTransfer'), `${path}.perTransfer`),
    dailyAmount: readAmount(given('dailyAmount'), `${path}.dailyAmount`),
    dailyCount: readCount(given('dailyCount'), `${path}.dailyCount`),
  };
}

function orNone(own: OwnLimits): AccountLimits {
  return {
    perTransfer: own.perTransfer ?? null,
    dailyAmount: own.dailyAmount ?? null,
    dailyCount: own.dailyCount ?? null,
  };
}

function readAmount(value: unknown, path: string): DecimalAmount | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw new RangeError(`${path} must be a decimal string like "50000.00"`);
  const parsed = parseAmount(value, { max: MAX_WIRE_AMOUNT });
  if (!parsed.ok) throw new RangeError(`${path} ${parsed.reason}`);
  return parsed.value;
}

function readCount(value: unknown, path: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_DAILY_COUNT) {
    throw new RangeError(`${path} must be a whole number from 1 to ${MAX_DAILY_COUNT}, got ${String(value)}`);
  }
  return value;
}
