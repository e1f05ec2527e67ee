import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGiroClient, type GiroWebhookEvent, verifyWebhook } from '@giro/client';
import { WebhookDispatcher } from '@giro/transfer-module';
import { ADMIN_TOKEN, startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// @giro/client against a reconciler (in this process, the sandbox bank behind it): the OpenAPI document its types
// are generated from is the one the reconciler serves; the typed client creates and reads a transfer; and
// verifyWebhook accepts the delivery giro signed and returns its event.

const DOCUMENT = join(__dirname, '..', 'packages', 'client', 'admin-openapi.json');
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

describe('@giro/client against a reconciler', () => {
  let receiver: WebhookReceiver;
  let reconciler: TestReconciler;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    reconciler = await startTestReconciler({
      webhooks: {
        options: { allowLoopback: true },
        environmentEndpoint: { url: receiver.url, secret: SECRET, eventTypes: ['transfer.created'] },
      },
    });
  });
  afterAll(async () => {
    await reconciler?.close();
    await receiver?.close();
  });

  it('is generated from the OpenAPI document the reconciler serves (else: `pnpm docs:openapi`)', async () => {
    const served = await reconciler.request('GET', '/docs-json');
    expect(JSON.parse(readFileSync(DOCUMENT, 'utf8'))).toEqual(served.json);
  });

  it('creates a transfer and reads it back, typed; an unknown one is an error body', async () => {
    const giro = createGiroClient({ baseUrl: `${reconciler.url}/`, token: ADMIN_TOKEN });
    const created = await giro.POST('/admin/transfers', { body: transferRequest({ originId: 9_301 }) });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ originId: 9_301, amount: '1234.50' });
    const read = await giro.GET('/admin/transfers/{originId}', { params: { path: { originId: 9_301 } } });
    expect(read.data?.originId).toBe(9_301);
    expect(read.data?.history[0]).toMatchObject({ to: 'PENDING', source: 'intent' });
    const missing = await giro.GET('/admin/transfers/{originId}', { params: { path: { originId: 9_399 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ code: 'TRANSFER_NOT_FOUND' });
  });

  it('verifies the webhook giro delivered and returns its event', async () => {
    // The test reconciler schedules nothing: the deliveries due are sent now.
    await reconciler.app.get(WebhookDispatcher).deliverDue();
    const request = receiver.requests.find((received) => received.body.includes('"originId":9301'));
    const event: GiroWebhookEvent = verifyWebhook(request?.body ?? '', request?.headers ?? {}, SECRET);
    expect(event.type).toBe('transfer.created');
    if (event.type === 'transfer.created') expect(event.data.movement.originId).toBe(9_301);
    expect(() => verifyWebhook(`${request?.body} `, request?.headers ?? {}, SECRET)).toThrow();
  });
});
