import type { Movement, MovementStatus } from './giro-client';

/** What brought a status change: `create`, `resend`, `query`, `refresh`, an approver's decision… */
export type HistorySource = Movement['history'][number]['source'];
export type Cancellation = NonNullable<Movement['cancellation']>;
/** Who did it: an API key's public id and name. */
export interface Actor {
  keyId: string;
  name: string;
}

/** The data of each event giro delivers (docs/webhooks.md), by type. */
/** A count of transfers and the sum of their amounts (a decimal string, `"1234.50"`). */
export interface CloseTally {
  count: number;
  amount: string;
}

/** A day's close of one source account, or of all (docs/reports.md says which time counts each figure). */
export interface CloseFigures {
  created: CloseTally;
  sent: CloseTally;
  completed: CloseTally;
  failed: CloseTally & { registered: CloseTally; unregistered: CloseTally };
  rejected: CloseTally;
  canceled: CloseTally;
  pendingAtEnd: CloseTally & { oldestCreatedAt: string | null };
  awaitingApprovalAtEnd: CloseTally;
  scheduledAtEnd: CloseTally;
}

export interface AccountClose extends CloseFigures {
  account: string;
}

export interface GiroWebhookEventData {
  /** The intent is stored (PENDING, or AWAITING_APPROVAL), before anything is sent. */
  'transfer.created': { originId: number; movement: Movement };
  /** Every status change; `source` says what brought the news. */
  'transfer.status_changed': {
    originId: number;
    from: MovementStatus;
    to: MovementStatus;
    source: HistorySource;
    movement: Movement;
  };
  'transfer.completed': { originId: number; movement: Movement };
  /** With the cancellation to register (and acknowledge through the admin API). */
  'transfer.failed': { originId: number; movement: Movement; cancellation: Cancellation };
  /** A bank answer contradicted a final status: recorded, not applied. */
  'transfer.anomaly': {
    originId: number;
    status: MovementStatus;
    claimed: MovementStatus;
    /** What kind of anomaly, when it has a name (`counterparty_mismatch`). */
    kind?: string;
    reason: string | null;
    movement: Movement;
  };
  'transfer.awaiting_approval': { originId: number; expiresAt: string | null; movement: Movement };
  'transfer.approved': { originId: number; by: Actor | null; movement: Movement };
  'transfer.rejected': {
    originId: number;
    source: HistorySource;
    reason: string | null;
    by: Actor | null;
    movement: Movement;
  };
  /** Stored SCHEDULED: it goes to the bank at `executeAt`, unless canceled before; its movement has its schedule. */
  'transfer.scheduled': {
    originId: number;
    executeAt: string;
    movement: Movement & { schedule: NonNullable<Movement['schedule']> };
  };
  /** A scheduled transfer canceled before its moment: CANCELED, never sent. */
  'transfer.canceled': { originId: number; by: Actor | null; movement: Movement };
  /** A Buenos Aires day ended: its close per source account and the totals, once per day. */
  'report.daily_closed': {
    day: string;
    startsAt: string;
    endsAt: string;
    accounts: AccountClose[];
    totals: CloseFigures;
  };
  /** A debit of an imported bank statement that no transfer explains (`unknown_debit`), once per bank line. */
  'statement.unknown_debit': {
    statementId: string;
    account: string;
    line: { number: number; date: string; amount: string; reference: string; description: string };
  };
  /** Sent on request to one endpoint (POST /admin/webhooks/:id/test). */
  'webhook.test': { endpointId: string; message: string };
}

export type GiroWebhookEventType = keyof GiroWebhookEventData;

/** One delivery's body: its type, when the change was committed (ISO 8601), and its data; narrowed by `type`. */
export type GiroWebhookEvent = {
  [T in GiroWebhookEventType]: { type: T; timestamp: string; data: GiroWebhookEventData[T] };
}[GiroWebhookEventType];
