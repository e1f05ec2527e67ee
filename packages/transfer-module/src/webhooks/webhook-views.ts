import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../persistence';

// What WebhookService returns: JSON-ready (times as ISO 8601 strings). An endpoint's secret is shown once, when
// it is created or rotated, never in a view.

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  /** The types it receives; empty: all. */
  eventTypes: string[];
  enabled: boolean;
  disabledAt: string | null;
  /** `disabled by an operator`, or `the receiver answered 410 Gone`. */
  disabledReason: string | null;
  /** Until when the previous secret still signs beside the current one (after a rotation); null when none does. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDeliveryView {
  id: number;
  endpointId: string;
  eventId: string;
  eventType: string;
  originId: number | null;
  state: 'pending' | 'delivered' | 'dead';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface WebhookAttemptView {
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  response: string | null;
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export function toEndpointView(record: WebhookEndpointRecord, now: Date): WebhookEndpointView {
  const graceEnds = record.previousSecret !== null ? record.previousSecretExpiresAt : null;
  return {
    id: record.id,
    url: record.url,
    description: record.description,
    eventTypes: record.eventTypes,
    enabled: record.disabledAt === null,
    disabledAt: iso(record.disabledAt),
    disabledReason: record.disabledReason,
    previousSecretExpiresAt: graceEnds !== null && graceEnds > now ? graceEnds.toISOString() : null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

export function toDeliveryView(record: WebhookDeliveryRecord): WebhookDeliveryView {
  return {
    id: record.id,
    endpointId: record.endpointId,
    eventId: record.eventId,
    eventType: record.eventType,
    originId: record.originId,
    state: record.state,
    attempts: record.attempts,
    nextAttemptAt: record.state === 'pending' ? record.nextAttemptAt.toISOString() : null,
    lastAttemptAt: iso(record.lastAttemptAt),
    lastStatusCode: record.lastStatusCode,
    lastError: record.lastError,
    deliveredAt: iso(record.deliveredAt),
    createdAt: record.createdAt.toISOString(),
  };
}

export function toAttemptView(record: WebhookAttemptRecord): WebhookAttemptView {
  return {
    at: record.at.toISOString(),
    durationMs: record.durationMs,
    statusCode: record.statusCode,
    error: record.error,
    response: record.response,
  };
}
