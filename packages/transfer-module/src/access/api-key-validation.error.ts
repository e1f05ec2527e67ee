import type { Violation } from '../domain';

/** `{ name, role }` refused: `violations` names each bad field and its rule. Nothing was stored. */
export class ApiKeyValidationError extends Error {
  override readonly name = 'ApiKeyValidationError';

  constructor(readonly violations: Violation[]) {
    super(
      `invalid API key request: ${violations
        .map((v) => `${v.field === '' ? '(request)' : v.field} ${v.message} [${v.rule}]`)
        .join('; ')}`,
    );
  }
}
