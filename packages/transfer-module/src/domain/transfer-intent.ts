import { hash } from 'node:crypto';
import { explainCbuCvu } from './cbu-cvu';
import { CONCEPT_CODES, type ConceptCode, DEFAULT_CONCEPT, isConceptCode } from './concept';
import { explainCuit } from './cuit';
import { type CurrencyId, PESO_CURRENCY_ID } from './currency';
import { describeType } from './digits';
import { amountToWire, type DecimalAmount, parseAmount } from './money';
import { explainOriginId, isValidOriginId } from './origin-id';
import type { Violation } from './violation';

// A transfer intent is the validated SPEC §2.1 request. Validation reads the request shape (`body.amount`…)
// and names fields by their path in it; the validated intent keeps the payment data flat.

export interface TransferParty {
  addressType: 'CBU_CVU';
  /** A valid CBU or CVU. */
  address: string;
  owner: {
    personIdType: 'CUI';
    /** A valid CUIT or CUIL. */
    personId: string;
  };
}

/** A validated request whose originId may still be missing (the service then allocates one). */
export interface TransferInput {
  originId?: number;
  from: TransferParty;
  to: TransferParty;
  currencyId: CurrencyId;
  amount: DecimalAmount;
  description: string;
  concept: ConceptCode;
}

/** A validated request with its originId: what is stored before anything goes to the bank. */
export type TransferIntent = TransferInput & { originId: number };

/** The SPEC §2.1 request body as sent to the bank (amount a JSON number). */
export interface TransferRequestWire {
  originId: number;
  from: TransferParty;
  to: TransferParty;
  body: {
    currencyId: CurrencyId;
    amount: number;
    description: string;
    concept: ConceptCode;
  };
}

export interface TransferIntentRules {
  /** Largest amount accepted (a decimal string; default DEFAULT_MAX_AMOUNT). */
  maxAmount?: string;
  /** Longest description, in Unicode characters (default DEFAULT_MAX_DESCRIPTION_LENGTH). */
  maxDescriptionLength?: number;
}

/**
 * The description travels over the network and the recipient may see it; the spec gives no limit, so a
 * conservative one that fits the messages of Argentine transfer networks.
 */
export const DEFAULT_MAX_DESCRIPTION_LENGTH = 100;

export type ValidateTransferResult = { ok: true; intent: TransferInput } | { ok: false; violations: Violation[] };

const ADDRESS_TYPE = 'CBU_CVU';
const PERSON_ID_TYPE = 'CUI';
const REQUEST_FIELDS = ['originId', 'from', 'to', 'body'];
const PARTY_FIELDS = ['addressType', 'address', 'owner'];
const OWNER_FIELDS = ['personIdType', 'personId'];
const BODY_FIELDS = ['currencyId', 'amount', 'description', 'concept'];
// Control characters (line breaks, NUL, escape…) and unpaired UTF-16 surrogates, which no network encoding carries.
const FORBIDDEN_TEXT = /[\p{Cc}\p{Cs}]/u;

type Fields = Record<string, unknown>;

/** Collects violations while walking the input; an absent field is `undefined` (null is a wrong type). */
class ViolationCollector {
  readonly violations: Violation[] = [];

  add(field: string, rule: string, message: string): void {
    this.violations.push({ field, rule, message });
  }

