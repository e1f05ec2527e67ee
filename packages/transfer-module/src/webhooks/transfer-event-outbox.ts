import { context, propagation } from '@opentelemetry/api';
import {
  anomalyKindOf,
  hasSchedule,
  keptStatusOf,
  type MovementView,
  toDailyCloseView,
  toMovementView,
} from '../movement';
import type {
  AccountCloseFigures,
  HistoryRecord,
  MovementChange,
  Outbox,
  OutboxEvent,
  UnknownDebit,
} from '../persistence';
import { newEventId } from './event-id';
import type { WebhookEventData, WebhookEventType, WebhookPayload } from './webhook-event-types';
import type { WebhookWakeUp } from './webhook-wake-up';

/** The body of an event, as signed and sent. */
export function webhookPayload<T extends WebhookEventType>(type: T, at: Date, data: WebhookEventData[T]): string {
  const payload: WebhookPayload<T> = { type, timestamp: at.toISOString(), data };
  return JSON.stringify(payload);
}

/**
 * The Outbox of the transfer module: renders a change's events from the history rows it appended (the intent:
 * `transfer.created`, then `transfer.awaiting_approval` or `transfer.scheduled` when it waits for one or for its
 * moment; a status change: `transfer.status_changed`, then `transfer.approved`, `transfer.scheduled`,
 * `transfer.rejected`, `transfer.canceled`, `transfer.completed` or `transfer.failed`; an anomaly: `transfer.anomaly`), each carrying the movement as the change left it. Wakes the dispatcher of
 * this process once they are committed.
 */
export class TransferEventOutbox implements Outbox {
  constructor(private readonly wakeUp: WebhookWakeUp) {}

  render(change: MovementChange, atMs: number): OutboxEvent[] {
    const at = new Date(atMs);
    const movement = toMovementView(change.movement);
    const { originId } = movement;
    const traceParent = activeTraceParent();
    const event = <T extends WebhookEventType>(type: T, data: WebhookEventData[T]): OutboxEvent => ({
      id: newEventId(),
      type,
      originId,
      payload: webhookPayload(type, at, data),
      ...(traceParent !== undefined && { traceParent }),
    });
    return change.appended.flatMap((row) => eventsOf(row, movement, event));
  }

  /** `report.daily_closed`: the day's figures per source account and their totals, about no one transfer. */
  renderDailyClose(day: string, figures: AccountCloseFigures[], atMs: number): OutboxEvent[] {
    const { startsAt, endsAt, accounts, totals } = toDailyCloseView(day, figures);
    const data = { day, startsAt, endsAt, accounts, totals };
    const traceParent = activeTraceParent();
    return [
      {
        id: newEventId(),
        type: 'report.daily_closed',
        originId: null,
        payload: webhookPayload('report.daily_closed', new Date(atMs), data),
        ...(traceParent !== undefined && { traceParent }),
      },
    ];
  }

  renderUnknownDebits(debits: UnknownDebit[], atMs: number): OutboxEvent[] {
    const at = new Date(atMs);
    const traceParent = activeTraceParent();
    return debits.map((debit) => ({
      id: newEventId(),
      type: 'statement.unknown_debit',
      originId: null,
      payload: webhookPayload('statement.unknown_debit', at, debit),
      ...(traceParent !== undefined && { traceParent }),
    }));
  }

  committed(): void {
    this.wakeUp.notify();
  }
}

/** The `traceparent` of the span the change is made in (an admin request's, a sweep's); none without tracing. */
function activeTraceParent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

function eventsOf(
  row: HistoryRecord,
  movement: MovementView,
  event: <T extends WebhookEventType>(type: T, data: WebhookEventData[T]) => OutboxEvent,
): OutboxEvent[] {
  const { originId } = movement;
  const scheduled = () => {
    // A transfer goes SCHEDULED only with its moment (recordIntent stores both): a view without it is a bug.
    if (!hasSchedule(movement)) throw new Error(`transfer ${originId} went SCHEDULED without its moment`);
    return event('transfer.scheduled', { originId, executeAt: movement.schedule.executeAt, movement });
  };
  if (row.source === 'intent') {
    const created = event('transfer.created', { originId, movement });
    if (row.to === 'SCHEDULED') return [created, scheduled()];
    if (row.to !== 'AWAITING_APPROVAL') return [created];
    const expiresAt = movement.approval?.expiresAt ?? null;
    return [created, event('transfer.awaiting_approval', { originId, expiresAt, movement })];
  }
  if (row.source === 'anomaly') {
    const detail = row.detail as { reason?: unknown } | null;
    const reason = typeof detail?.reason === 'string' ? detail.reason : null;
    // An anomaly row's `from` is the final status the movement keeps, `to` what the bank claimed.
    return [
      event('transfer.anomaly', {
        originId,
        status: keptStatusOf(row.from, row.to, row.detail) ?? movement.status,
        claimed: row.to,
        ...anomalyKindOf(row.detail),
        reason,
        movement,
      }),
    ];
  }
  const events = [
    event('transfer.status_changed', {
      originId,
      from: row.from ?? 'PENDING',
      to: row.to,
      source: row.source,
      movement,
    }),
  ];
  if (row.source === 'approval') events.push(event('transfer.approved', { originId, by: row.by, movement }));
  if (row.to === 'SCHEDULED') events.push(scheduled());
  if (row.to === 'CANCELED') events.push(event('transfer.canceled', { originId, by: row.by, movement }));
  if (row.to === 'REJECTED') {
    const reason = (row.detail as { reason?: unknown } | null)?.reason;
    const rejection = { originId, source: row.source, reason: typeof reason === 'string' ? reason : null, by: row.by };
    events.push(event('transfer.rejected', { ...rejection, movement }));
  }
  if (row.to === 'COMPLETED') events.push(event('transfer.completed', { originId, movement }));
  if (row.to === 'FAILED' && movement.cancellation) {
    events.push(event('transfer.failed', { originId, movement, cancellation: movement.cancellation }));
  }
  return events;
}
