import type { SandboxBank } from '@giro/sandbox-bank';
import { giroOptions, manualClock, startTestSandbox } from '@test-support/giro-harness';
import { BankClient } from '../../bank';
import type { ManualClock } from '../../domain';
import { senderFixture } from '../../movement/testing/sender-fixture';
import { resolveTransferModuleOptions, type TransferModuleOptions } from '../../options';
import type { TestEngine } from '../../persistence/testing/test-engines';
import { BankLookupService } from '../bank-lookup.service';
import { BankLookups } from '../bank-lookups';
import { MovementService } from '../movement.service';
import { TransferService } from '../transfer.service';

/**
 * The transfer services (creating, reading, asking the bank) built by hand against a sandbox bank on a manual clock, one per test (call inside a
 * describe: it registers the hooks that start and close the sandbox and the bank client).
 */
export function transferServiceFixture(engine: TestEngine) {
  const fixture = {} as { bank: SandboxBank; clock: ManualClock; client: BankClient | undefined };
  beforeEach(async () => {
    fixture.clock = manualClock();
    fixture.bank = await startTestSandbox(fixture.clock);
    fixture.client = undefined;
  });
  afterEach(async () => {
    await fixture.client?.close();
    await fixture.bank.close();
  });

  /** `overrides`: the module's options that differ from the harness's (`psp`, `sourceAccounts`, …). */
  async function setup(overrides: Partial<TransferModuleOptions> = {}) {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const options = resolveTransferModuleOptions(await giroOptions(fixture.bank, fixture.clock, overrides));
    const client = new BankClient(options.bank);
    fixture.client = client;
    const parts = senderFixture(options, dataSource, client);
    const { store, sender, schedule, budget, work, owner } = parts;
    const lookups = new BankLookups(options, store, client, budget, schedule, owner, sender);
    const transfers = new TransferService(options, store, sender, work);
    const movements = new MovementService(store);
    const bankLookups = new BankLookupService(options, store, sender, schedule, work, owner, lookups);
    return { fixture: parts, dataSource, store, client, sender, owner, transfers, movements, bankLookups };
  }

  return { fixture, setup };
}
