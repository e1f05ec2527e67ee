import { completeCbuCvu, ManualClock } from '../domain';
import type { ResolvedTransferOptions } from '../options';
import { MovementStore, SubAccountNotFoundError } from '../persistence';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { SubAccountService } from './sub-account.service';
import { PspModeRequiredError, TransferValidationError } from './transfer.errors';

const CVU = completeCbuCvu('0000003', '2000000000005');
const CBU = completeCbuCvu('0170001', '0000000000012');
const HOLDER = '20123456786';

describeEachEngine('SubAccountService', (engine) => {
  async function service(psp: boolean) {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    return new SubAccountService({ psp } as ResolvedTransferOptions, new MovementStore(dataSource, clock));
  }

  it('refuses every call without PSP mode, saying the use is reserved to registered providers', async () => {
    const subAccounts = await service(false);
    await expect(subAccounts.registerSubAccount({ address: CVU, ownerPersonId: HOLDER })).rejects.toThrow(
      PspModeRequiredError,
    );
    await expect(subAccounts.listSubAccounts()).rejects.toThrow(/reserved to payment service providers registered/);
    await expect(subAccounts.disableSubAccount(CVU)).rejects.toThrow(PspModeRequiredError);
  });

  it('registers, lists and disables a CVU of a client', async () => {
    const subAccounts = await service(true);
    const registered = await subAccounts.registerSubAccount({ address: CVU, ownerPersonId: HOLDER, ownerName: 'Ana' });
    expect(registered).toMatchObject({ address: CVU, ownerPersonId: HOLDER, ownerName: 'Ana', enabled: true });
    expect(await subAccounts.listSubAccounts()).toEqual([registered]);
    expect(await subAccounts.disableSubAccount(CVU)).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
    await expect(subAccounts.disableSubAccount(completeCbuCvu('0000003', '2000000000099'))).rejects.toThrow(
      SubAccountNotFoundError,
    );
  });

  it.each<[string, unknown, string[]]>([
    ['a CBU', { address: CBU, ownerPersonId: HOLDER }, ['address']],
    ['a bad CUIT', { address: CVU, ownerPersonId: '20123456780' }, ['ownerPersonId']],
    ['an unknown field', { address: CVU, ownerPersonId: HOLDER, alias: 'x' }, ['alias']],
    ['a name with a line break', { address: CVU, ownerPersonId: HOLDER, ownerName: 'A\nB' }, ['ownerName']],
    ['nothing', {}, ['address', 'ownerPersonId']],
  ])('refuses %s, naming the field and storing nothing', async (_label, input, fields) => {
    const subAccounts = await service(true);
    const error = await subAccounts.registerSubAccount(input).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransferValidationError);
    expect((error as TransferValidationError).violations.map((v) => v.field)).toEqual(fields);
    expect(await subAccounts.listSubAccounts()).toEqual([]);
  });
});