  /** The object at `field` (undefined after recording why not), with unknown keys recorded. */
  object(value: unknown, field: string, known: readonly string[]): Fields | undefined {
    if (value === undefined) {
      this.add(field, 'required', 'is required');
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.add(field, 'type', `must be an object, got ${describeType(value)}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) {
        this.add(join(field, key), 'unknown_field', `is not a known field (allowed here: ${known.join(', ')})`);
      }
    }
    return value as Fields;
  }

  /** The string at `field`, or undefined after recording why not. */
  string(value: unknown, field: string): string | undefined {
    if (value === undefined) {
      this.add(field, 'required', 'is required');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(field, 'type', `must be a string, got ${describeType(value)}`);
      return undefined;
    }
    return value;
  }

  /** The string at `field` if it equals `expected`. */
  literal<T extends string>(value: unknown, field: string, expected: T, rule: string): T | undefined {
    const text = this.string(value, field);
    if (text === undefined) return undefined;
    if (text !== expected) {
      this.add(field, rule, `must be ${JSON.stringify(expected)}, got ${JSON.stringify(text)}`);
      return undefined;
    }
    return expected;
  }

  /** The string at `field` if `explain` finds nothing wrong with it. */
  checked(value: unknown, field: string, rule: string, explain: (text: string) => string | undefined) {
    const text = this.string(value, field);
    if (text === undefined) return undefined;
    const problem = explain(text);
    if (problem !== undefined) {
      this.add(field, rule, problem);
      return undefined;
    }
    return text;
  }
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function readParty(value: unknown, field: string, c: ViolationCollector): TransferParty | undefined {
  const party = c.object(value, field, PARTY_FIELDS);
  if (party === undefined) return undefined;
  const addressType = c.literal(party.addressType, `${field}.addressType`, ADDRESS_TYPE, 'address_type');
  const address = c.checked(party.address, `${field}.address`, 'cbu_cvu', explainCbuCvu);
  const owner = c.object(party.owner, `${field}.owner`, OWNER_FIELDS);
  const personIdType =
    owner && c.literal(owner.personIdType, `${field}.owner.personIdType`, PERSON_ID_TYPE, 'person_id_type');
  const personId = owner && c.checked(owner.personId, `${field}.owner.personId`, 'cuit', explainCuit);
  if (!addressType || !address || !personIdType || !personId) return undefined;
  return { addressType, address, owner: { personIdType, personId } };
}

function readDescription(value: unknown, maxLength: number, c: ViolationCollector): string | undefined {
  const field = 'body.description';
  const text = c.string(value, field);
  if (text === undefined) return undefined;
  const forbidden = FORBIDDEN_TEXT.exec(text);
  if (forbidden) {
    const codePoint = (forbidden[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
    const position = [...text.slice(0, forbidden.index)].length + 1;
    c.add(
      field,
      'characters',
      `must not contain control characters or unpaired surrogates, found U+${codePoint} at position ${position}`,
    );
    return undefined;
  }
  const length = [...text].length;
  if (length > maxLength) {
    c.add(field, 'length', `must be at most ${maxLength} characters, got ${length}`);
    return undefined;
  }
  return text;
}

function maxDescriptionLengthOf(rules: TransferIntentRules | undefined): number {
  const max = rules?.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`transfer rule "maxDescriptionLength" must be a positive integer, got ${String(max)}`);
  }
  return max;
}

/**
 * Validates a SPEC §2.1 request (`originId` optional, `body.amount` a JSON number or a decimal string,
 * `body.concept` optional, default VAR). Collects every violation, unknown fields included. Throws a
 * RangeError only for invalid `rules` (a configuration error).
 */
export function validateTransferIntent(input: unknown, rules?: TransferIntentRules): ValidateTransferResult {
  const maxDescriptionLength = maxDescriptionLengthOf(rules);
  const c = new ViolationCollector();
  const request = c.object(input, '', REQUEST_FIELDS);
  if (request === undefined) return { ok: false, violations: c.violations };

  const originId = request.originId;
  if (originId !== undefined && !isValidOriginId(originId)) {
    c.add('originId', 'origin_id', explainOriginId(originId) as string);
  }
  const from = readParty(request.from, 'from', c);
  const to = readParty(request.to, 'to', c);

  const body = c.object(request.body, 'body', BODY_FIELDS);
  const currencyId = body && c.literal(body.currencyId, 'body.currencyId', PESO_CURRENCY_ID, 'currency');
  let amount: DecimalAmount | undefined;
  if (body !== undefined) {
    if (body.amount === undefined) {
      c.add('body.amount', 'required', 'is required');
    } else {
      const parsed = parseAmount(body.amount, { max: rules?.maxAmount });
      if (parsed.ok) amount = parsed.value;
      else c.add('body.amount', parsed.rule, parsed.reason);
    }
  }
  const description = body && readDescription(body.description, maxDescriptionLength, c);
  let concept: ConceptCode | undefined = DEFAULT_CONCEPT;
  if (body?.concept !== undefined) {
    concept = isConceptCode(body.concept) ? body.concept : undefined;
    if (concept === undefined) {
      c.add(
        'body.concept',
        'concept',
        `must be one of ${CONCEPT_CODES.join(', ')}, got ${JSON.stringify(body.concept)}`,
      );
    }
  }

  if (c.violations.length > 0 || !from || !to || !currencyId || !amount || description === undefined || !concept) {
    return { ok: false, violations: c.violations };
  }
  const intent: TransferInput = { from, to, currencyId, amount, description, concept };
  if (originId !== undefined) intent.originId = originId as number;
  return { ok: true, intent };
}

/** The SPEC §2.1 body for the bank. Throws if the intent has no valid originId: nothing goes out without one. */
export function intentToWire(intent: TransferIntent): TransferRequestWire {
  if (!isValidOriginId(intent.originId)) {
    throw new RangeError(`intentToWire: originId ${explainOriginId(intent.originId)}`);
  }
  return {
    originId: intent.originId,
    from: copyParty(intent.from),
    to: copyParty(intent.to),
    body: {
      currencyId: intent.currencyId,
      amount: amountToWire(intent.amount),
      description: intent.description,
      concept: intent.concept,
    },
  };
}

/**
 * SHA-256 (hex) of the payload without the originId, so "same originId, same payload?" can be answered
 * later. The canonical form is JSON with keys in alphabetical order at every level and the amount as its
 * canonical decimal string; it is stored, so changing it would change every stored fingerprint.
 */
export function intentFingerprint(intent: TransferInput): string {
  const party = (p: TransferParty) => ({
    address: p.address,
    addressType: p.addressType,
    owner: { personId: p.owner.personId, personIdType: p.owner.personIdType },
  });
  const canonical = JSON.stringify({
    amount: intent.amount,
    concept: intent.concept,
    currencyId: intent.currencyId,
    description: intent.description,
    from: party(intent.from),
    to: party(intent.to),
  });
  // One-shot hash (strings are hashed as UTF-8): no Hash object to create per intent.
  return hash('sha256', canonical, 'hex');
}

function copyParty(party: TransferParty): TransferParty {
  return {
    addressType: party.addressType,
    address: party.address,
    owner: { personIdType: party.owner.personIdType, personId: party.owner.personId },
  };
}
