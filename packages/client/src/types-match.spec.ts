import type { MovementView, WebhookEventData } from '@giro/transfer-module';
import type { Movement } from './giro-client';
import type { GiroWebhookEventData } from './webhook-events';

// The client's types against the module's: the Movement schema of the OpenAPI document (admin's movement.schema.ts,
// generated into the client by openapi-typescript) and the webhook events the client declares must be exactly the
// types giro answers and sends. Checked by the compiler (`pnpm typecheck`): a field added to MovementView or to an
// event without its description fails to compile here.

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const movementMatches: Same<Movement, MovementView> = true;
const eventsMatch: { [T in keyof WebhookEventData]: Same<GiroWebhookEventData[T], WebhookEventData[T]> } = {
  'transfer.created': true,
  'transfer.status_changed': true,
  'transfer.completed': true,
  'transfer.failed': true,
  'transfer.anomaly': true,
  'transfer.awaiting_approval': true,
  'transfer.approved': true,
  'transfer.rejected': true,
  'transfer.scheduled': true,
  'transfer.canceled': true,
  'report.daily_closed': true,
  'statement.unknown_debit': true,
  'webhook.test': true,
};
const sameEventTypes: Same<keyof GiroWebhookEventData, keyof WebhookEventData> = true;

describe('the client types', () => {
  it('are the module’s movement and events (checked by the compiler)', () => {
    expect([movementMatches, sameEventTypes, ...Object.values(eventsMatch)].every(Boolean)).toBe(true);
  });
});
