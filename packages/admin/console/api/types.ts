// The admin API's answers as the console reads them (packages/admin/src/*/*.controller.ts, the OpenAPI at /docs):
// only the fields shown here. The browser bundle cannot import the server's types, so these are kept by hand; the
// lists (statuses, roles, event types) are checked against the server's by packages/admin/src/console-server/console-types.spec.ts.

export type Role = 'viewer' | 'operator' | 'approver' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'operator', 'approver', 'admin'];

/** `GET /admin/me`: who the signed-in key is. */
export interface Me {
  /** The key's public id; `admin-token` for the bootstrap admin token. */
  keyId: string;
  name: string;
  role: Role;
  /** The bootstrap admin token: an admin that never approves (the API answers BOOTSTRAP_CANNOT_APPROVE). */
  bootstrap: boolean;
}

export const STATUSES = [
  'AWAITING_APPROVAL',
  'SCHEDULED',
  'PENDING',
  'CREATED',
  'IN_PROGRESS',
  'DELAYED',
  'COMPLETED',
  'FAILED',
  'REJECTED',
  'CANCELED',
] as const;
export type Status = (typeof STATUSES)[number];

const FINAL: readonly Status[] = ['COMPLETED', 'FAILED', 'REJECTED', 'CANCELED'];
export const isFinal = (status: Status): boolean => FINAL.includes(status);

export interface Who {
  keyId: string;
  name: string;
}

export interface Party {
  addressType: string;
  address: string;
  owner: { personIdType: string; personId: string };
}

export interface HistoryEntry {
  from: Status | null;
  to: Status;
  at: string;
  source: string;
  by?: Who;
  reason?: string;
}

export interface Cancellation {
  originId: number;
  amount: string;
  currencyId: string;
  /** `failed`: the bank reported the transfer FAILED; `refused`: it refused the request (`code` its code). */
  reason: { kind: 'failed' | 'refused'; code: string | null; message: string | null };
  createdAt: string;
  acknowledgedAt: string | null;
  reference: string | null;
  acknowledgedBy: Who | null;
}

export interface AccountRouting {
  addressType?: string;
  address?: string;
}

export interface BankDetails {
  movementId?: string;
  type?: string;
  typeDescription?: string;
  network?: string;
  networkId?: string;
  postingDatetime?: string;
  completedDatetime?: string;
  motiveCode?: string;
  message?: string;
  counterparty?: { personId?: string; personIdType?: string; personName?: string; accountRouting?: AccountRouting };
  thisSubAccount?: {
    owners?: { personId?: string; personIdType?: string; personName?: string; personType?: string };
    accountRouting?: AccountRouting;
  };
}

/** The anomalies that have a name (`kind`), as `GET /admin/anomalies?kind=` takes them. */
export const ANOMALY_KINDS = [
  'counterparty_mismatch',
  'amount_mismatch',
  'missing_in_statement',
  'unknown_debit',
] as const;

export interface Anomaly {
  id: number;
  kind?: string;
  at: string;
  status: Status | null;
  claimed: Status;
  reason: string | null;
  bank: BankDetails | null;
  resolution: { at: string; by: Who; note: string } | null;
}

/** A debit of the bank's statement no transfer explains, in the anomaly list: about a statement line. */
export interface UnknownDebit {
  /** Among the unknown debits' ids, not the transfers' anomalies'. */
  id: number;
  kind: 'unknown_debit';
  at: string;
  reason: string;
  statement: {
    importId: string;
    account: string;
    line: number;
    date: string;
    amount: string;
    reference: string;
    description: string;
  };
  resolution: { at: string; by: Who; note: string } | null;
}

export interface Approval {
  expiresAt: string | null;
  decision: 'approved' | 'rejected' | 'expired' | null;
  decidedBy: Who | null;
  decidedAt: string | null;
  reason: string | null;
  /** Each rule that held it: `amount`, or `new_payee` (a first payment to its account). */
  holds?: { reason: 'amount' | 'new_payee' }[];
}

export interface Movement {
  originId: number;
  status: Status;
  amount: string;
  currencyId: string;
  from: Party;
  to: Party;
  description: string;
  concept: string;
  networkId: string | null;
  bankMovementId: string | null;
  attempts: number;
  queries: number;
  lastError: string | null;
  lastAnswerAt: string | null;
  nextQueryAt: string | null;
  createdAt: string;
  updatedAt: string;
  history: HistoryEntry[];
  anomalies: Anomaly[];
  cancellation: Cancellation | null;
  bank: BankDetails | null;
  approval?: Approval;
  /** A transfer asked for a day or a moment: when it is (or was) sent, and what was asked. */
  schedule?: Schedule;
}

