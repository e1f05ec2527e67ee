import type { Violation } from '@giro/transfer-module';
import { BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/**
 * The body of every 400 of the admin API — the pipe's (query and path parameters) and TransferValidationError's
 * (the transfer request, the list cursor): `violations` as the domain's Violation, `message` repeating them in
 * one line for people reading logs. An unknown field is answered "is not a known field", as the admin API always
 * has: the fields it accepts are in its OpenAPI document (the domain's message lists them too, for callers of
 * TransferService that have none).
 */
export function badRequestBody(violations: readonly Violation[]) {
  const answered = violations.map((violation) =>
    violation.rule === 'unknown_field' ? { ...violation, message: 'is not a known field' } : violation,
  );
  return {
    statusCode: 400,
    error: 'Bad Request',
    message: answered
      .map((violation) => `${violation.field === '' ? '(request)' : violation.field} ${violation.message}`)
      .join('; '),
    violations: answered,
  };
}

export function badRequest(violations: readonly Violation[]): BadRequestException {
  return new BadRequestException(badRequestBody(violations));
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
        message: withoutLeadingName(message, error.property),
      }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
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
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => badRequest(flattenValidationErrors(errors)),
  });
}
