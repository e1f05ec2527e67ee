// @giro/client: giro's admin API from another service, typed from its OpenAPI document, and its webhooks verified.
export {
  type components,
  createGiroClient,
  type GiroClient,
  type GiroClientOptions,
  type Movement,
  type MovementStatus,
  type paths,
} from './giro-client';
export { verifyWebhook, type WebhookHeaders, WebhookVerificationError } from './verify-webhook';
export type {
  AccountClose,
  Actor,
  Cancellation,
  CloseFigures,
  CloseTally,
  GiroWebhookEvent,
  GiroWebhookEventData,
  GiroWebhookEventType,
  HistorySource,
} from './webhook-events';
