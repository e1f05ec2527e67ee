export {
  type BankAccountRoutingView,
  type BankCounterpartyView,
  type BankDetailsView,
  type BankSubAccountView,
  bankDetailsOf,
  toBankDetailsView,
} from './bank-details-view';
export { BANK_PORT, type BankPort } from './bank-port';
export { COUNTERPARTY_MISMATCH, type CounterpartyMismatch } from './counterparty-check';
export {
  type AccountCloseView,
  type CloseFiguresView,
  type CloseTallyView,
  type DailyCloseView,
  sumFigures,
  toDailyCloseView,
} from './daily-close-view';
export { FailureCounts } from './failure-counts';
export { emptyFollowUpStep, type FollowUpStep } from './follow-up-step';
export { InFlightWork } from './in-flight-work';
export { createLeaseOwner, LEASE_OWNER } from './lease-owner';
export {
  type EventSink,
  type MovementAnomalyEvent,
  type MovementCompletedEvent,
  MovementEvents,
  type MovementFailedEvent,
  type MovementStatusChangedEvent,
  TRANSFER_EVENTS,
} from './movement-events';
export { describeError, MOVEMENT_LOGGER, movementLogLine } from './movement-logger';
export { MovementSender, type SendFirstResult } from './movement-sender';
export {
  type AnomalyListItemView,
  type AnomalyResolutionView,
  type AnomalyView,
  anomalyKindOf,
  type CancellationView,
  type HistoryView,
  hasSchedule,
  keptStatusOf,
  type MovementView,
  type ScheduledMovementView,
  type ScheduleView,
  toAnomalyListItemView,
  toCancellationView,
  toMovementView,
  toUnknownDebitView,
  type UnknownDebitView,
} from './movement-view';
export { QuerySchedule } from './query-schedule';
export { HEARTBEAT_INTERVAL_MS, REPLICA_LIVE_WITHIN_MS, ReplicaHeartbeat } from './replica-heartbeat';
