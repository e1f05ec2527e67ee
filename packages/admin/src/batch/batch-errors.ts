import { type ErrorCode, GiroError, type Violation } from '@giro/transfer-module';
import { HttpStatus } from '@nestjs/common';

type RefusalStatus = HttpStatus.BAD_REQUEST | HttpStatus.PAYLOAD_TOO_LARGE | HttpStatus.UNSUPPORTED_MEDIA_TYPE;

const CODE_OF: Record<RefusalStatus, ErrorCode> = {
  [HttpStatus.BAD_REQUEST]: 'VALIDATION_FAILED',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'PAYLOAD_TOO_LARGE',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * A batch refused as a whole, before any of its rows was looked at (its body, its CSV header, its size): nothing
 * changed. Answered with its one violation and the status that says why (413 too large, 415 neither CSV nor JSON).
 */
export class BatchRefusedError extends GiroError {
  override readonly name = 'BatchRefusedError';
  override readonly violations: readonly Violation[];

  constructor(status: RefusalStatus, violation: Violation) {
    super(CODE_OF[status], `batch refused: ${violation.field} ${violation.message}`);
    this.violations = [violation];
  }
}
