import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCertificates, type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import {
  CancellationService,
  completeCbuCvu,
  completeCuit,
  MovementService,
  SweepService,
  TransferOverviewService,
} from '@giro/transfer-module';
import { ManualClock, sweepUntilFinal } from '@giro/transfer-module/testing';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import type { HostConfig } from './host-config';
import { PayoutsService } from './payouts/payouts.service';

// The example host application against the sandbox bank, in process: it pays out through giro, follows its
// transfers with giro's sweep, hears from giro when a payout is paid or must be cancelled, and serves giro's
// admin API with its own token. Like any application outside giro's repository, it uses the packages' public
// exports only.

const PAYER = { cbu: completeCbuCvu('0000003', '1000000000017'), cuit: completeCuit('3071234567') as string };
const RECIPIENT = {
  recipientCbu: completeCbuCvu('2850590', '9400900418135'),
  recipientCuit: completeCuit('2012345678') as string,
};

/** The polling rule scaled down 50×, audited by the sandbox with the same numbers. */
const POLLING = { minIntervalMs: 100, delayedMinIntervalMs: 1_000 };

/** This application's admin token (ADMIN_TOKEN when it runs as a process). */
const ADMIN_TOKEN = 'host-app-admin-token-0123456789';

/** The sandbox bank on a free port, on the test's clock, and the client options that reach it. */
async function startSandbox(clock: ManualClock) {
  const certs = await createDevCertificates();
  const bank = await startSandboxBank({
    tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
    clock,
    config: { timings: { createdMs: 100, inProgressMs: 300, delayedMs: 1_500 }, polling: POLLING },
  });
  const bankOptions: HostConfig['bank'] = {
    baseUrl: bank.url,
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'sandbox-token' },
    hmac: { secret: 'sandbox-hmac-secret' },
  };
  return { bank, bankOptions };
}

/** Waits (bounded, real time: generous, as a loaded machine can be slow) for `condition`. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('example host application', () => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let dataDir: string;
  let app: INestApplication;
  let url: string;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2024, 4, 1, 12));
    const sandbox = await startSandbox(clock);
    bank = sandbox.bank;
    dataDir = mkdtempSync(join(tmpdir(), 'giro-host-app-'));
    const config: HostConfig = {
      dataDir,
      payer: PAYER,
      bank: sandbox.bankOptions,
      sweepEveryMs: 0, // the test sweeps, moving the clock
      adminToken: ADMIN_TOKEN,
      giro: { clock, polling: { ...POLLING, maxJitterMs: 20, allowBelowSpec: true } },
    };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });
  afterEach(async () => {
    await app.close();
    await bank.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('pays out through giro and marks the payout paid when the bank completes it', async () => {
    const payouts = app.get(PayoutsService);
    const payout = await payouts.payOut({ ...RECIPIENT, amount: '1500.00', reference: 'invoice 17' });
    expect(payout).toMatchObject({ status: 'in_flight', amount: '1500.00' });
    expect(bank.ledger.entry(payout.originId)).toMatchObject({ status: 'CREATED' });

    await sweepUntilFinal({ reconcile: app.get(SweepService), overview: app.get(TransferOverviewService) }, clock);
    await waitFor(async () => (await payouts.byOriginId(payout.originId)).status === 'paid');
    expect((await app.get(MovementService).getMovement(payout.originId)).status).toBe('COMPLETED');
    // The application's table and giro's live in the application's own TypeORM data sources.
    expect(await app.get<DataSource>(getDataSourceToken()).query('SELECT "status" FROM "payouts"')).toEqual([
      { status: 'paid' },
    ]);
    expect(
      await app.get<DataSource>(getDataSourceToken('giro')).query('SELECT "status" FROM "giro_movements"'),
    ).toEqual([{ status: 'COMPLETED' }]);
  });

  it('cancels a payout the bank failed, and registers the cancellation with giro', async () => {
    const payouts = app.get(PayoutsService);
    const payout = await payouts.payOut({ ...RECIPIENT, amount: '80.00', reference: 'refund [fail]' });

    await sweepUntilFinal({ reconcile: app.get(SweepService), overview: app.get(TransferOverviewService) }, clock);
    await waitFor(async () => (await payouts.byOriginId(payout.originId)).status === 'cancelled');
    const cancellations = app.get(CancellationService);
    await waitFor(async () => (await cancellations.listCancellations({ acknowledged: false })).length === 0);
    expect(await cancellations.listCancellations({ acknowledged: true })).toEqual([
      expect.objectContaining({ originId: payout.originId, amount: '80.00' }),
    ]);
  });

  it('serves giro’s admin API with its own token: the payout’s movement with it, 401 without', async () => {
    const payout = await app.get(PayoutsService).payOut({ ...RECIPIENT, amount: '25.00', reference: 'admin' });
    const get = (headers: Record<string, string>) => fetch(`${url}/admin/transfers/${payout.originId}`, { headers });

    const answer = await get({ authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ originId: payout.originId, status: 'CREATED', amount: '25.00' });
    for (const headers of [{}, { authorization: 'Bearer another-token-0123456789' }] as Record<string, string>[]) {
      const refused = await get(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }

    // POST /admin/reconcile runs giro's sweep in this application.
    clock.advance(1_000);
    const sweep = await fetch(`${url}/admin/reconcile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(sweep.status).toBe(200);
    expect(await sweep.json()).toMatchObject({ claimed: 1, queried: 1 });
  });

  it('repeats a payout’s request after a crash without paying twice', async () => {
    const payouts = app.get(PayoutsService);
    const payout = await payouts.payOut({ ...RECIPIENT, amount: '10.00', reference: 'rent' });
    const again = await payouts.send(payout); // as a restarted process would, not knowing whether it went out
    expect(again).toMatchObject({ originId: payout.originId, status: 'in_flight' });
    expect(bank.counters()).toMatchObject({ processed: 1, duplicates: 0 });
  });
});
