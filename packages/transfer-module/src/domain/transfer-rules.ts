import { CONCEPT_CODES, DEFAULT_CONCEPT } from './concept';
import { PESO_CURRENCY_ID } from './currency';
import { describeType } from './digits';

// The limits of a transfer request that the bank leaves open (docs/bank-api.md#open-points): the module's
// `transferRules`, and the reconciler's TRANSFER_* variables. The request is read with them (transfer-request.ts).

export interface TransferIntentRules {
  /** Largest amount accepted (a decimal string; default DEFAULT_MAX_AMOUNT). */
  maxAmount?: string;
  /** Longest description, in Unicode characters (default DEFAULT_MAX_DESCRIPTION_LENGTH). */
  maxDescriptionLength?: number;
  /** The accepted `body.currencyId` values, ISO 4217 numeric codes (default `['032']`, the peso). */
  currencies?: readonly string[];
  /** The accepted `body.concept` codes (default CONCEPT_CODES); must include VAR, the concept of a request without one. */
  concepts?: readonly string[];
}

/**
 * The description travels over the network and the recipient may see it; the spec gives no limit, so a
 * conservative one that fits the messages of Argentine transfer networks.
 */
export const DEFAULT_MAX_DESCRIPTION_LENGTH = 100;

/** The rules a request is read with, the defaults applied. */
export interface TransferLimits {
  maxAmount?: string;
  maxDescriptionLength: number;
  currencies: readonly string[];
  concepts: readonly string[];
}

const CURRENCY_CODE = /^[0-9]{3}$/;
const CONCEPT_CODE = /^[A-Z0-9]{1,16}$/;

/**
 * The rules with their defaults. Throws a RangeError naming the rule (`transfer rule "currencies" must …`) when
 * one is invalid: a configuration error. `maxAmount` is checked where amounts are read (money.ts).
 */
export function transferLimitsOf(rules: TransferIntentRules | undefined): TransferLimits {
  const max = rules?.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH;
  if (!Number.isSafeInteger(max) || max < 1)
    invalid('maxDescriptionLength', `must be a positive integer, got ${String(max)}`);
  return {
    maxAmount: rules?.maxAmount,
    maxDescriptionLength: max,
    currencies: codeList(
      'currencies',
      rules?.currencies,
      [PESO_CURRENCY_ID],
      CURRENCY_CODE,
      'an ISO 4217 numeric code of 3 digits, e.g. "032"',
    ),
    concepts: conceptList(rules?.concepts),
  };
}

function conceptList(value: readonly string[] | undefined): readonly string[] {
  const concepts = codeList(
    'concepts',
    value,
    CONCEPT_CODES,
    CONCEPT_CODE,
    '1 to 16 characters A-Z or 0-9, e.g. "ALQ"',
  );
  if (!concepts.includes(DEFAULT_CONCEPT))
    invalid('concepts', `must include ${DEFAULT_CONCEPT}, the concept of a request that names none`);
  return concepts;
}

function codeList(
  rule: 'currencies' | 'concepts',
  value: unknown,
  fallback: readonly string[],
  format: RegExp,
  formatText: string,
): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0)
    invalid(
      rule,
      `must be a non-empty list of codes, got ${Array.isArray(value) ? 'an empty list' : describeType(value)}`,
    );
  value.forEach((code: unknown, index) => {
    if (typeof code !== 'string' || !format.test(code))
      invalid(rule, `item ${index + 1} must be ${formatText}, got ${JSON.stringify(code) ?? describeType(code)}`);
    if (value.indexOf(code) !== index) invalid(rule, `lists ${code} twice`);
  });
  return [...value];
}

function invalid(rule: keyof TransferIntentRules, message: string): never {
  throw new RangeError(`transfer rule "${rule}" ${message}`);
}
