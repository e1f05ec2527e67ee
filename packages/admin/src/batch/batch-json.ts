import { HttpStatus } from '@nestjs/common';
import { type JsonAmbiguity, jsonField } from '../shared/http/strict-json';
import { type BatchInput, MAX_BATCH_ROWS } from './batch-entries';
import { BatchRefusedError } from './batch-errors';

/**
 * The rows of a JSON batch: an array of transfer requests, each as `POST /admin/transfers` takes it; row n is the
 * element at index n − 1, and violations name the request's fields as the single route does (`body.amount`). A
 * row with a key given twice or an inexact number (`ambiguities`, as readJsonText found them) is unreadable, its violations naming them.
 */
export function readBatchJson(value: unknown, ambiguities: readonly JsonAmbiguity[] = []): BatchInput {
  if (!Array.isArray(value)) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'array',
      params: {},
      message: 'must be a JSON array of transfer requests (or a CSV file, sent as text/csv)',
    });
  }
  if (value.length === 0) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no transfer request',
    });
  }
  if (value.length > MAX_BATCH_ROWS) {
    throw new BatchRefusedError(HttpStatus.PAYLOAD_TOO_LARGE, {
      field: 'body',
      rule: 'rows',
      params: { max: MAX_BATCH_ROWS, actual: value.length },
      message: `must have at most ${MAX_BATCH_ROWS} transfer requests, has ${value.length}`,
    });
  }
  return {
    entries: value.map((request, index) => {
      // A request that says something twice, or a number giro would read as another, is not read (readJsonText).
      const unreadable = ambiguities
        .filter(({ path }) => path[0] === index)
        .map(({ path, ...violation }) => ({ field: jsonField(path.slice(1)), ...violation }));
      return unreadable.length > 0 ? { row: index + 1, unreadable } : { row: index + 1, request };
    }),
    fieldName: (path) => path,
  };
}
