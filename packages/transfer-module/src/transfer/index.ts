export { MovementBusyError, PollTooSoonError, TransferConflictError, TransferValidationError } from './transfer.errors';
export { type RequestTransferResult, TransferService } from './transfer.service';
