import type {
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryState,
  WebhookEndpointEntity,
} from './entities';

// What WebhookStore returns: plain objects, times as Dates.

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  description: string | null;
  /** The event types it receives; empty: all of them. */
  eventTypes: string[];
  secret: string;
  /** Still signing, beside `secret`, until `previousSecretExpiresAt` (after a rotation). */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** Null while enabled. */
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDeliveryRecord {
  id: number;
  endpointId: string;
  eventId: string;
  eventType: string;
  originId: number | null;
  state: WebhookDeliveryState;
  attempts: number;
  /** When it is tried next (meaningful while pending). */
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** When the event was written (with its change). */
  createdAt: Date;
}

export interface WebhookAttemptRecord {
  id: number;
  deliveryId: number;
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  response: string | null;
}

/** A delivery a dispatcher leased, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  endpointId: string;
  url: string;
  /** The secrets that sign it: the endpoint's, and the previous one during its grace period. */
  secrets: string[];
  eventId: string;
  eventType: string;
  originId: number | null;
  payload: string;
  /** Attempts before this one. */
  attempts: number;
  eventCreatedAt: Date;
  /** The W3C `traceparent` of the change that caused the event; null when it was not traced. */
  traceParent: string | null;
}

/** Events types are stored as `*` (all) or a comma-wrapped list, `,a,b,`, which SQL matches with `,type,`. */
export function eventTypesColumn(types: readonly string[]): string {
  return types.length === 0 ? '*' : `,${types.join(',')},`;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

export function toEndpointRecord(row: WebhookEndpointEntity): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes === '*' ? [] : row.eventTypes.split(',').filter((type) => type !== ''),
    secret: row.secret,
    previousSecret: row.previousSecret,
    previousSecretExpiresAt: date(row.previousSecretExpiresAtMs),
    disabledAt: date(row.disabledAtMs),
    disabledReason: row.disabledReason,
    createdAt: new Date(row.createdAtMs),
    updatedAt: new Date(row.updatedAtMs),
  };
}

export function toDeliveryRecord(
  row: WebhookDeliveryEntity,
  event: { id: string; type: string; createdAtMs: number },
): WebhookDeliveryRecord {
  return {
    id: Number(row.id),
    endpointId: row.endpointId,
    eventId: event.id,
    eventType: event.type,
    originId: row.originId,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: new Date(row.nextAttemptAtMs),
    lastAttemptAt: date(row.lastAttemptAtMs),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: date(row.deliveredAtMs),
    createdAt: new Date(event.createdAtMs),
  };
}

export function toAttemptRecord(row: WebhookAttemptEntity): WebhookAttemptRecord {
  return {
    id: Number(row.id),
    deliveryId: row.deliveryId,
    at: new Date(row.atMs),
    durationMs: row.durationMs,
    statusCode: row.statusCode,
    error: row.error,
    response: row.response,
  };
}
