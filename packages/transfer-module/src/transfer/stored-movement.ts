import { originIdProblem } from '../domain';
import { type MovementDetails, MovementNotFoundError, type MovementStore } from '../persistence';
import { TransferValidationError } from './transfer.errors';

/** A movement the services were asked about by originId: with its history and cancellation, or MovementNotFoundError. */
export async function storedMovement(store: MovementStore, originId: number): Promise<MovementDetails> {
  checkOriginId(originId);
  const details = await store.findByOriginId(originId);
  if (!details) throw new MovementNotFoundError(originId);
  return details;
}

/** An originId from the caller, checked before the store is asked (TransferValidationError naming `originId`). */
export function checkOriginId(originId: unknown): void {
  const problem = originIdProblem(originId);
  if (problem !== undefined) throw new TransferValidationError([{ field: 'originId', rule: 'origin_id', ...problem }]);
}
