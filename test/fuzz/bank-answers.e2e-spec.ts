import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFinalStatus, type MovementView } from '@giro/transfer-module';
import { movementAnswer } from '@giro/transfer-module/bank/testing/bank-fixtures';
import {
  type MtlsTestServer,
  type RecordedRequest,
  startMtlsTestServer,
} from '@giro/transfer-module/bank/testing/mtls-test-server';
import { type ManualClock } from '@giro/transfer-module/testing';
import {
  type Giro,
  manualClock,
  POLLING,
  startGiro,
  testCertificates,
  transferRequest,
} from '@test-support/giro-harness';
import fc from 'fast-check';
import { type BankAnswer, creationAnswer, lookupAnswer, subAccount } from './bank-answer-arbitraries';

// giro (TransferService + SweepService on SQLite) against a real mutual-TLS server that answers with
// fuzzed garbage: broken JSON, HTML pages, missing and mistyped fields, unknown statuses, answers about
// another originId, bodies over the read limit, connections cut or hanging. Nothing may crash, nothing may
// become final, no other originId may be sent; once the server answers properly, the transfer completes.

const RUNS = 40;
/** Short, so a hanging answer costs 200 ms. */
const TIMEOUTS = { connectMs: 1_000, headersMs: 200, bodyMs: 200 };

describe('bad answers from the bank', () => {
  let dir: string;
  let clock: ManualClock;
  let server: MtlsTestServer;
  let giro: Giro;
  const queues: { create: BankAnswer[]; lookup: BankAnswer[] } = { create: [], lookup: [] };
  let recovering = false;
  const asked: { operation: 'create' | 'lookup'; originId: unknown }[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const played: Record<string, number> = {};
  let runs = 0;
  let held = false;

  const answer = (request: RecordedRequest, response: ServerResponse) => {
    const operation = request.path.endsWith('/transfer-request') ? 'create' : 'lookup';
    const originId = (JSON.parse(request.body.toString('utf8')) as { originId?: unknown }).originId;
    asked.push({ operation, originId });
    if (recovering) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const account = subAccount(transferRequest('fuzz').from.address);
      response.end(JSON.stringify({ ...movementAnswer(originId as number, 'COMPLETED'), thisSubAccount: account }));
      return;
    }
    const next = queues[operation].shift();
    if (next === undefined) {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end('{"code":"UNAVAILABLE"}');
      return;
    }
    played[next.kind] = (played[next.kind] ?? 0) + 1;
    play(next, originId as number, response);
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    dir = mkdtempSync(join(tmpdir(), 'giro-fuzz-answers-'));
    const certs = await testCertificates();
    server = await startMtlsTestServer({ ca: certs.ca.cert, cert: certs.server.cert, key: certs.server.key }, answer);
    clock = manualClock();
    giro = await startGiro({
      bank: {
        baseUrl: server.url,
        tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
        auth: { token: 'fuzz-token' },
        timeouts: TIMEOUTS,
      },
      clock,
      polling: { ...POLLING, maxJitterMs: 20, maxBackoffMs: 800, allowBelowSpec: true },
      databaseUrl: `sqlite:${join(dir, 'giro.sqlite')}`,
    });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await giro?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    const answers = Object.values(played).reduce((sum, n) => sum + n, 0);
    const kinds = Object.keys(played).length;
    console.log(
      `bank answers fuzz: ${runs} runs, ${answers} bad answers of ${kinds} kinds over mutual TLS, ` +
        (held
          ? 'crashes 0, final by mistake 0, other originIds 0, unhandled rejections 0, every transfer COMPLETED once the bank answered properly'
          : 'BROKEN (counterexample above)'),
    );
  });

  const expectNotFinal = (movement: MovementView, history: string) => {
    expect({ status: movement.status, final: isFinalStatus(movement.status), history }).toMatchObject({
      final: false,
    });
    expect(movement.cancellation).toBeNull();
  };

  it('never crash, never make a movement final by mistake, never send another originId', async () => {
    let originId = 70_000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(creationAnswer, { minLength: 1, maxLength: 4 }),
        fc.array(lookupAnswer, { maxLength: 6 }),
        async (creates, lookups) => {
          runs += 1;
          originId += 1;
          recovering = false;
          queues.create = [...creates];
          queues.lookup = [...lookups];
          asked.length = 0;
          const history = [...creates, ...lookups].map((a) => a.kind).join(' | ');

          const { movement } = await giro.transfers.requestTransfer(transferRequest('fuzz', { originId }));
          expectNotFinal(movement, history);
          for (let step = 0; step < 8 && queues.create.length + queues.lookup.length > 0; step++) {
            clock.advance(2_000);
            await giro.reconcile.sweep();
            expectNotFinal(await giro.movements.getMovement(originId), history);
          }
          expect(asked.filter((request) => request.originId !== originId)).toEqual([]);
          expect(unhandled).toEqual([]);

          // A bank that answers properly again: a refresh brings the transfer to its final state (a few tries,
          // for a loaded machine where even a proper answer can miss the 200 ms timeout).
          recovering = true;
          let status = (await giro.movements.getMovement(originId)).status;
          for (let attempt = 0; attempt < 5 && status !== 'COMPLETED'; attempt++) {
            clock.advance(2_000);
            status = (await giro.bankLookups.refreshMovement(originId)).status;
          }
          expect(status).toBe('COMPLETED');
          // The bank's details of that proper answer, thisSubAccount the account the transfer was sent from.
          expect((await giro.movements.getMovement(originId)).bank).toMatchObject({
            networkId: `net-${originId}`,
            typeDescription: 'Transferencia enviada',
            thisSubAccount: { accountRouting: { address: transferRequest('fuzz').from.address } },
          });
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    held = true;
  }, 300_000);
});

function play(answer: BankAnswer, originId: number, response: ServerResponse): void {
  switch (answer.mode) {
    case 'respond':
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body(originId));
      return;
    case 'cut-mid-body': {
      const body = answer.body(originId);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length + 10) });
      response.write(body.slice(0, Math.floor(body.length / 2)));
      setImmediate(() => response.socket?.destroy());
      return;
    }
    case 'cut':
      response.socket?.destroy();
      return;
    case 'hang':
      return;
  }
}
