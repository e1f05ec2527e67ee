import type { MovementStatus } from '../domain';
import type {
  AccountCloseView,
  CancellationView,
  CloseFiguresView,
  MovementView,
  ScheduledMovementView,
} from '../movement';
import type { HistorySource } from '../persistence';

/** The events giro delivers; an endpoint chooses among them (none chosen: all). */
export const WEBHOOK_EVENT_TYPES = [
  'transfer.created',
  'transfer.status_changed',
  'transfer.completed',
  'transfer.failed',
  'transfer.anomaly',
  'transfer.awaiting_approval',
  'transfer.approved',
  'transfer.rejected',
  'transfer.scheduled',
  'transfer.canceled',
  'report.daily_closed',
  'statement.unknown_debit',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);
}

/**
 * The body of every delivery (Standard Webhooks' recommended shape): the type, when the change was committed,
 * and its data. The same bytes on every attempt, so a receiver may compare them.
 */
export interface WebhookPayload<T extends WebhookEventType = WebhookEventType> {
  type: T;
  timestamp: string;
  data: WebhookEventData[T];
}

export interface WebhookEventData {
  /** The intent is stored (PENDING, or AWAITING_APPROVAL), before anything is sent. */
  'transfer.created': { originId: number; movement: MovementView };
  /** Every status change; `source` says what brought the news (`create`, `resend`, `query`, `refresh`). */
  'transfer.status_changed': {
    originId: number;
    from: MovementStatus;
    to: MovementStatus;
    source: HistorySource;
    movement: MovementView;
  };
  'transfer.completed': { originId: number; movement: MovementView };
  /** With the cancellation the host registers (and acknowledges through the admin API). */
  'transfer.failed': { originId: number; movement: MovementView; cancellation: CancellationView };
  /**
   * A bank answer contradicted a final status (recorded, not applied), or named another counterparty than the one
   * asked for (`kind: "counterparty_mismatch"`, the status the bank's).
   */
  'transfer.anomaly': {
    originId: number;
    status: MovementStatus;
    claimed: MovementStatus;
    kind?: string;
    reason: string | null;
    movement: MovementView;
  };
  /** The transfer is stored AWAITING_APPROVAL (after its `transfer.created`): an approver must decide about it. */
  'transfer.awaiting_approval': { originId: number; expiresAt: string | null; movement: MovementView };
  /** An approver approved it (`by`): it is PENDING and goes to the bank. */
  'transfer.approved': { originId: number; by: { keyId: string; name: string } | null; movement: MovementView };
  /**
   * It ends REJECTED, never sent: an approver refused it (`source` `rejection`, `by` who), or no one approved it in
   * time (`expiry`, `by` null). Its share of its account's limits is free again.
   */
  'transfer.rejected': {
    originId: number;
    source: HistorySource;
    reason: string | null;
    by: { keyId: string; name: string } | null;
    movement: MovementView;
  };
  /**
   * The transfer is stored SCHEDULED (after its `transfer.created`, or an approval before its moment): it goes to
   * the bank at `executeAt`, unless canceled before.
   */
  'transfer.scheduled': { originId: number; executeAt: string; movement: ScheduledMovementView };
  /** A scheduled transfer was canceled before its moment (`by` who): CANCELED, never sent, its limit share free. */
  'transfer.canceled': { originId: number; by: { keyId: string; name: string } | null; movement: MovementView };
  /**
   * A Buenos Aires day ended (sent once per day, a few minutes after its midnight): its close per source account
   * and the totals, as `GET /admin/reports/daily` answers it for that day (docs/reports.md).
   */
  'report.daily_closed': {
    day: string;
    startsAt: string;
    endsAt: string;
    accounts: AccountCloseView[];
    totals: CloseFiguresView;
  };
  /**
   * A debit of an imported bank statement that no transfer explains (the anomaly `unknown_debit`): money that left
   * the account by another door. Once per bank line (its date, amount and reference), whatever statements hold it.
   */
  'statement.unknown_debit': {
    statementId: string;
    account: string;
    line: { number: number; date: string; amount: string; reference: string; description: string };
  };
  /** Sent on request to one endpoint (POST /admin/webhooks/:id/test). */
  'webhook.test': { endpointId: string; message: string };
}
