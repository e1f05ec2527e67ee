import { BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/** One problem with a request, as every 400 of the admin API lists them (the domain's `Violation` shape). */
export interface FieldViolation {
  field: string;
  rule: string;
  message: string;
}

/** The body of every 400: `message` repeats the problems in one line for people reading logs. */
export function badRequest(violations: FieldViolation[]): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: violations.map((violation) => `${violation.field} ${violation.message}`).join('; '),
    violations,
  });
}

/** class-validator's nested errors as flat violations named by their dotted path (`body.amount`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldViolation[] {
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
  if (message === `property ${property} should not exist`) return 'is not a known field';
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
