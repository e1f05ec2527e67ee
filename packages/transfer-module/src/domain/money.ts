import { describeType } from './digits';
import type { ViolationParams } from './violation';

// Amounts are decimals kept as canonical strings ("1234.50": no sign, no exponent, exactly 2 decimals) or
// as integer cents (bigint). They become a JSON number only at the wire, and are never computed with floats.

declare const decimalAmountBrand: unique symbol;
/** A canonical decimal amount string such as `"1234.50"`. Obtain one from `parseAmount`, `amountFromWire` or `amountFromCents`. */
export type DecimalAmount = string & { readonly [decimalAmountBrand]: 'DecimalAmount' };

/**
 * The largest amount any rule may allow: 15 significant digits is the most a JSON number (an IEEE-754 double)
 * carries exactly, so every amount up to this one survives decimal → JSON number → decimal unchanged.
 */
export const MAX_WIRE_AMOUNT = '9999999999999.99';

/** Default maximum per transfer: just under one trillion pesos, far above any real transfer, well inside MAX_WIRE_AMOUNT. */
export const DEFAULT_MAX_AMOUNT = '999999999999.99';

/** A JSON number has about 15.9 significant decimal digits; beyond 15, what arrives may already be rounded. */
const EXACT_JSON_DIGITS = 15;

export interface AmountRules {
  /** Largest accepted amount, a decimal string (default DEFAULT_MAX_AMOUNT, at most MAX_WIRE_AMOUNT). */
  max?: string;
}

export type ParseAmountResult =
  | { ok: true; value: DecimalAmount }
  /**
   * `rule` is `max` when only the maximum was exceeded (`params`: `max`, `value`), `amount` for every other
   * reason (`params.reason`: `type`, `empty`, `whitespace`, `exponent`, `not_positive`, `format`, `decimals`,
   * `not_finite`). `reason` says it in English.
   */
  | { ok: false; rule: 'amount' | 'max'; reason: string; params: ViolationParams };

// The JSON number grammar without sign and exponent.
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const CANONICAL = /^(0|[1-9][0-9]*)\.[0-9]{2}$/;

interface DecimalParts {
  integer: string;
  fraction: string;
}

function splitDecimal(text: string): DecimalParts | undefined {
  const match = DECIMAL.exec(text);
  return match ? { integer: match[1], fraction: match[2] ?? '' } : undefined;
}

/** Parts with at most 2 decimals → integer cents. */
function partsToCents({ integer, fraction }: DecimalParts): bigint {
  return BigInt(integer + fraction.padEnd(2, '0'));
}

