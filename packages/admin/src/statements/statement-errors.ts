import { type ErrorCode, GiroError, type Violation } from '@giro/transfer-module';
import { HttpStatus } from '@nestjs/common';

type RefusalStatus = HttpStatus.BAD_REQUEST | HttpStatus.PAYLOAD_TOO_LARGE | HttpStatus.UNSUPPORTED_MEDIA_TYPE;

const CODE_OF: Record<RefusalStatus, ErrorCode> = {
  [HttpStatus.BAD_REQUEST]: 'VALIDATION_FAILED',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'PAYLOAD_TOO_LARGE',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * A statement refused as a whole (its type, encoding, header, or one line that cannot be read): the import's
 * transaction rolls back, nothing is stored. Answered with its one violation.
 */
export class StatementRefusedError extends GiroError {
  override readonly name = 'StatementRefusedError';
  override readonly violations: readonly Violation[];

  constructor(status: RefusalStatus, violation: Violation) {
    super(CODE_OF[status], `statement refused: ${violation.field} ${violation.message}`);
    this.violations = [violation];
  }
}

/** A 400 naming the field, the rule and its params. */
export function refuseStatement(field: string, rule: string, params: Record<string, unknown>, message: string) {
  return new StatementRefusedError(HttpStatus.BAD_REQUEST, { field, rule, params, message } as Violation);
}
