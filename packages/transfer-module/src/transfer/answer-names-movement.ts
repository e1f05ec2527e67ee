import type { BankMovement } from '../bank';
import type { MovementRecord } from '../persistence';

/**
 * Whether an answer to a lookup by network or DEBIN id is about `record`, the stored movement its
 * `details.originId` names: only with the evidence that it is the same transfer, the same amount (which the
 * answer must state), and the same currency and sending account when it states them. A DEBIN id may name a
 * movement someone else started, whose originId is in another client's numbering: taking such an answer for
 * one of giro's movements could make that one final by mistake, so without this evidence it is not.
 */
export function answerNamesMovement(answer: BankMovement, record: MovementRecord): boolean {
  if (answer.originId !== record.originId) return false;
  if (answer.amount === undefined || answer.amount !== record.amount) return false;
  if (answer.amountCurrency !== undefined && answer.amountCurrency !== record.currencyId) return false;
  const address = answer.thisSubAccount?.address;
  return address === undefined || address === record.intent.from.address;
}
