export { newEventId } from './event-id';
export { type AfterFailure, parseRetryAfter, RetrySchedule } from './retry-schedule';
export { TransferEventOutbox, webhookPayload } from './transfer-event-outbox';
export { WebhooksDisabledError, WebhookValidationError } from './webhook.errors';
export { ENVIRONMENT_ENDPOINT_ID, type WebhookEndpointWithSecret, WebhookService } from './webhook.service';
export { type WebhookAttemptObserver, WebhookDispatcher } from './webhook-dispatcher';
export {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookPayload,
} from './webhook-event-types';
export { type PostOutcome, WebhookPost } from './webhook-post';
export { explainWebhookSecret, newWebhookSecret, signedHeaders } from './webhook-signature';
export { addressKind, explainAddress, explainWebhookUrl, safeLookup, type WebhookTargetRules } from './webhook-target';
export type { WebhookAttemptView, WebhookDeliveryView, WebhookEndpointView } from './webhook-views';
export { WebhookWakeUp } from './webhook-wake-up';
