import {
  explainSourceAccount,
  isCvu,
  type SourceAccountIndex,
  type TransferInput,
  type TransferIntentRules,
  validateTransferIntent,
} from '../domain';
import { TransferValidationError } from './transfer.errors';

/**
 * The transfer input of a transfer request (docs/bank-api.md#request-fields), or a TransferValidationError
 * listing every violation: the domain's rules (TRANSFER_REQUEST, domain/transfer-request.ts) with the module's
 * `transferRules`, and `from` among the module's `sourceAccounts` when it has them. The one validation of a
 * request, wherever it comes from (TransferService.requestTransfer, the admin API's pipe through
 * TransferService.validateRequest).
 */
export function validateTransferRequest(
  input: unknown,
  rules: TransferIntentRules,
  sources: { accounts?: SourceAccountIndex; psp?: boolean } = {},
): TransferInput {
  const result = validateTransferIntent(input, rules);
  if (!result.ok) throw new TransferValidationError(result.violations);
  const { from } = result.intent;
  const source = sources.accounts === undefined ? undefined : explainSourceAccount(from, sources.accounts);
  // In PSP mode a CVU that is not one of the entity's accounts may be a client's registered sub-account: the
  // service reads the registry for it (needsSubAccountCheck) before anything is stored.
  const subAccount = sources.psp === true && source?.rule === 'source_account' && isCvu(from.address);
  if (source !== undefined && !subAccount) throw new TransferValidationError([source]);
  return result.intent;
}

/** Whether `from` is to be checked against the registered client sub-accounts (PSP mode, not an own account). */
export function needsSubAccountCheck(
  from: TransferInput['from'],
  sources: { accounts?: SourceAccountIndex; psp?: boolean },
): boolean {
  return sources.psp === true && sources.accounts !== undefined && !sources.accounts.has(from.address);
}
