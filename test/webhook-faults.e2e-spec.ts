import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxBank } from '@giro/sandbox-bank';
import {
  type Clock,
  systemClock,
  type TransferWebhookOptions,
  WebhookDispatcher,
  WebhookService,
} from '@giro/transfer-module';
import type { MovementStore } from '@giro/transfer-module/persistence';
import { sampleIntent } from '@giro/transfer-module/persistence/testing/sample-intent';
import { ManualClock } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, startGiro, startTestSandbox } from './support/giro-harness';
import { waitUntil } from './support/wait-until';
import {
  deliveryProblems,
  type ReceivedRequest,
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/webhook-receiver';

// Webhook delivery against a real receiving HTTP server that fails in every way a receiver does: errors,
// 429 and 503 with Retry-After, 410, hanging, closing the connection, being down, redirecting, answering an
// endless body. At the end every event is delivered, duplicates carry the same id, the events of a transfer
// arrive in order, and every signature verifies with the standardwebhooks library.

const WRITER = 'webhook-faults-writer';

/**
 * The changes of one transfer through the store's real path (each change writes its events to the outbox in
 * its own transaction): the intent (`transfer.created`), then CREATED and IN_PROGRESS (`transfer.status_changed`
 * each): `changes` events.
 */
async function writeTransfer(store: MovementStore, clock: Clock, originId: number, changes: 1 | 2 | 3 = 3) {
  const { intent, fingerprint } = sampleIntent(originId);
  await store.recordIntent(intent, fingerprint, { sendNow: false });
  if (changes === 1) return;
  if ((await store.claim(originId, WRITER, 60_000)) === null) throw new Error(`movement ${originId} not claimed`);
  const steps = [
    { to: 'CREATED', source: 'create' },
    { to: 'IN_PROGRESS', source: 'query' },
  ] as const;
  for (const [index, step] of steps.slice(0, changes - 1).entries()) {
    const result = await store.applyUpdate(originId, WRITER, {
      patch: { status: step.to, lastAnswerAt: clock.now() },
      history: [step],
      releaseLease: index === changes - 2,
    });
    if (!result.applied) throw new Error(`movement ${originId} not updated`);
  }
}

/** Answers the n-th request of each event (0 first) with `plan(eventIndex, n)`; events numbered by first arrival. */
function perEventAnswers(plan: (eventIndex: number, attempt: number) => ReceiverAnswer) {
  const events = new Map<string, number>();
  const attempts = new Map<string, number>();
  return (request: ReceivedRequest): ReceiverAnswer => {
    if (!events.has(request.id)) events.set(request.id, events.size);
    const attempt = attempts.get(request.id) ?? 0;
    attempts.set(request.id, attempt + 1);
    return plan(events.get(request.id) as number, attempt);
  };
}

async function allDeliveries(webhooks: WebhookService, endpointId: string) {
  const page = await webhooks.listDeliveries({ endpointId }, { limit: 500 });
  return page.items;
}

let bank: SandboxBank;
beforeAll(async () => {
  bank = await startTestSandbox(systemClock);
});
afterAll(async () => {
  await bank?.close();
});

describeOnEachEngine('webhook delivery under faults', (engine) => {
  const apps: Giro[] = [];
  const receivers: WebhookReceiver[] = [];
  const start = async (databaseUrl: string, webhooks: TransferWebhookOptions) => {
    const giro = await startGiro(
      await giroOptions(bank, systemClock, { databaseUrl, webhooks: { allowLoopback: true, ...webhooks } }),
    );
    apps.push(giro);
    return giro;
  };
  const receiver = async (answer?: (request: ReceivedRequest) => ReceiverAnswer) => {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    for (const giro of apps.splice(0)) await giro.close();
    for (const started of receivers.splice(0)) await started.close();
  });

  it('a receiver that fails in every way, then is down for a while, gets every event in order, signed', async () => {
    // Events in turn: no fault; 500; 429 (Retry-After) then a hang; a closed connection, one closed mid-answer,
    // then 503. While the transfers are written the receiver also goes down, until an attempt was refused.
    const faults: ReceiverAnswer[][] = [
      [],
      [{ status: 500, body: 'oops' }],
      [{ status: 429, headers: { 'retry-after': '1' } }, 'hang'],
      ['close', 'close-mid-answer', { status: 503 }],
    ];
    const hooks = await receiver(
      perEventAnswers((event, attempt) => faults[event % faults.length][attempt] ?? { status: 204 }),
    );
    const giro = await start(await engine.createDatabaseUrl(), {
      retryDelaysMs: [50, 100, 200, 400, 800, 800, 800, 800, 800, 800, 800, 800, 800, 800],
      timeoutMs: 300,
      pollIntervalMs: 20,
    });
    const webhooks = giro.app.get(WebhookService);
    const { endpoint, secret } = await webhooks.createEndpoint({ url: hooks.url });
    giro.app.get(WebhookDispatcher).start();

    // Every error an attempt met so far, over the deliveries.
    const errorsSoFar = async () => {
      const errors = new Set<string>();
      for (const delivery of await allDeliveries(webhooks, endpoint.id)) {
        for (const attempt of await webhooks.listAttempts(delivery.id)) errors.add(attempt.error ?? 'none');
      }
      return errors;
    };
    for (let originId = 1; originId <= 12; originId++) {
      await writeTransfer(giro.store, systemClock, originId);
      if (originId === 4) await hooks.down();
      // Down until an attempt was refused (at once, or later on a loaded machine), then up again.
      if (originId === 8) await waitUntil(async () => (await errorsSoFar()).has('connection refused'), 20_000);
      if (originId === 8) await hooks.up();
    }

    await waitUntil(
      async () => (await allDeliveries(webhooks, endpoint.id)).every((delivery) => delivery.state === 'delivered'),
      60_000,
      () => hooks.requests.length,
    );
    const deliveries = await allDeliveries(webhooks, endpoint.id);
    expect(deliveries).toHaveLength(36);
    expect(deliveryProblems(hooks.requests, deliveries, [secret])).toEqual([]);
    expect(hooks.concurrentDuplicates).toEqual([]);
    // The faults happened: attempts beyond one per event, and connections refused while the receiver was down.
    expect(hooks.requests.length).toBeGreaterThan(36);
    const errors = await errorsSoFar();
    expect([...errors].sort()).toEqual(
      expect.arrayContaining([
        'HTTP 429',
        'HTTP 500',
        'HTTP 503',
        'connection refused',
        'no answer within 300 ms',
        'the connection was closed before an answer',
        'none',
      ]),
    );
  }, 90_000);

  it('two dispatchers on one database deliver every event exactly once, never the same one at once', async () => {
    const hooks = await receiver(() => ({ status: 204, delayMs: 40 }));
    const databaseUrl = await engine.createDatabaseUrl();
    const options = { pollIntervalMs: 20, retryDelaysMs: [100] };
    const first = await start(databaseUrl, { ...options, maxInFlight: 2 });
    const second = await start(databaseUrl, { ...options, maxInFlight: 8 });
    const webhooks = first.app.get(WebhookService);
    const { endpoint, secret } = await webhooks.createEndpoint({ url: hooks.url });
    const attempted = [0, 0];
    for (const [index, giro] of [first, second].entries()) {
      const dispatcher = giro.app.get(WebhookDispatcher);
      dispatcher.observe({ attempted: () => attempted[index]++ });
      dispatcher.start();
    }
    for (let originId = 1; originId <= 20; originId++) await writeTransfer(first.store, systemClock, originId);

    await waitUntil(
      async () => (await allDeliveries(webhooks, endpoint.id)).every((delivery) => delivery.state === 'delivered'),
      60_000,
      () => ({ received: hooks.requests.length, attempted }),
    );
    const deliveries = await allDeliveries(webhooks, endpoint.id);
    expect(deliveries).toHaveLength(60);
    expect(hooks.concurrentDuplicates).toEqual([]);
    // No faults, so no attempt was repeated: each event arrived once.
    expect(hooks.requests).toHaveLength(60);
    expect(new Set(hooks.requests.map((request) => request.id)).size).toBe(60);
    expect(deliveryProblems(hooks.requests, deliveries, [secret])).toEqual([]);
    // Both took part (the first one can hold only 2 at a time, each answered after 40 ms).
    expect(attempted[0]).toBeGreaterThan(0);
    expect(attempted[1]).toBeGreaterThan(0);
    expect(attempted[0] + attempted[1]).toBe(60);
  }, 90_000);
});

