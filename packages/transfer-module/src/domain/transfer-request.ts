import { cbuCvuProblem } from './cbu-cvu';
import { CONCEPT_CODES, DEFAULT_CONCEPT } from './concept';
import { cuitProblem } from './cuit';
import { PESO_CURRENCY_ID } from './currency';
import { executeAtProblem, executeOnProblem } from './execution-schedule';
import { codePointLabel, hiddenCharacterProblem } from './hidden-characters';
import { parseAmount } from './money';
import { MAX_ORIGIN_ID, originIdProblem } from './origin-id';
import {
  checkedBy,
  type FieldRule,
  literal,
  type ObjectField,
  openApiSchemaOf,
  text,
  type ValueField,
} from './request-fields';
import { DEFAULT_MAX_DESCRIPTION_LENGTH, type TransferLimits } from './transfer-rules';
import type { Problem } from './violation';

// The transfer request (docs/bank-api.md#request-fields), field by field: the one description of it.
// validateTransferIntent reads requests with it (transfer-intent.ts), and the OpenAPI schema of
// `POST /admin/transfers` is derived from it (transferRequestOpenApiSchema). A field changes here, and only here.

// Control characters (line breaks, NUL, escape…) and unpaired UTF-16 surrogates, which no network encoding carries.
const FORBIDDEN_TEXT = /[\p{Cc}\p{Cs}]/u;

/** A JSON number or a decimal string, > 0, at most 2 decimals, at most the configured maximum (`max`). */
const amount: FieldRule<TransferLimits> = (value, limits) => {
  const parsed = parseAmount(value, { max: limits.maxAmount });
  return parsed.ok ? parsed : { ok: false, rule: parsed.rule, message: parsed.reason, params: parsed.params };
};

const descriptionText = text<TransferLimits>('characters', forbiddenTextProblem);

/**
 * Any text without control characters, unpaired surrogates, bidirectional controls, invisible characters, line
 * separators, private-use characters, noncharacters, stray variation selectors or floods of combining marks
 * (hiddenCharacterProblem), counted in Unicode characters.
 */
const description: FieldRule<TransferLimits> = (value, limits) => {
  const checked = descriptionText(value, limits);
  if (!checked.ok) return checked;
  const length = [...(value as string)].length;
  if (length > limits.maxDescriptionLength) {
    return {
      ok: false,
      rule: 'length',
      message: `must be at most ${limits.maxDescriptionLength} characters, got ${length}`,
      params: { max: limits.maxDescriptionLength, actual: length },
    };
  }
  return checked;
};

/**
 * Control characters and unpaired surrogates first (no network carries them), then bidirectional controls and
 * invisible characters (text the recipient reads must look like what it is).
 */
function forbiddenTextProblem(value: string): Problem | undefined {
  const forbidden = FORBIDDEN_TEXT.exec(value);
  if (!forbidden) return hiddenCharacterProblem(value);
  const codePoint = codePointLabel(forbidden[0].codePointAt(0) as number);
  const position = [...value.slice(0, forbidden.index)].length + 1;
  return {
    message: `must not contain control characters or unpaired surrogates, found ${codePoint} at position ${position}`,
    params: { reason: 'control_character', codePoint, position },
  };
}

/** A string among the configured codes (`allowed`): another type breaks the `type` rule, another string `rule`. */
function oneOf(rule: string, allowed: (limits: TransferLimits) => readonly string[]): FieldRule<TransferLimits> {
  return text(rule, (value, limits) => {
    const codes = allowed(limits);
    return codes.includes(value)
      ? undefined
      : {
          message: `must be one of ${codes.join(', ')}, got ${JSON.stringify(value)}`,
          params: { allowed: codes, value },
        };
  });
}

