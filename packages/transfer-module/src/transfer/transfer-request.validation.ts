import { type TransferInput, type TransferIntentRules, validateTransferIntent } from '../domain';
import { TransferValidationError } from './transfer.errors';

/**
 * The transfer input of a transfer request (docs/bank-api.md#request-fields), or a TransferValidationError
 * listing every violation: the domain's rules (TRANSFER_REQUEST, domain/transfer-request.ts) with the module's
 * `transferRules`. The one validation of a request, wherever it comes from (TransferService.requestTransfer,
 * the admin API's pipe through TransferService.validateRequest).
 */
export function validateTransferRequest(input: unknown, rules: TransferIntentRules): TransferInput {
  const result = validateTransferIntent(input, rules);
  if (!result.ok) throw new TransferValidationError(result.violations);
  return result.intent;
}
