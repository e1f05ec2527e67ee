import type { Violation } from '../domain';
import { StoreArgumentError } from '../persistence';
import { TransferValidationError } from './transfer.errors';

/** The store's argument errors (a bad limit, status, cursor) are the caller's input errors. */
export async function asValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StoreArgumentError)) throw error;
    const message = error.message.startsWith(`${error.field} `)
      ? error.message.slice(error.field.length + 1)
      : error.message;
    const violation: Violation = { field: error.field, rule: error.rule, params: error.params, message };
    throw new TransferValidationError([violation]);
  }
}
