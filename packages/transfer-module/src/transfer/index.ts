export type { AnomalyView, CancellationView, HistoryView, MovementView } from './movement-view';
export { MovementBusyError, PollTooSoonError, TransferConflictError, TransferValidationError } from './transfer.errors';
export { type RequestTransferResult, TransferService } from './transfer.service';
export {
  type MovementAnomalyEvent,
  type MovementCompletedEvent,
  type MovementFailedEvent,
  type MovementStatusChangedEvent,
  TRANSFER_EVENTS,
} from './transfer-events';
export { TransferBodyDto, TransferOwnerDto, TransferPartyDto, TransferRequestDto } from './transfer-request.dto';