// What the receiver's answers make of each attempt: one engine is enough (the store's side is the same on
// both, covered above and in the store's spec). Driven pass by pass with deliverDue() on a manual clock that
// starts now (receivers check the signatures' times), so no test waits for a retry.
describe('webhook attempts against a misbehaving receiver (SQLite)', () => {
  let dir: string;
  let databases = 0;
  let giro: Giro | undefined;
  const receivers: WebhookReceiver[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-webhook-faults-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await giro?.close();
    giro = undefined;
    for (const started of receivers.splice(0)) await started.close();
  });

  /** `answers`: the receiver's answers in turn (204 after them), or a function of the clock and the request's rank. */
  async function setUp(
    answers: ReceiverAnswer[] | ((clock: ManualClock, rank: number) => ReceiverAnswer),
    webhookOptions: TransferWebhookOptions = {},
  ) {
    const clock = new ManualClock(Date.now());
    let next = 0;
    const answer = typeof answers === 'function' ? answers : (_: ManualClock, rank: number) => answers[rank];
    const hooks = await startWebhookReceiver(() => answer(clock, next++) ?? { status: 204 });
    receivers.push(hooks);
    databases += 1;
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: `sqlite:${join(dir, `giro-${databases}.sqlite`)}`,
        webhooks: { allowLoopback: true, retryDelaysMs: [1_000, 1_000, 600_000], ...webhookOptions },
      }),
    );
    const webhooks = giro.app.get(WebhookService);
    const { endpoint, secret } = await webhooks.createEndpoint({ url: hooks.url });
    const dispatcher = giro.app.get(WebhookDispatcher);
    const only = async () => {
      const [delivery] = await allDeliveries(webhooks, endpoint.id);
      return { delivery, attempts: await webhooks.listAttempts(delivery.id) };
    };
    return { clock, hooks, giro, webhooks, endpoint, secret, dispatcher, only };
  }

  it('429 and 503 with Retry-After: the next attempt waits at least as long as asked', async () => {
    // The receiver asks for 60 s in seconds, then for 120 s as an HTTP date (of the clock giro signs with).
    const { clock, hooks, giro, dispatcher, only, secret } = await setUp((now, rank) => {
      if (rank === 0) return { status: 429, headers: { 'retry-after': '60' } };
      if (rank === 1) {
        return { status: 503, headers: { 'retry-after': new Date(now.now().getTime() + 120_000).toUTCString() } };
      }
      return { status: 204 };
    });
    await writeTransfer(giro.store, clock, 1, 1);

    expect(await dispatcher.deliverDue()).toBe(1);
    clock.advance(59_000);
    expect(await dispatcher.deliverDue()).toBe(0);
    clock.advance(1_000);
    expect(await dispatcher.deliverDue()).toBe(1);
    clock.advance(118_000);
    expect(await dispatcher.deliverDue()).toBe(0);
    clock.advance(2_000);
    expect(await dispatcher.deliverDue()).toBe(1);

    const { delivery, attempts } = await only();
    expect(delivery.state).toBe('delivered');
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([429, 503, 204]);
    const at = attempts.map((attempt) => Date.parse(attempt.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(60_000);
    // An HTTP date has whole seconds: at least 119 s after the attempt that was answered with it.
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(119_000);
    expect(hooks.requests).toHaveLength(3);
    expect(deliveryProblems(hooks.requests, [delivery], [secret])).toEqual([]);
  });

  it('410 disables the endpoint: its deliveries wait until it is enabled again, then all arrive in order', async () => {
    // One attempt at a time, so that the 410 comes before any other delivery is tried.
    const { clock, hooks, giro, dispatcher, webhooks, endpoint, secret } = await setUp([{ status: 410 }], {
      maxInFlight: 1,
    });
    await writeTransfer(giro.store, clock, 1);
    await writeTransfer(giro.store, clock, 2);
    expect(await dispatcher.deliverDue()).toBe(1);
    const disabled = await webhooks.getEndpoint(endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone' });

    clock.advance(5_000);
    expect(await dispatcher.deliverDue()).toBe(0);
    expect(hooks.requests).toHaveLength(1);
    const waiting = await allDeliveries(webhooks, endpoint.id);
    expect(waiting).toHaveLength(6);
    expect(waiting.every((delivery) => delivery.state === 'pending')).toBe(true);
    // Like an endpoint an operator disables, it is not given the events written meanwhile.
    await writeTransfer(giro.store, clock, 3);
    expect(await allDeliveries(webhooks, endpoint.id)).toHaveLength(6);

    expect(await webhooks.updateEndpoint(endpoint.id, { enabled: true })).toMatchObject({ enabled: true });
    expect(await dispatcher.deliverDue()).toBe(6);
    await writeTransfer(giro.store, clock, 4);
    expect(await dispatcher.deliverDue()).toBe(3);
    const deliveries = await allDeliveries(webhooks, endpoint.id);
    expect(deliveries).toHaveLength(9);
    expect(deliveries.every((delivery) => delivery.state === 'delivered')).toBe(true);
    expect(hooks.requests).toHaveLength(10);
    expect(deliveryProblems(hooks.requests, deliveries, [secret])).toEqual([]);
  });

  it('a receiver that hangs is given up at the timeout and the event tried again with the same id', async () => {
    const { clock, hooks, giro, dispatcher, only, secret } = await setUp(['hang'], { timeoutMs: 300 });
    await writeTransfer(giro.store, clock, 1, 1);
    expect(await dispatcher.deliverDue()).toBe(1);
    let { delivery, attempts } = await only();
    expect(delivery.state).toBe('pending');
    expect(attempts).toEqual([expect.objectContaining({ statusCode: null, error: 'no answer within 300 ms' })]);
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(250);

    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);
    ({ delivery, attempts } = await only());
    expect(delivery.state).toBe('delivered');
    expect(hooks.requests.map((request) => request.id)).toEqual([delivery.eventId, delivery.eventId]);
    expect(deliveryProblems(hooks.requests, [delivery], [secret])).toEqual([]);
  });

  it('a connection closed before or during the answer, or refused, is a failed attempt tried again', async () => {
    const { clock, hooks, giro, dispatcher, only, secret } = await setUp(['close', 'close-mid-answer'], {
      retryDelaysMs: [1_000, 1_000, 1_000, 600_000],
    });
    await writeTransfer(giro.store, clock, 1, 1);
    expect(await dispatcher.deliverDue()).toBe(1);
    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);
    await hooks.down();
    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);
    await hooks.up();
    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);

    const { delivery, attempts } = await only();
    expect(delivery.state).toBe('delivered');
    expect(attempts.map(({ statusCode, error }) => [statusCode, error])).toEqual([
      [null, 'the connection was closed before an answer'],
      [null, 'the connection was closed before an answer'],
      [null, 'connection refused'],
      [204, null],
    ]);
    expect(hooks.requests).toHaveLength(3);
    expect(deliveryProblems(hooks.requests, [delivery], [secret])).toEqual([]);
  });

  it('a redirect is not followed: the attempt fails and the target of the redirect hears nothing', async () => {
    const elsewhere = await startWebhookReceiver();
    receivers.push(elsewhere);
    const { clock, hooks, giro, dispatcher, only } = await setUp([
      { status: 302, headers: { location: elsewhere.url } },
      { status: 307, headers: { location: elsewhere.url } },
    ]);
    await writeTransfer(giro.store, clock, 1, 1);
    expect(await dispatcher.deliverDue()).toBe(1);
    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);
    clock.advance(1_100);
    expect(await dispatcher.deliverDue()).toBe(1);

    const { delivery, attempts } = await only();
    expect(attempts.map(({ statusCode, error }) => [statusCode, error])).toEqual([
      [302, 'HTTP 302 (redirects are not followed)'],
      [307, 'HTTP 307 (redirects are not followed)'],
      [204, null],
    ]);
    expect(delivery.state).toBe('delivered');
    expect(hooks.requests).toHaveLength(3);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a 100 MB answer is not buffered: giro reads a bounded start, records the attempt and an excerpt', async () => {
    const size = 100 * 1024 * 1024;
    const { clock, hooks, giro, dispatcher, only } = await setUp([{ hugeBodyBytes: size }], { timeoutMs: 5_000 });
    await writeTransfer(giro.store, clock, 1, 1);
    expect(await dispatcher.deliverDue()).toBe(1);

    const { delivery, attempts } = await only();
    expect(delivery.state).toBe('delivered');
    expect(attempts).toHaveLength(1);
    expect(attempts[0].statusCode).toBe(200);
    expect(attempts[0].response).toMatch(/^y+$/);
    expect((attempts[0].response as string).length).toBeLessThanOrEqual(1024);
    // giro dropped the connection after its bound: the receiver could write only what fits in the sockets'
    // buffers, nowhere near the 100 MB.
    await waitUntil(() => hooks.requests.length === 1, 5_000);
    expect(hooks.bodyBytesWritten()).toBeLessThan(size / 10);
  });
});