const PARTY: ObjectField<TransferLimits> = {
  kind: 'object',
  fields: {
    addressType: {
      kind: 'value',
      presence: 'required',
      schema: { type: 'string', enum: ['CBU_CVU'] },
      rule: literal('CBU_CVU', 'address_type'),
    },
    address: {
      kind: 'value',
      presence: 'required',
      schema: { type: 'string', pattern: '^[0-9]{22}$' },
      description: 'CBU or CVU (both check digits verified)',
      rule: text('cbu_cvu', cbuCvuProblem),
    },
    owner: {
      kind: 'object',
      fields: {
        personIdType: {
          kind: 'value',
          presence: 'required',
          schema: { type: 'string', enum: ['CUI'] },
          rule: literal('CUI', 'person_id_type'),
        },
        personId: {
          kind: 'value',
          presence: 'required',
          schema: { type: 'string', pattern: '^[0-9]{11}$' },
          description: 'CUIT or CUIL (check digit verified)',
          rule: text('cuit', cuitProblem),
        },
      },
    },
  },
};

const ORIGIN_ID: ValueField<TransferLimits> = {
  kind: 'value',
  presence: 'optional',
  schema: { type: 'integer', minimum: 1, maximum: MAX_ORIGIN_ID },
  description: 'your idempotency key; allocated when absent',
  rule: checkedBy('origin_id', originIdProblem),
};

/**
 * The request as `POST /admin/transfers` and `TransferService.requestTransfer` take it: `originId` optional,
 * `body.amount` a JSON number or a decimal string, `body.concept` default VAR; no other field anywhere.
 */
export const TRANSFER_REQUEST: ObjectField<TransferLimits> = {
  kind: 'object',
  fields: {
    originId: ORIGIN_ID,
    executeOn: {
      kind: 'value',
      presence: 'optional',
      schema: { type: 'string', format: 'date' },
      description: 'send on this day (Buenos Aires), at the release time, moved off weekends and holidays',
      example: '2026-12-28',
      rule: text('execute_on', (value) => executeOnProblem(value)),
    },
    executeAt: {
      kind: 'value',
      presence: 'optional',
      schema: { type: 'string', format: 'date-time' },
      description: 'send at this moment (ISO 8601 with its offset); not with executeOn',
      example: '2026-12-28T09:00:00-03:00',
      rule: text('execute_at', (value) => executeAtProblem(value)),
    },
    from: PARTY,
    to: PARTY,
    body: {
      kind: 'object',
      fields: {
        currencyId: {
          kind: 'value',
          presence: 'required',
          schema: { type: 'string', enum: [PESO_CURRENCY_ID] },
          rule: oneOf('currency', (limits) => limits.currencies),
        },
        amount: {
          kind: 'value',
          presence: 'required',
          schema: { oneOf: [{ type: 'number' }, { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$' }] },
          description: '> 0, at most 2 decimals; a JSON number or a decimal string',
          example: '1234.50',
          rule: amount,
        },
        description: {
          kind: 'value',
          presence: 'required',
          schema: { type: 'string', maxLength: DEFAULT_MAX_DESCRIPTION_LENGTH },
          rule: description,
        },
        concept: {
          kind: 'value',
          presence: { default: DEFAULT_CONCEPT },
          schema: { type: 'string', enum: [...CONCEPT_CODES] },
          rule: oneOf('concept', (limits) => limits.concepts),
        },
      },
    },
  },
  // Accounts and CUITs with valid check digits (the reconciler's demo payer and first payee).
  example: {
    from: {
      addressType: 'CBU_CVU',
      address: '0000003110000000000175',
      owner: { personIdType: 'CUI', personId: '30712345671' },
    },
    to: {
      addressType: 'CBU_CVU',
      address: '2850590994009004181356',
      owner: { personIdType: 'CUI', personId: '20123456786' },
    },
    body: { currencyId: PESO_CURRENCY_ID, amount: '1234.50', description: 'rent May', concept: 'ALQ' },
  },
};

/**
 * The OpenAPI Schema Object of the request (for `@ApiBody({ schema })`), derived from TRANSFER_REQUEST: the
 * fields, their types, which are required, the examples. It is static (a decorator reads it before any module
 * options exist), so it documents the default rules — `maxLength` 100, the currency `032`, CONCEPT_CODES; the
 * module's `transferRules` may set others. A new object on every call.
 */
export function transferRequestOpenApiSchema(): Record<string, unknown> {
  return openApiSchemaOf(TRANSFER_REQUEST);
}
