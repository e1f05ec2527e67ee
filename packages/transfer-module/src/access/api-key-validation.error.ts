import { GiroError, type Violation } from '../domain';

/** `{ name, role }` refused: `violations` names each bad field and its rule. Nothing was stored. */
export class ApiKeyValidationError extends GiroError {
  override readonly name = 'ApiKeyValidationError';

  constructor(override readonly violations: Violation[]) {
    super(
      'VALIDATION_FAILED',
      `invalid API key request: ${violations
        .map((v) => `${v.field === '' ? '(request)' : v.field} ${v.message} [${v.rule}]`)
        .join('; ')}`,
    );
  }
}
