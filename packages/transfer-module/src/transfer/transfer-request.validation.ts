import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { type TransferInput, type TransferIntentRules, type Violation, validateTransferIntent } from '../domain';
import { TransferValidationError } from './transfer.errors';
import { TransferRequestDto } from './transfer-request.dto';

/**
 * The transfer input of a SPEC §2.1 request, or a TransferValidationError listing every violation. Both the
 * DTO (class-validator) and the domain rules run; a field the domain already refused is reported once, with
 * the domain's words.
 */
export function validateTransferRequest(input: unknown, rules: TransferIntentRules): TransferInput {
  const domain = validateTransferIntent(input, rules);
  const domainViolations = domain.ok ? [] : domain.violations;
  const reported = new Set(domainViolations.map((violation) => violation.field));
  const violations = [...domainViolations, ...dtoViolations(input).filter((v) => !reported.has(v.field))];
  if (!domain.ok || violations.length > 0) throw new TransferValidationError(violations);
  return domain.intent;
}

/** The DTO's violations; none for an input that is not an object (the domain names that problem). */
export function dtoViolations(input: unknown): Violation[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  const instance = input instanceof TransferRequestDto ? input : plainToInstance(TransferRequestDto, input);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return flatten(errors, '');
}

function flatten(errors: ValidationError[], parent: string): Violation[] {
  return errors.flatMap((error) => {
    const field = parent === '' ? error.property : `${parent}.${error.property}`;
    const own = Object.entries(error.constraints ?? {})
      // "nested property must be an object" repeats what the `type` rule already says.
      .filter(([rule]) => rule !== 'nestedValidation')
      .map(([rule, message]) =>
        rule === 'whitelistValidation'
          ? { field, rule: 'unknown_field', message: 'is not a known field' }
          : { field, rule, message },
      );
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
