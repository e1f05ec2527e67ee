import { environmentOf } from '@test-support/reconciler-environment';
import { DEMO_PAYER } from '../demo/demo-batch';
import { sourceAccountsFromEnvironment } from './source-accounts-environment';

const OWN = `${DEMO_PAYER.address}:${DEMO_PAYER.owner.personId}`;

function read(SOURCE_ACCOUNTS: string | undefined, sandbox = false) {
  const problems: string[] = [];
  const accounts = sourceAccountsFromEnvironment(environmentOf({ SOURCE_ACCOUNTS }), sandbox, problems);
  return { accounts, problems };
}

describe('SOURCE_ACCOUNTS', () => {
  it('reads comma-separated address:ownerPersonId pairs', () => {
    expect(read(` ${OWN} , 2850590940090418135201:20123456786`)).toEqual({
      accounts: [
        { address: DEMO_PAYER.address, ownerPersonId: DEMO_PAYER.owner.personId },
        { address: '2850590940090418135201', ownerPersonId: '20123456786' },
      ],
      problems: [],
    });
  });

  it('is required with a real bank; sandbox mode sends from the demo account', () => {
    expect(read(undefined).problems).toEqual([
      expect.stringMatching(/^SOURCE_ACCOUNTS is required when BANK_BASE_URL is set/),
    ]);
    expect(read(undefined, true).accounts).toEqual([
      { address: DEMO_PAYER.address, ownerPersonId: DEMO_PAYER.owner.personId },
    ]);
  });

  it.each([
    [DEMO_PAYER.address, /^SOURCE_ACCOUNTS must be comma-separated address:ownerPersonId pairs/],
    [`${OWN},`, /is not address:ownerPersonId/],
    [`${OWN}:x`, /is not address:ownerPersonId/],
    [`${OWN},123:20123456786`, /^SOURCE_ACCOUNTS entry 2: address /],
    [`${DEMO_PAYER.address}:20123456780`, /^SOURCE_ACCOUNTS entry 1: ownerPersonId /],
    [`${OWN},${OWN}`, /^SOURCE_ACCOUNTS entry 2: address .* is listed twice/],
  ])('refuses %s, naming SOURCE_ACCOUNTS', (value, why) => {
    const { accounts, problems } = read(value);
    expect(accounts).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(why)]);
  });
});
