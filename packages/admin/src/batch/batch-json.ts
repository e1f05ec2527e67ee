import { HttpStatus } from '@nestjs/common';
import { type BatchInput, MAX_BATCH_ROWS } from './batch-entries';
import { batchRefused } from './batch-errors';

/**
 * The rows of a JSON batch: an array of transfer requests, each as `POST /admin/transfers` takes it; row n is the
 * element at index n − 1, and violations name the request's fields as the single route does (`body.amount`).
 */
export function readBatchJson(value: unknown): BatchInput {
  if (!Array.isArray(value)) {
    throw batchRefused(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'array',
      message: 'must be a JSON array of transfer requests (or a CSV file, sent as text/csv)',
    });
  }
  if (value.length === 0) {
    throw batchRefused(HttpStatus.BAD_REQUEST, { field: 'body', rule: 'empty', message: 'has no transfer request' });
  }
  if (value.length > MAX_BATCH_ROWS) {
    throw batchRefused(HttpStatus.PAYLOAD_TOO_LARGE, {
      field: 'body',
      rule: 'rows',
      message: `must have at most ${MAX_BATCH_ROWS} transfer requests, has ${value.length}`,
    });
  }
  return { entries: value.map((request, index) => ({ row: index + 1, request })), fieldName: (path) => path };
}
