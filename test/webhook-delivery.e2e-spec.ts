import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxBank } from '@giro/sandbox-bank';
import { ApprovalService, systemClock, WebhookDispatcher, WebhookService } from '@giro/transfer-module';
import { Webhook } from 'standardwebhooks';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, startGiro, startTestSandbox, transferRequest } from './support/giro-harness';

// Transfers sent to the sandbox bank and followed to their final state announce every change to a real HTTP
// receiver, which verifies each delivery with the standardwebhooks library, as a host in any language would.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver(answer: (request: Received) => number = () => 204) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      response.writeHead(answer(entry)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sweeps until every movement is final: on the system clock, since receivers check the signatures' times. */
async function sweepInRealTime(giro: Giro): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const counts = await giro.overview.countByStatus();
    if (counts.PENDING + counts.CREATED + counts.IN_PROGRESS + counts.DELAYED === 0) return;
    if (Date.now() > deadline) throw new Error(`not final in time: ${JSON.stringify(counts)}`);
    await giro.reconcile.sweep();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeOnEachEngine('webhook delivery', (engine) => {
  let bank: SandboxBank;
  let giro: Giro;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeEach(async () => {
    bank = await startTestSandbox(systemClock);
    receiver = await startReceiver();
    giro = await startGiro(
      await giroOptions(bank, systemClock, {
        databaseUrl: await engine.createDatabaseUrl(),
        webhooks: { allowLoopback: true, retryDelaysMs: [20, 40] },
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await receiver.close();
    await bank.close();
  });

  it('delivers every change of every transfer, signed, in order per transfer', async () => {
    const webhooks = giro.app.get(WebhookService);
    const { secret } = await webhooks.createEndpoint({ url: receiver.url });
    await giro.transfers.requestTransfer(transferRequest('ok', { originId: 801 }));
    await giro.transfers.requestTransfer(transferRequest('[fail]', { originId: 802 }));
    await sweepInRealTime(giro);
    const dispatcher = giro.app.get(WebhookDispatcher);
    expect(await dispatcher.deliverDue()).toBeGreaterThan(0);

    const verifier = new Webhook(secret);
    const events = receiver.received.map(({ headers, body }) => {
      const payload = verifier.verify(body, headers as Record<string, string>) as {
        type: string;
        data: { originId: number; to?: string; movement: { status: string } };
      };
      return { id: headers['webhook-id'], type: payload.type, originId: payload.data.originId, to: payload.data.to };
    });
    const of = (originId: number) =>
      events.filter((event) => event.originId === originId).map(({ type, to }) => [type, to]);
    expect(of(801)[0]).toEqual(['transfer.created', undefined]);
    expect(of(801).at(-1)).toEqual(['transfer.completed', undefined]);
    expect(of(802).at(-1)).toEqual(['transfer.failed', undefined]);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);

    const page = await webhooks.listDeliveries({}, { limit: 100 });
    expect(page.items.every((delivery) => delivery.state === 'delivered')).toBe(true);
    expect(page.items).toHaveLength(events.length);
  });

  it('announces the approvals: awaiting, approved, rejected', async () => {
    await giro.close();
    giro = await startGiro(
      await giroOptions(bank, systemClock, {
        databaseUrl: await engine.createDatabaseUrl(),
        webhooks: { allowLoopback: true, retryDelaysMs: [20, 40] },
        approvals: { requiredAbove: '1000.00' },
      }),
    );
    const { secret } = await giro.app.get(WebhookService).createEndpoint({ url: receiver.url });
    const maker = { keyId: 'k_maker', name: 'maker' };
    const checker = { keyId: 'k_checker', name: 'checker' };
    await giro.transfers.requestTransfer(transferRequest('ok', { originId: 821, amount: '5000.00' }), { by: maker });
    await giro.transfers.requestTransfer(transferRequest('ok', { originId: 822, amount: '5000.00' }), { by: maker });
    const approvals = giro.app.get(ApprovalService);
    await approvals.approve(821, checker);
    await approvals.reject(822, { reason: 'duplicate payout' }, checker);
    await giro.app.get(WebhookDispatcher).deliverDue();

    const verifier = new Webhook(secret);
    const events = receiver.received.map(({ headers, body }) => {
      const { type, data } = verifier.verify(body, headers as Record<string, string>) as {
        type: string;
        data: { originId: number; by?: { name: string } | null; reason?: string | null };
      };
      return { type, originId: data.originId, by: data.by?.name, reason: data.reason };
    });
    const of = (originId: number) => events.filter((event) => event.originId === originId);
    expect(of(821).slice(0, 4)).toEqual([
      { type: 'transfer.created', originId: 821, by: undefined, reason: undefined },
      { type: 'transfer.awaiting_approval', originId: 821, by: undefined, reason: undefined },
      { type: 'transfer.status_changed', originId: 821, by: undefined, reason: undefined },
      { type: 'transfer.approved', originId: 821, by: 'checker', reason: undefined },
    ]);
    expect(of(822)).toEqual([
      { type: 'transfer.created', originId: 822, by: undefined, reason: undefined },
      { type: 'transfer.awaiting_approval', originId: 822, by: undefined, reason: undefined },
      { type: 'transfer.status_changed', originId: 822, by: undefined, reason: undefined },
      { type: 'transfer.rejected', originId: 822, by: 'checker', reason: 'duplicate payout' },
    ]);
  });

  it('retries a failing receiver on its schedule, then gives up and shows the delivery dead', async () => {
    await receiver.close();
    receiver = await startReceiver(() => 500);
    const webhooks = giro.app.get(WebhookService);
    const { endpoint } = await webhooks.createEndpoint({ url: receiver.url, eventTypes: ['transfer.created'] });
    await giro.transfers.requestTransfer(transferRequest('ok', { originId: 811 }));
    const dispatcher = giro.app.get(WebhookDispatcher);
    for (let pass = 0; pass < 50; pass++) {
      await dispatcher.deliverDue();
      const [delivery] = (await webhooks.listDeliveries({ endpointId: endpoint.id }, { limit: 10 })).items;
      if (delivery.state === 'dead') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [dead] = (await webhooks.listDeliveries({ endpointId: endpoint.id }, { limit: 10 })).items;
    expect(dead).toMatchObject({ state: 'dead', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500' });
    expect(receiver.received).toHaveLength(3);
    // Every attempt carries the same event id.
    expect(new Set(receiver.received.map(({ headers }) => headers['webhook-id'])).size).toBe(1);
    expect(await webhooks.listAttempts(dead.id)).toHaveLength(3);
  });
});
