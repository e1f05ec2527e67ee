import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import type { BankClientOptions } from '@giro/transfer-module';
import { resolveTransferModuleOptions } from '@giro/transfer-module/options/transfer-module.options';
import { readEnvironment } from './environment';
import { reconcilerConfigFromEnv } from './reconciler-config';
import { transferModuleOptions } from './transfer-module-options';

const A = '0000003110000000000175';
const B = '0000003110000000000243';

let bank: BankClientOptions;
beforeAll(async () => {
  const certs = await createDevCertificates();
  bank = {
    baseUrl: 'https://bank.example',
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'a-token' },
  };
});

const resolvedFrom = (env: Record<string, string>) =>
  resolveTransferModuleOptions(transferModuleOptions(reconcilerConfigFromEnv(env), bank));

describe('BANK_OPERATING_HOURS and ACCOUNT_WEIGHTS', () => {
  it('reach the module as its schedule.bankOperatingHours and sweep.accountWeights', () => {
    const resolved = resolvedFrom({ BANK_OPERATING_HOURS: '08:00-20:00', ACCOUNT_WEIGHTS: `${A}:3, ${B}:1` });
    expect(resolved.schedule.operatingHours).toMatchObject({ openMinute: 8 * 60, closeMinute: 20 * 60 });
    expect(resolved.sweep.accountWeights).toEqual({ [A]: 3, [B]: 1 });
    const unset = resolvedFrom({});
    expect(unset.schedule.operatingHours).toBeUndefined();
    expect(unset.sweep.accountWeights).toEqual({});
  });

  it.each([
    ['BANK_OPERATING_HOURS', '8-20', 'must be a range of times HH:MM-HH:MM, like 08:00-20:00'],
    ['BANK_OPERATING_HOURS', '08:00-25:00', 'must be a range of times HH:MM-HH:MM, like 08:00-20:00'],
    ['BANK_OPERATING_HOURS', '20:00-08:00', 'must be a range whose opening comes before its closing'],
    ['ACCOUNT_WEIGHTS', `${A}=3`, 'must be a list of CBU/CVU:weight separated by commas'],
    ['ACCOUNT_WEIGHTS', '123:3', 'must be a list of CBU/CVU:weight separated by commas'],
    ['ACCOUNT_WEIGHTS', `${A}:0`, 'must be a list whose weights are whole numbers from 1 to 100'],
    ['ACCOUNT_WEIGHTS', `${A}:101`, 'must be a list whose weights are whole numbers from 1 to 100'],
  ])('refuse %s=%s, naming the variable and the rule', (name, value, problem) => {
    expect(readEnvironment({ [name]: value })).toEqual({ ok: false, problems: [`${name} ${problem}`] });
  });

  it('refuse a weight for an address that is no CBU/CVU, naming the option', () => {
    expect(() => resolvedFrom({ ACCOUNT_WEIGHTS: '0000003110000000000176:2' })).toThrow(
      'sweep.accountWeights.0000003110000000000176 is not a valid CBU/CVU',
    );
  });
});