function significantDigits({ integer, fraction }: DecimalParts): number {
  // Trailing zeros of an integer are not precision (1e15 is exact), leading zeros never are.
  const digits = fraction === '' ? integer.replace(/0+$/, '') : integer + fraction;
  return digits.replace(/^0+/, '').length;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

// Every amount parsed is checked against a maximum, mostly the default one: both limits are read once.
const MAX_WIRE_CENTS = partsToCents(splitDecimal(MAX_WIRE_AMOUNT) as DecimalParts);
const DEFAULT_MAX_CENTS = partsToCents(splitDecimal(DEFAULT_MAX_AMOUNT) as DecimalParts);

function maxCentsOf(rules: AmountRules | undefined): bigint {
  const max = rules?.max ?? DEFAULT_MAX_AMOUNT;
  if (max === DEFAULT_MAX_AMOUNT) return DEFAULT_MAX_CENTS;
  const parts = typeof max === 'string' ? splitDecimal(max) : undefined;
  const cents = parts && parts.fraction.length <= 2 ? partsToCents(parts) : undefined;
  if (cents === undefined || cents <= 0n || cents > MAX_WIRE_CENTS) {
    throw new RangeError(
      `amount rule "max" must be a decimal string from 0.01 to ${MAX_WIRE_AMOUNT}, got ${JSON.stringify(max)}`,
    );
  }
  return cents;
}

/** An amount refused for `params.reason` (the `amount` rule); `value` is what was given, as the message shows it. */
const fail = (message: string, params: ViolationParams): ParseAmountResult => ({
  ok: false,
  rule: 'amount',
  reason: message,
  params,
});

function overMax(maxCents: bigint, shown: string, value: string): ParseAmountResult {
  const max = amountFromCents(maxCents);
  return { ok: false, rule: 'max', reason: `must be at most ${max}, got ${shown}`, params: { max, value } };
}

function checkPositiveAndMax(parts: DecimalParts, shown: string, value: string, maxCents: bigint): ParseAmountResult {
  const cents = partsToCents(parts);
  if (cents === 0n) return fail(`must be greater than 0, got ${shown}`, { reason: 'not_positive', value });
  if (cents > maxCents) return overMax(maxCents, shown, value);
  return { ok: true, value: amountFromCents(cents) };
}

function parseAmountString(text: string, maxCents: bigint): ParseAmountResult {
  const shown = quote(text);
  const value = JSON.parse(shown) as string;
  if (text === '') return fail('must not be empty', { reason: 'empty' });
  if (/\s/.test(text)) return fail(`must not contain whitespace, got ${shown}`, { reason: 'whitespace', value });
  if (/[eE]/.test(text)) return fail(`must not use exponent notation, got ${shown}`, { reason: 'exponent', value });
  if (text.startsWith('-')) return fail(`must be greater than 0, got ${shown}`, { reason: 'not_positive', value });
  const parts = splitDecimal(text);
  if (parts === undefined) {
    return fail(
      `must be a plain decimal like "1234.50" (digits, then optionally "." and 1 or 2 digits), got ${shown}`,
      { reason: 'format', value },
    );
  }
  const decimals = parts.fraction.length;
  if (decimals > 2) {
    return fail(`has ${decimals} decimals, at most 2 allowed, got ${shown}`, { reason: 'decimals', decimals, value });
  }
  return checkPositiveAndMax(parts, shown, value, maxCents);
}

function parseAmountNumber(value: number, maxCents: bigint): ParseAmountResult {
  if (!Number.isFinite(value)) {
    return fail(`must be a finite number, got ${value}`, { reason: 'not_finite', value: String(value) });
  }
  if (Object.is(value, -0)) return fail('must be greater than 0, got -0', { reason: 'not_positive', value: '-0' });
  if (value <= 0) return fail(`must be greater than 0, got ${value}`, { reason: 'not_positive', value: String(value) });
  // String(n) is the shortest decimal that reads back as the same double: the exact decimal the sender
  // wrote whenever they wrote at most 15 significant digits. No float arithmetic is involved.
  const text = String(value);
  if (text.includes('e')) {
    // Exponent form: below 1e-6 (more than 2 decimals) or at least 1e21 (beyond any maximum).
    return value < 1
      ? fail(`has more than 2 decimals, got ${text}`, { reason: 'decimals', value: text })
      : overMax(maxCents, text, text);
  }
  const parts = splitDecimal(text) as DecimalParts;
  const decimals = parts.fraction.length;
  if (decimals > 2) {
    return fail(`has ${decimals} decimals, at most 2 allowed, got ${text}`, {
      reason: 'decimals',
      decimals,
      value: text,
    });
  }
  // No precision check is needed after this one: a maximum is at most MAX_WIRE_AMOUNT, so an amount within it
  // with at most 2 decimals has at most EXACT_JSON_DIGITS digits and arrived exactly; a longer one (an 18-digit
  // integer, 123456789012345.6) is above the maximum, and its message names the maximum enforced.
  return checkPositiveAndMax(parts, text, text, maxCents);
}

/**
 * Reads an amount to send: a JSON number or a decimal string, greater than 0, at most 2 decimals, at most
 * `rules.max`. Throws a RangeError only when `rules.max` itself is invalid (a configuration error).
 */
export function parseAmount(input: unknown, rules?: AmountRules): ParseAmountResult {
  const maxCents = maxCentsOf(rules);
  if (typeof input === 'string') return parseAmountString(input, maxCents);
  if (typeof input === 'number') return parseAmountNumber(input, maxCents);
  const type = describeType(input);
  return fail(`must be a JSON number or a decimal string, got ${type}`, { reason: 'type', type });
}

/**
 * Reads an amount the bank sent: a finite JSON number or decimal string, ≥ 0, at most 2 decimals, at most
 * 15 significant digits. Undefined for anything else, so a strange answer never becomes a wrong amount.
 */
export function amountFromWire(value: unknown): DecimalAmount | undefined {
  let parts: DecimalParts | undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    parts = splitDecimal(String(Object.is(value, -0) ? 0 : value)); // undefined for negatives and exponent forms
    if (parts !== undefined && significantDigits(parts) > EXACT_JSON_DIGITS) return undefined;
  } else if (typeof value === 'string') {
    parts = splitDecimal(value);
  }
  if (parts === undefined || parts.fraction.length > 2) return undefined;
  return amountFromCents(partsToCents(parts));
}

/** The JSON number for the wire: the double closest to the decimal, which reads back as the same decimal. */
export function amountToWire(amount: DecimalAmount): number {
  return Number(amountToCanonical(amount));
}

export function amountToCents(amount: DecimalAmount): bigint {
  return BigInt(amountToCanonical(amount).replace('.', ''));
}

export function amountFromCents(cents: bigint): DecimalAmount {
  if (typeof cents !== 'bigint' || cents < 0n) {
    throw new RangeError(`amountFromCents: cents must be a bigint ≥ 0, got ${String(cents)}`);
  }
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}` as DecimalAmount;
}

/** True for a canonical amount string (`"0.00"` included: the bank may report zero). */
export function isDecimalAmount(value: unknown): value is DecimalAmount {
  return typeof value === 'string' && CANONICAL.test(value);
}

// Guards the conversions against a plain string cast to DecimalAmount.
function amountToCanonical(amount: DecimalAmount): DecimalAmount {
  if (!isDecimalAmount(amount)) {
    throw new RangeError(`not a canonical DecimalAmount: ${quote(String(amount))}`);
  }
  return amount;
}
