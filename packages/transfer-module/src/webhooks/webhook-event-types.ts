import type { MovementStatus } from '../domain';
import type { CancellationView, MovementView } from '../movement';
import type { HistorySource } from '../persistence';

/** The events giro delivers; an endpoint chooses among them (none chosen: all). */
export const WEBHOOK_EVENT_TYPES = [
  'transfer.created',
  'transfer.status_changed',
  'transfer.completed',
  'transfer.failed',
  'transfer.anomaly',
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
  /** The intent is stored (PENDING), before anything is sent. */
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
  /** A bank answer contradicted a final status: recorded, not applied. */
  'transfer.anomaly': {
    originId: number;
    status: MovementStatus;
    claimed: MovementStatus;
    reason: string | null;
    movement: MovementView;
  };
  /** Sent on request to one endpoint (POST /admin/webhooks/:id/test). */
  'webhook.test': { endpointId: string; message: string };
}
