import { describeType } from './digits';
import type { Problem, Violation, ViolationParams } from './violation';

// A JSON request described field by field — its objects and their fields, which fields may be absent, what
// OpenAPI says of each value, and the domain rule each value must pass — read by `readRequest` and documented
// by `openApiSchemaOf`. The transfer request's description is TRANSFER_REQUEST (transfer-request.ts).

/** What a rule makes of a present value: the value to keep, or the rule it breaks and why. */
export type Checked<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; rule: string; message: string; params: ViolationParams };

/** The domain rule of one field; `limits` are the configured rules (the maximum amount…). */
export type FieldRule<Limits, T = unknown> = (value: unknown, limits: Limits) => Checked<T>;

/** OpenAPI Schema Object keywords of a value (`type`, `enum`, `pattern`, `minimum`, `oneOf`…). */
export type SchemaKeywords = Readonly<Record<string, unknown>>;

export interface ValueField<Limits> {
  kind: 'value';
  /**
   * `required`: absent is refused; `optional`: may be absent (and stays absent); `{ default }`: absent means
   * the default. OpenAPI lists every field but the optional ones as required: a field with a default is one a
   * client sends, and its default is documented beside it.
   */
  presence: 'required' | 'optional' | { default: string };
  schema: SchemaKeywords;
  description?: string;
  example?: unknown;
  rule: FieldRule<Limits>;
}

/** A JSON object: always required, no other keys allowed. */
export interface ObjectField<Limits> {
  kind: 'object';
  fields: Readonly<Record<string, Field<Limits>>>;
  example?: unknown;
}

export type Field<Limits> = ValueField<Limits> | ObjectField<Limits>;

export type Fields = Record<string, unknown>;

export type ReadResult = { ok: true; value: Fields } | { ok: false; violations: Violation[] };

const accepted = <T>(value: T): Checked<T> => ({ ok: true, value });

/** A value that breaks `rule` when `problemOf` finds something wrong with it. */
export function checkedBy<Limits>(
  rule: string,
  problemOf: (value: unknown, limits: Limits) => Problem | undefined,
): FieldRule<Limits> {
  return (value, limits) => {
    const problem = problemOf(value, limits);
    return problem === undefined ? accepted(value) : { ok: false, rule, ...problem };
  };
}

/** A string: another type breaks the `type` rule; a string then breaks `rule` when `problemOf` says why. */
export function text<Limits>(
  rule: string,
  problemOf: (value: string, limits: Limits) => Problem | undefined,
): FieldRule<Limits> {
  return (value, limits) => {
    if (typeof value !== 'string') return { ok: false, rule: 'type', ...typeProblem('string', value) };
    const problem = problemOf(value, limits);
    return problem === undefined ? accepted(value) : { ok: false, rule, ...problem };
  };
}

/** `value` is not of the `expected` JSON type (`string`, `object`…): the `type` rule's message and params. */
export function typeProblem(expected: string, value: unknown): Problem {
  const actual = describeType(value);
  return {
    message: `must be ${expected === 'object' ? 'an' : 'a'} ${expected}, got ${actual}`,
    params: { expected, actual },
  };
}

/** Exactly `expected`, a string (else the `type` rule, then `rule`). */
export function literal<Limits>(expected: string, rule: string): FieldRule<Limits> {
  return text(rule, (value) =>
    value === expected
      ? undefined
      : { message: `must be ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`, params: { expected, value } },
  );
}

/**
 * Reads `input` as `description` says, collecting every violation in the description's order (an object's
 * unknown keys first, then its fields; nothing inside an object that is missing or not an object). Absent is
 * `undefined`; null is a wrong type. The value read has the described keys only, in the described order.
 */
export function readRequest<Limits>(description: ObjectField<Limits>, input: unknown, limits: Limits): ReadResult {
  const violations: Violation[] = [];
  const value = readObject(description, input, '', limits, violations);
  return value !== undefined && violations.length === 0 ? { ok: true, value } : { ok: false, violations };
}

function readObject<Limits>(
  description: ObjectField<Limits>,
  input: unknown,
  field: string,
  limits: Limits,
  violations: Violation[],
): Fields | undefined {
  if (input === undefined) {
    violations.push({ field, rule: 'required', params: {}, message: 'is required' });
    return undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    violations.push({ field, rule: 'type', ...typeProblem('object', input) });
    return undefined;
  }
  const known = Object.keys(description.fields);
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      const message = `is not a known field (allowed here: ${known.join(', ')})`;
      violations.push({ field: join(field, key), rule: 'unknown_field', params: { allowed: known }, message });
    }
  }
  const value: Fields = {};
  let complete = true;
  for (const name of known) {
    const child = description.fields[name];
    const given = (input as Fields)[name];
    if (child.kind === 'object') {
      const read = readObject(child, given, join(field, name), limits, violations);
      if (read === undefined) complete = false;
      else value[name] = read;
    } else if (given === undefined) {
      if (child.presence === 'required') {
        violations.push({ field: join(field, name), rule: 'required', params: {}, message: 'is required' });
        complete = false;
      } else if (child.presence !== 'optional') {
        value[name] = child.presence.default;
      }
    } else {
      const checked = child.rule(given, limits);
      if (checked.ok) value[name] = checked.value;
      else {
        violations.push({
          field: join(field, name),
          rule: checked.rule,
          params: checked.params,
          message: checked.message,
        });
        complete = false;
      }
    }
  }
  return complete ? value : undefined;
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** The OpenAPI Schema Object of a described request: a new object on every call. */
export function openApiSchemaOf<Limits>(description: Field<Limits>): Record<string, unknown> {
  if (description.kind === 'value') {
    return {
      ...structuredClone(description.schema),
      ...(description.description !== undefined && { description: description.description }),
      ...(description.example !== undefined && { example: structuredClone(description.example) }),
      ...(typeof description.presence === 'object' && { default: description.presence.default }),
    };
  }
  const entries = Object.entries(description.fields);
  return {
    type: 'object',
    required: entries
      .filter(([, field]) => field.kind === 'object' || field.presence !== 'optional')
      .map(([name]) => name),
    additionalProperties: false,
    properties: Object.fromEntries(entries.map(([name, field]) => [name, openApiSchemaOf(field)])),
    ...(description.example !== undefined && { example: structuredClone(description.example) }),
  };
}
