import type { Violation, ViolationParams } from '@giro/transfer-module';
import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { violationsBody } from './error-body';

/**
 * A 400 of the admin API — the pipe's (query and path parameters): `violations` as the domain's Violation, in the
 * admin API's error body (VALIDATION_FAILED).
 */
export function badRequest(violations: readonly Violation[]): BadRequestException {
  return new BadRequestException(violationsBody(400, 'VALIDATION_FAILED', violations));
}

/** class-validator's nested errors as flat violations named by their dotted path (`body.amount`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): Violation[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {})
      // "nested property … must be either object or array" repeats what the field's type rule says.
      .filter(([rule]) => rule !== 'nestedValidation')
      .map(([rule, message]) => ({
        field,
        rule: rule === 'whitelistValidation' ? 'unknown_field' : rule,
        params: paramsOf(error, rule),
        message: withoutLeadingName(message, error.property),
      }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/** The params of class-validator's rules that take a value, by the name docs/errors.md gives them. */
const PARAM_NAMES: Readonly<Record<string, string[]>> = {
  min: ['min'],
  max: ['max'],
  minLength: ['min'],
  maxLength: ['max'],
  isLength: ['min', 'max'],
  isIn: ['allowed'],
};

/**
 * The values a class-validator rule names (`@Max(500)`: `{ max: 500 }`), read from the rule's declaration on the
 * parameters' class; none for a rule that takes none, or whose message it computes itself.
 */
function paramsOf(error: ValidationError, rule: string): ViolationParams {
  const names = PARAM_NAMES[rule];
  if (names === undefined || typeof error.target !== 'object' || error.target === null) return {};
  const declared = getMetadataStorage()
    .getTargetValidationMetadatas(error.target.constructor, '', true, false)
    .find((metadata) => metadata.propertyName === error.property && metadata.name === rule);
  if (declared === undefined) return {};
  return Object.fromEntries(names.map((name, index) => [name, declared.constraints[index]]));
}

/** "amount must be a number" → "must be a number": the field is named by its full path instead. */
function withoutLeadingName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/**
 * The admin API's pipe: unknown fields are refused (whitelist + forbidNonWhitelisted), values are converted
 * to their declared types, and a 400 lists every problem with the field it concerns.
 */
export function adminValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // One message per field: the first rule it breaks.
    stopAtFirstError: true,
    // The target (the parameters' object) names its class, whose rules give the violations' params.
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => badRequest(flattenValidationErrors(errors)),
  });
}
