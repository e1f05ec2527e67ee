import { ValidateBy } from 'class-validator';
import { describeType } from '../domain/digits';

/** Says why a value breaks a rule, or undefined when it does not. */
export type Explain = (value: unknown) => string | undefined;

/**
 * A class-validator decorator for one domain rule: its constraint is named after the rule (`cbu_cvu`,
 * `required`…) and its message is the domain's explanation, so the DTO and `validateTransferIntent` speak
 * the same language.
 */
export function DomainRule(rule: string, explain: Explain): PropertyDecorator {
  return ValidateBy({
    name: rule,
    validator: {
      validate: (value: unknown) => explain(value) === undefined,
      defaultMessage: (args) => explain(args?.value) ?? `breaks the rule ${rule}`,
    },
  });
}

// Each explanation below lets an absent value through, except `required`: a missing field is reported once,
// as missing, and a wrong type once, as a wrong type.

export const required: Explain = (value) => (value === undefined ? 'is required' : undefined);

export const text: Explain = (value) =>
  value === undefined || typeof value === 'string' ? undefined : `must be a string, got ${describeType(value)}`;

export const object: Explain = (value) =>
  value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))
    ? undefined
    : `must be an object, got ${describeType(value)}`;

/** `explain` applied to strings only (other values are the `text` rule's business). */
export const onText =
  (explain: (value: string) => string | undefined): Explain =>
  (value) =>
    typeof value === 'string' ? explain(value) : undefined;

/** `explain` applied to present values only. */
export const whenPresent =
  (explain: (value: unknown) => string | undefined): Explain =>
  (value) =>
    value === undefined ? undefined : explain(value);

export const literal = (expected: string): Explain =>
  onText((value) =>
    value === expected ? undefined : `must be ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`,
  );
