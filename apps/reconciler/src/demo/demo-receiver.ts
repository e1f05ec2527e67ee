import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookService } from '@giro/transfer-module';
import { Webhook } from 'standardwebhooks';
import type { WebhookTally } from './progress-display';

/** What marks the demo's endpoint, so that a later `pnpm start` replaces it instead of piling up dead ones. */
export const DEMO_ENDPOINT_DESCRIPTION = 'the demo receiver of pnpm start (sandbox mode)';

/** Bodies larger than this are refused (a webhook of giro is a few KiB). */
const MAX_BODY_BYTES = 256 * 1024;

export interface DemoReceiver {
  url: string;
  /** The endpoint registered for it. */
  endpointId: string;
  /** Events received and verified, by type; refused ones (bad signature). */
  tally(): WebhookTally;
  /** True once none of its deliveries is pending (or after `timeoutMs`). */
  drained(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Sandbox mode's webhook receiver: a small HTTP server on 127.0.0.1 that a host would write from giro's docs —
 * it verifies each delivery with the standardwebhooks library (answering 401 when the signature does not hold,
 * 204 otherwise) and counts the events by type, for the progress display. It is registered as an endpoint of
 * its own (every event type; an earlier demo's endpoint is deleted first), before the batch is submitted, so
 * that every change of the batch is delivered to it. Its secret stays in this process: never printed or logged.
 */
export async function startDemoReceiver(webhooks: WebhookService): Promise<DemoReceiver> {
  const byType: Record<string, number> = {};
  const seen = new Set<string>();
  let received = 0;
  let refused = 0;
  let verifier: Webhook | undefined;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        if (verifier === undefined || size > MAX_BODY_BYTES) throw new Error('not ready');
        const event = verifier.verify(
          Buffer.concat(chunks).toString('utf8'),
          request.headers as Record<string, string>,
        );
        // At least once: a repeated webhook-id is the same event, counted once.
        const id = String(request.headers['webhook-id']);
        if (!seen.has(id)) {
          seen.add(id);
          received++;
          const { type } = event as { type: string };
          byType[type] = (byType[type] ?? 0) + 1;
        }
        response.writeHead(204).end();
      } catch {
        refused++;
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));

  try {
    for (const endpoint of await webhooks.listEndpoints()) {
      if (endpoint.description === DEMO_ENDPOINT_DESCRIPTION) await webhooks.deleteEndpoint(endpoint.id);
    }
    const { endpoint, secret } = await webhooks.createEndpoint({ url, description: DEMO_ENDPOINT_DESCRIPTION });
    verifier = new Webhook(secret);
    return {
      url,
      endpointId: endpoint.id,
      tally: () => ({ received, refused, byType: { ...byType } }),
      async drained(timeoutMs) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const page = await webhooks.listDeliveries({ endpointId: endpoint.id, state: 'pending' }, { limit: 1 });
          if (page.items.length === 0) return true;
          if (Date.now() >= deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
