import { STATUS_CODES } from 'node:http';
import type { Violation } from '@giro/transfer-module';
import { HttpException, HttpStatus } from '@nestjs/common';
import { badRequestBody } from '../shared/http/admin-validation.pipe';

/**
 * A batch refused as a whole, before any of its rows was looked at (its body, its CSV header, its size): nothing
 * changed. The admin API's 400 shape, with the status that says why (413 too large, 415 neither CSV nor JSON).
 */
export function batchRefused(
  status: HttpStatus.BAD_REQUEST | HttpStatus.PAYLOAD_TOO_LARGE | HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  violation: Violation,
): HttpException {
  return new HttpException({ ...badRequestBody([violation]), statusCode: status, error: STATUS_CODES[status] }, status);
}
