import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookDispatcher } from '@giro/transfer-module';
import { Webhook } from 'standardwebhooks';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// The admin API's webhook routes (packages/admin/README.md, docs/webhooks.md) over HTTP, against an in-process
// reconciler (one manual clock) and a real HTTP receiver on loopback that verifies every delivery with the
// standardwebhooks library, as a host would. Sweeps and deliveries run when a test asks (deliverDue).

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering `status` (204 unless told otherwise), recording every request. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 204 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(state.status).end(state.status >= 400 ? 'not now' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The payload of a request, verified with `secret` (throws when the signature does not hold). */
function verified(
  secret: string,
  request: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as never;
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

describe('reconciler webhooks admin API', () => {
  let r: TestReconciler;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const secretsSeen: string[] = [];
  const deliverDue = () => r.app.get(WebhookDispatcher).deliverDue();

  beforeAll(async () => {
    receiver = await startReceiver();
    r = await startTestReconciler({
      webhooks: { options: { allowLoopback: true, retryDelaysMs: [1_000, 1_000] } },
    });
  });
  afterAll(async () => {
    await r?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.state.status = 204;
    receiver.received.length = 0;
  });
  // Each test meets only its own endpoints (they share the receiver).
  afterEach(async () => {
    for (const { id } of (await r.request('GET', '/admin/webhooks')).json) {
      await r.request('DELETE', `/admin/webhooks/${id}`);
    }
  });

  async function createEndpoint(body: Record<string, unknown> = {}) {
    const created = await r.request('POST', '/admin/webhooks', { body: { url: receiver.url, ...body } });
    expect(created.status).toBe(201);
    secretsSeen.push(created.json.secret);
    return created.json as { endpoint: { id: string }; secret: string };
  }

  it('creates an endpoint and shows its secret once: never in a read', async () => {
    const created = await r.request('POST', '/admin/webhooks', {
      body: { url: receiver.url, eventTypes: ['transfer.completed'], description: 'payouts' },
    });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(SECRET);
    secretsSeen.push(created.json.secret);
    expect(created.json.endpoint).toMatchObject({
      id: expect.stringMatching(/^ep_/),
      url: receiver.url,
      description: 'payouts',
      eventTypes: ['transfer.completed'],
      enabled: true,
      previousSecretExpiresAt: null,
    });
    const { id } = created.json.endpoint;
    const one = await r.request('GET', `/admin/webhooks/${id}`);
    const all = await r.request('GET', '/admin/webhooks');
    expect(one.status).toBe(200);
    expect(one.json).toEqual(created.json.endpoint);
    expect(all.json).toEqual(expect.arrayContaining([created.json.endpoint]));
    for (const answer of [one, all]) {
      expect(answer.text).not.toContain(created.json.secret);
      expect(answer.text).not.toContain('whsec_');
    }
  });

  it('refuses a bad endpoint naming each field and rule, and registers nothing', async () => {
    const before = (await r.request('GET', '/admin/webhooks')).json.length;
    const cases: [Record<string, unknown>, string, string, RegExp][] = [
      [{ url: 'not-a-url' }, 'url', 'webhook_url', /absolute URL/],
      [{ url: 'http://hooks.example.com/giro' }, 'url', 'webhook_url', /https URL/],
      [{ url: 'https://10.0.0.5/hooks' }, 'url', 'webhook_url', /private .*WEBHOOK_ALLOW_PRIVATE=true/],
      [{ url: 'https://169.254.169.254/latest' }, 'url', 'webhook_url', /link-local/],
      [{ url: 'https://[64:ff9b::a9fe:a9fe]/' }, 'url', 'webhook_url', /link-local/],
      [{ url: 'https://[2002:a9fe:a9fe::]/' }, 'url', 'webhook_url', /link-local/],
      [{ url: 'https://[::10.0.0.1]/' }, 'url', 'webhook_url', /private/],
      [{ url: 'https://[::ffff:0:a00:1]/' }, 'url', 'webhook_url', /private/],
      [{ url: 'https://[fec0::1]/' }, 'url', 'webhook_url', /private/],
      [{ url: 'https://198.18.0.1/' }, 'url', 'webhook_url', /private/],
      [{ url: 'https://hooks.example.com/gi\r\nro' }, 'url', 'webhook_url', /control characters, found U\+000D/],
      [{ url: receiver.url, eventTypes: ['transfer.done'] }, 'eventTypes', 'event_types', /transfer\.completed/],
      [{ url: receiver.url, color: 'blue' }, 'color', 'unknown', /not a field/],
      [{}, 'url', 'required', /required/],
    ];
    for (const [body, field, rule, message] of cases) {
      const answer = await r.request('POST', '/admin/webhooks', { body });
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      expect(answer.json.violations).toEqual(
        expect.arrayContaining([{ field, rule, params: expect.any(Object), message: expect.stringMatching(message) }]),
      );
      expect(answer.json.message).toContain(field);
      expect(answer.json.code).toBe('VALIDATION_FAILED');
    }
    expect((await r.request('GET', '/admin/webhooks')).json).toHaveLength(before);
  });

  it('stores the URL it sends to, as the URL parser reads what was typed', async () => {
    const typed = receiver.url.replace('http://127.0.0.1', 'HTTP://127.000.000.001').replace('/hooks', '/x/../hooks');
    const { endpoint } = await createEndpoint({ url: typed });
    expect(endpoint).toMatchObject({ url: receiver.url });
    const changed = await r.request('PATCH', `/admin/webhooks/${endpoint.id}`, { body: { url: `${typed}?a=1` } });
    expect(changed.json.url).toBe(`${receiver.url}?a=1`);
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}`)).json.url).toBe(`${receiver.url}?a=1`);
  });

  it('disables an endpoint and enables it again (PATCH), and refuses a bad change', async () => {
    const { endpoint } = await createEndpoint();
    const disabled = await r.request('PATCH', `/admin/webhooks/${endpoint.id}`, { body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
    // Nothing is sent to a disabled endpoint: its test event waits.
    expect((await r.request('POST', `/admin/webhooks/${endpoint.id}/test`)).status).toBe(202);
    await deliverDue();
    expect(receiver.received).toHaveLength(0);

    const enabled = await r.request('PATCH', `/admin/webhooks/${endpoint.id}`, {
      body: { enabled: true, eventTypes: ['transfer.failed'], description: null },
    });
    expect(enabled.json).toMatchObject({ enabled: true, disabledAt: null, eventTypes: ['transfer.failed'] });
    await deliverDue();
    expect(receiver.received).toHaveLength(1);

    const bad = await r.request('PATCH', `/admin/webhooks/${endpoint.id}`, {
      body: { enabled: 'yes', url: 'ftp://x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.violations.map((v: { field: string }) => v.field).sort()).toEqual(['enabled', 'url']);
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}`)).json.enabled).toBe(true);
  });

  it('sends a test event to a real receiver, signed so standardwebhooks verifies it; lists the delivery and its attempt', async () => {
    const { endpoint, secret } = await createEndpoint();
    const sent = await r.request('POST', `/admin/webhooks/${endpoint.id}/test`);
    expect(sent.status).toBe(202);
    expect(sent.json).toMatchObject({ endpointId: endpoint.id, eventType: 'webhook.test', state: 'pending' });
    expect(await deliverDue()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(verified(secret, request)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
    expect(request.headers['webhook-id']).toBe(sent.json.eventId);
    expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request)).toThrow();

    const page = await r.request('GET', `/admin/webhooks/${endpoint.id}/deliveries?state=delivered&limit=10`);
    expect(page.status).toBe(200);
    expect(page.json).toEqual({
      items: [expect.objectContaining({ id: sent.json.id, state: 'delivered', attempts: 1, lastStatusCode: 204 })],
      nextCursor: null,
    });
    const delivery = await r.request('GET', `/admin/webhook-deliveries/${sent.json.id}`);
    expect(delivery.json).toMatchObject({ state: 'delivered', payload: { type: 'webhook.test' } });
    expect(delivery.json.payload).toEqual(JSON.parse(request.body));
    const attempts = await r.request('GET', `/admin/webhook-deliveries/${sent.json.id}/attempts`);
    expect(attempts.json).toEqual([expect.objectContaining({ statusCode: 204, error: null })]);
  });

  it('rotates the secret: the new one shown once, both signing during the grace period', async () => {
    const { endpoint, secret: old } = await createEndpoint();
    const rotated = await r.request('POST', `/admin/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    secretsSeen.push(rotated.json.secret);
    expect(rotated.json.secret).toMatch(SECRET);
    expect(rotated.json.secret).not.toBe(old);
    expect(rotated.json.endpoint.previousSecretExpiresAt).toEqual(expect.any(String));
    await r.request('POST', `/admin/webhooks/${endpoint.id}/test`);
    await deliverDue();
    const [request] = receiver.received;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(rotated.json.secret, request).type).toBe('webhook.test');
    expect(verified(old, request).type).toBe('webhook.test');
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}`)).text).not.toContain(rotated.json.secret);
  });

  it("announces a transfer's events, listed per transfer", async () => {
    const { endpoint, secret } = await createEndpoint({ eventTypes: ['transfer.created'] });
    const created = await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 5101 }) });
    expect(created.status).toBe(201);
    await deliverDue();
    const mine = receiver.received.filter((request) => request.headers['webhook-id'] !== undefined);
    const events = mine.map((request) => verified(secret, request));
    expect(events).toEqual([
      expect.objectContaining({ type: 'transfer.created', data: expect.objectContaining({ originId: 5101 }) }),
    ]);
    const perTransfer = await r.request('GET', '/admin/transfers/5101/webhook-deliveries');
    expect(perTransfer.status).toBe(200);
    expect(perTransfer.json.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ endpointId: endpoint.id, eventType: 'transfer.created', state: 'delivered' }),
      ]),
    );
    expect((await r.request('GET', '/admin/transfers/5999/webhook-deliveries')).status).toBe(404);
  });

  it('shows a delivery dead after its last try, delivers it again on request, and every dead one of an endpoint', async () => {
    const { endpoint, secret } = await createEndpoint();
    receiver.state.status = 500;
    const first = (await r.request('POST', `/admin/webhooks/${endpoint.id}/test`)).json;
    const second = (await r.request('POST', `/admin/webhooks/${endpoint.id}/test`)).json;
    for (let attempt = 0; attempt < 3; attempt++) {
      await deliverDue();
      r.clock.advance(1_200);
    }
    const dead = await r.request('GET', `/admin/webhooks/${endpoint.id}/deliveries?state=dead`);
    expect(dead.json.items.map((d: { id: number }) => d.id).sort()).toEqual([first.id, second.id].sort());
    expect(dead.json.items[0]).toMatchObject({
      state: 'dead',
      attempts: 3,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
    });
    const attempts = await r.request('GET', `/admin/webhook-deliveries/${first.id}/attempts`);
    expect(attempts.json).toHaveLength(3);
    expect(attempts.json[2]).toMatchObject({ statusCode: 500, error: 'HTTP 500', response: 'not now' });

    receiver.state.status = 204;
    receiver.received.length = 0;
    const again = await r.request('POST', `/admin/webhook-deliveries/${first.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.id, state: 'pending', attempts: 0 });
    await deliverDue();
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([first.eventId]);
    expect(verified(secret, receiver.received[0]).type).toBe('webhook.test');

    const all = await r.request('POST', `/admin/webhooks/${endpoint.id}/redeliver-dead`);
    expect(all.json).toEqual({ redelivered: 1 });
    await deliverDue();
    expect((await r.request('GET', `/admin/webhook-deliveries/${second.id}`)).json.state).toBe('delivered');

    // This process's attempts, and the outbox's state, in /metrics.
    const metrics = (await r.request('GET', '/metrics', { token: null })).text;
    expect(metrics).toMatch(/^giro_webhook_attempts_total\{outcome="dead"\} [2-9]/m);
    expect(metrics).toMatch(/^giro_webhook_attempts_total\{outcome="retry"\} [4-9]/m);
    expect(metrics).toMatch(/^giro_webhook_attempts_total\{outcome="delivered"\} \d+/m);
    expect(metrics).toMatch(/^giro_webhook_delivery_lag_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^giro_webhook_deliveries_dead 0$/m);
    expect(metrics).toMatch(/^giro_webhook_deliveries_pending \d+$/m);
    expect(metrics).toMatch(/^giro_webhook_oldest_pending_age_seconds \d/m);
  });

  it('answers 404 for an unknown endpoint or delivery, 400 for a malformed id or filter', async () => {
    const unknown = await r.request('GET', '/admin/webhooks/ep_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ statusCode: 404, endpointId: 'ep_nope' });
    expect((await r.request('POST', '/admin/webhooks/ep_nope/test')).status).toBe(404);
    expect((await r.request('GET', '/admin/webhooks/ep_nope/deliveries')).status).toBe(404);
    expect((await r.request('GET', '/admin/webhook-deliveries/999999')).json).toMatchObject({ deliveryId: 999999 });
    const malformed = await r.request('GET', '/admin/webhook-deliveries/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.json.violations[0]).toMatchObject({ field: 'deliveryId' });
    const { endpoint } = await createEndpoint();
    const filter = await r.request('GET', `/admin/webhooks/${endpoint.id}/deliveries?state=lost&limit=0&before=x`);
    expect(filter.status).toBe(400);
    expect(filter.json.violations.map((v: { field: string }) => v.field).sort()).toEqual(['before', 'limit', 'state']);
  });

  it('deletes an endpoint with its deliveries (204, then 404)', async () => {
    const { endpoint } = await createEndpoint();
    const test = (await r.request('POST', `/admin/webhooks/${endpoint.id}/test`)).json;
    const deleted = await r.request('DELETE', `/admin/webhooks/${endpoint.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await r.request('GET', `/admin/webhook-deliveries/${test.id}`)).status).toBe(404);
    expect((await r.request('DELETE', `/admin/webhooks/${endpoint.id}`)).status).toBe(404);
  });

  it('lets a viewer read endpoints and deliveries, and only an admin change them', async () => {
    const { endpoint } = await createEndpoint();
    const keyOf = async (role: string) =>
      (await r.request('POST', '/admin/keys', { body: { name: `webhooks-${role}`, role } })).json.key as string;
    const viewer = await keyOf('viewer');
    const operator = await keyOf('operator');
    expect((await r.request('GET', '/admin/webhooks', { token: viewer })).status).toBe(200);
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}/deliveries`, { token: viewer })).status).toBe(200);
    for (const token of [viewer, operator]) {
      const refused = await r.request('POST', '/admin/webhooks', { token, body: { url: receiver.url } });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ requiredRole: 'admin' });
      expect((await r.request('POST', `/admin/webhooks/${endpoint.id}/rotate-secret`, { token })).status).toBe(403);
      expect((await r.request('POST', `/admin/webhooks/${endpoint.id}/test`, { token })).status).toBe(403);
      expect((await r.request('DELETE', `/admin/webhooks/${endpoint.id}`, { token })).status).toBe(403);
    }
    expect((await r.request('GET', `/admin/webhooks/${endpoint.id}`)).status).toBe(200);
  });

  it('describes every webhook route in the OpenAPI document, with the role it needs', async () => {
    const spec = (await r.request('GET', '/docs-json', { token: null })).json;
    expect(spec.paths['/admin/webhooks'].post['x-giro-role']).toBe('admin');
    expect(spec.paths['/admin/webhooks'].get['x-giro-role']).toBe('viewer');
    expect(spec.paths['/admin/webhooks'].post.responses['201'].content['application/json'].schema).toMatchObject({
      properties: { secret: expect.any(Object), endpoint: expect.any(Object) },
    });
    expect(spec.paths['/admin/webhook-deliveries/{deliveryId}/redeliver'].post['x-giro-role']).toBe('admin');
    expect(spec.paths['/admin/transfers/{originId}/webhook-deliveries'].get['x-giro-role']).toBe('viewer');
  });

  it('never writes a webhook secret to the logs', () => {
    expect(secretsSeen.length).toBeGreaterThan(3);
    for (const secret of secretsSeen) expect(r.logs.text).not.toContain(secret.slice('whsec_'.length));
    expect(r.logs.text).not.toContain('whsec_');
    expect(r.logs.text).toContain('webhook endpoint created');
  });
});

describe('the endpoint of WEBHOOK_URL and WEBHOOK_SECRET', () => {
  it('is registered at start as ep_environment and signed with that secret', async () => {
    const receiver = await startReceiver();
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const r = await startTestReconciler({
      webhooks: {
        options: { allowLoopback: true },
        environmentEndpoint: { url: receiver.url, secret, eventTypes: ['transfer.created'] },
      },
    });
    try {
      const endpoint = await r.request('GET', '/admin/webhooks/ep_environment');
      expect(endpoint.json).toMatchObject({ url: receiver.url, enabled: true, eventTypes: ['transfer.created'] });
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 5201 }) });
      await r.app.get(WebhookDispatcher).deliverDue();
      expect(receiver.received.map((request) => verified(secret, request).type)).toEqual(['transfer.created']);
      expect(r.logs.text).not.toContain(secret.slice('whsec_'.length));
    } finally {
      await r.close();
      await receiver.close();
    }
  });
});
