import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxBank } from '@giro/sandbox-bank';
import {
  completeCbuCvu,
  completeCuit,
  type ManualClock,
  MovementStore,
  ReconcileService,
  TransferService,
} from '@giro/transfer-module';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import {
  manualClock,
  POLLING,
  sandboxBankOptions,
  startTestSandbox,
  sweepUntilFinal,
} from '@test-support/giro-harness';
import type { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import type { HostConfig } from './host-config';
import { PayoutsService } from './payouts/payouts.service';

// The example host application against the sandbox bank, in process: it pays out through giro, follows its
// transfers with giro's sweep, and hears from giro when a payout is paid or must be cancelled.

const PAYER = { cbu: completeCbuCvu('0000003', '1000000000017'), cuit: completeCuit('3071234567') as string };
const RECIPIENT = {
  recipientCbu: completeCbuCvu('2850590', '9400900418135'),
  recipientCuit: completeCuit('2012345678') as string,
};

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('example host application', () => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let dataDir: string;
  let app: INestApplicationContext;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    dataDir = mkdtempSync(join(tmpdir(), 'giro-host-app-'));
    const config: HostConfig = {
      dataDir,
      payer: PAYER,
      bank: await sandboxBankOptions(bank.url),
      sweepEveryMs: 0, // the test sweeps, moving the clock
      giro: { clock, polling: { ...POLLING, maxJitterMs: 20 } },
    };
    app = await (await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile()).init();
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

    await sweepUntilFinal({ reconcile: app.get(ReconcileService), store: app.get(MovementStore) }, clock);
    await waitFor(async () => (await payouts.byOriginId(payout.originId)).status === 'paid');
    expect((await app.get(TransferService).getMovement(payout.originId)).status).toBe('COMPLETED');
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

    await sweepUntilFinal({ reconcile: app.get(ReconcileService), store: app.get(MovementStore) }, clock);
    await waitFor(async () => (await payouts.byOriginId(payout.originId)).status === 'cancelled');
    const transfers = app.get(TransferService);
    await waitFor(async () => (await transfers.listCancellations({ acknowledged: false })).length === 0);
    expect(await transfers.listCancellations({ acknowledged: true })).toEqual([
      expect.objectContaining({ originId: payout.originId, amount: '80.00' }),
    ]);
  });

  it('repeats a payout’s request after a crash without paying twice', async () => {
    const payouts = app.get(PayoutsService);
    const payout = await payouts.payOut({ ...RECIPIENT, amount: '10.00', reference: 'rent' });
    const again = await payouts.send(payout); // as a restarted process would, not knowing whether it went out
    expect(again).toMatchObject({ originId: payout.originId, status: 'in_flight' });
    expect(bank.counters()).toMatchObject({ processed: 1, duplicates: 0 });
  });
});
