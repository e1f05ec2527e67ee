import type { Violation } from '@giro/transfer-module';

/** Most rows one batch may hold: a batch runs row by row within one request. */
export const MAX_BATCH_ROWS = 1000;

/**
 * One row of a batch: where it is (`row`: the CSV line it starts on, the header being line 1; the sheet's row
 * number; or the JSON array's index + 1) and the transfer request it asks for, with what reading its cells found
 * wrong (`violations`, by the request's field: the request's own rules are not asked about those fields), or why
 * no request could be read from it.
 */
export type BatchEntry = { row: number } & (
  | { request: unknown; violations?: Violation[] }
  | { unreadable: Violation[] }
);

/** A batch's rows, and how its violations name a field: by the CSV column, or by the request's path for JSON. */
export interface BatchInput {
  entries: BatchEntry[];
  fieldName(requestPath: string): string;
}