/** `executeAt`: the moment, after the calendar moved a holiday or a weekend; `requested`: as asked. */
export interface Schedule {
  executeAt: string;
  requested: { executeOn: string } | { executeAt: string };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** `GET /admin/overview`: the dashboard. */
export interface Overview {
  countsByStatus: Partial<Record<Status, number>>;
  sentToday: { currencyId: string; amount: string; count: number }[];
  oldestNonFinal: { originId: number; createdAt: string; status: Status } | null;
  anomaliesOpen: number;
  cancellationsToRegister: number;
  awaitingApproval: number;
  /** The SCHEDULED transfers to be sent today and tomorrow (Buenos Aires days). */
  scheduled?: { today: ScheduledDay; tomorrow: ScheduledDay };
}

export interface ScheduledDay {
  day: string;
  totals: { currencyId: string; amount: string; count: number }[];
}

/** `GET /admin/transfers/scheduled-totals`: the scheduled transfers of a filter per sending day, account and currency. */
export interface ScheduledTotals {
  items: { day: string; from: string; currencyId: string; amount: string; count: number }[];
  /** More groups than one answer holds: the earliest ones are listed. */
  truncated: boolean;
}

/** `POST /admin/transfers/cancel`: one item per originId. */
export interface CancelItem {
  originId: number;
  outcome: 'canceled' | 'refused';
  error?: { name: string; code?: string; message: string };
}

/** A field the API refused, as every 400 (and a limit's 422) names it: `params` are the values `message` names. */
export interface Violation {
  field: string;
  rule: string;
  params?: Record<string, string | number | boolean | string[]>;
  message: string;
}

/** `POST /admin/transfers/approve` and `/reject`: one item per originId. */
export interface DecisionItem {
  originId: number;
  outcome: 'approved' | 'rejected' | 'refused';
  error?: { name: string; code?: string; message: string };
}

/** `POST /admin/transfers/batch[?dryRun=true]`: one row per line of the file. */
/** A dry run's row as the batch read it: the amount a decimal with a point, CUITs as 11 digits. */
export interface BatchRowTransfer {
  fromAddress: string;
  fromCuit: string;
  toAddress: string;
  toCuit: string;
  currencyId: string;
  amount: string;
  description: string;
  concept: string;
  /** A row that asked for a day or a moment still ahead: when it would be sent. */
  schedule?: Schedule;
}

export interface BatchRow {
  row: number;
  originId: number | null;
  outcome: string;
  status?: Status;
  violations?: Violation[];
  transfer?: BatchRowTransfer;
  /** A dry run's row to an account never paid nor approved as a payee. */
  newPayee?: true;
}

export interface BatchTotal {
  currencyId: string;
  count: number;
  amount: string;
}

export interface BatchAnswer {
  dryRun: boolean;
  rows: BatchRow[];
  summary: Record<string, number>;
  /** A dry run's: what the rows that would be created add up to. */
  totals?: { perSource: (BatchTotal & { fromAddress: string })[]; overall: BatchTotal[] };
}

export interface ApiKey {
  keyId: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: string;
  revokedAt: string | null;
}

/** The event types an endpoint may subscribe to (the server's WEBHOOK_EVENT_TYPES but `webhook.test`). */
export const SUBSCRIBABLE_EVENT_TYPES = [
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
] as const;

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledAt: string | null;
  /** Why it is disabled, in the API's words (an operator did, or the receiver answered 410 Gone); null when enabled. */
  disabledReason: string | null;
  /** While the secret before the last rotation still signs beside the new one; null otherwise. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** A delivery's states (the module's WEBHOOK_DELIVERY_STATES). */
export const DELIVERY_STATES = ['pending', 'delivered', 'dead'] as const;

export interface WebhookDelivery {
  id: number;
  endpointId: string;
  eventType: string;
  originId: number | null;
  state: (typeof DELIVERY_STATES)[number];
  attempts: number;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
}

export interface AuditRow {
  seq: number;
  at: string;
  actor: { keyId: string | null; name: string; role: string } | null;
  action: string;
  originId: number | null;
  requestId: string | null;
  clientAddress: string | null;
  outcome: 'ok' | 'refused';
  statusCode: number | null;
  error: string | null;
}
