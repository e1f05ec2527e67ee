import { join } from 'node:path';
import { exportedNames } from '@test-support/exported-names';

// The package's public surface, pinned: a name added to or removed from the root fails this spec until the list
// below changes with it — so a change to what services may import is always deliberate.

const ROOT = [
  'AccountClose',
  'Actor',
  'Cancellation',
  'CloseFigures',
  'CloseTally',
  'GiroClient',
  'GiroClientOptions',
  'GiroWebhookEvent',
  'GiroWebhookEventData',
  'GiroWebhookEventType',
  'HistorySource',
  'Movement',
  'MovementStatus',
  'WebhookHeaders',
  'WebhookVerificationError',
  'components',
  'createGiroClient',
  'paths',
  'verifyWebhook',
];

describe('the public API of @giro/client', () => {
  it('exports exactly the names a service uses', () => {
    expect(exportedNames(join(__dirname, 'index.ts'))).toEqual(ROOT);
  }, 120_000);
});
