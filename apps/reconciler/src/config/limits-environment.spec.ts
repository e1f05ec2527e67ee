import { completeCbuCvu, type SourceAccount } from '@giro/transfer-module';
import { environmentOf } from '@test-support/reconciler-environment';
import { limitsFromEnvironment } from './limits-environment';

const A = '0000003110000000000175';
const B = '2850590940090418135201';
const SOURCES: SourceAccount[] = [
  { address: A, ownerPersonId: '30712345671' },
  { address: B, ownerPersonId: '20123456786' },
];

function read(env: Record<string, string>, sources = { accounts: SOURCES, psp: false }) {
  const problems: string[] = [];
  const limits = limitsFromEnvironment(environmentOf(env), sources, problems);
  return { limits, problems };
}

describe('LIMIT_* and SOURCE_ACCOUNT_LIMITS', () => {
  it('sets no limits when no variable is set', () => {
    expect(read({})).toEqual({ limits: undefined, problems: [] });
  });

  it('reads the default from LIMIT_PER_TRANSFER, LIMIT_DAILY_AMOUNT and LIMIT_DAILY_COUNT', () => {
    expect(read({ LIMIT_PER_TRANSFER: '50000', LIMIT_DAILY_AMOUNT: ' 1000000.00 ', LIMIT_DAILY_COUNT: '100' })).toEqual(
      {
        limits: { default: { perTransfer: '50000', dailyAmount: '1000000.00', dailyCount: 100 } },
        problems: [],
      },
    );
  });

  it('reads accounts: a value, empty for the default, none for no such limit', () => {
    expect(read({ SOURCE_ACCOUNT_LIMITS: `${A}:50000.00/1000000.00/100, ${B}:/none/20` })).toEqual({
      limits: {
        accounts: {
          [A]: { perTransfer: '50000.00', dailyAmount: '1000000.00', dailyCount: 100 },
          [B]: { dailyAmount: null, dailyCount: 20 },
        },
      },
      problems: [],
    });
  });

  it.each([
    [{ LIMIT_PER_TRANSFER: '1.005' }, /^LIMIT_PER_TRANSFER has 3 decimals, at most 2 allowed/],
    [{ LIMIT_DAILY_AMOUNT: '-5' }, /^LIMIT_DAILY_AMOUNT must be greater than 0/],
    [{ LIMIT_DAILY_AMOUNT: '1,000' }, /^LIMIT_DAILY_AMOUNT must be a plain decimal/],
    [{ LIMIT_DAILY_COUNT: 'ten' }, /^LIMIT_DAILY_COUNT must be a whole number from 1 to 1000000, got ten/],
    [{ LIMIT_DAILY_COUNT: '0' }, /^LIMIT_DAILY_COUNT must be a whole number from 1/],
    [
      { SOURCE_ACCOUNT_LIMITS: `${A}:50000` },
      /^SOURCE_ACCOUNT_LIMITS must be comma-separated address:perTransfer\/dailyAmount\/dailyCount/,
    ],
    [{ SOURCE_ACCOUNT_LIMITS: `${A}:1/2/3,` }, /is not address:perTransfer\/dailyAmount\/dailyCount/],
    [
      { SOURCE_ACCOUNT_LIMITS: `${A}:1/2/3,${A}:1/2/3` },
      new RegExp(`^SOURCE_ACCOUNT_LIMITS entry 2: ${A} is listed twice`),
    ],
    [{ SOURCE_ACCOUNT_LIMITS: '123:1/2/3' }, /^SOURCE_ACCOUNT_LIMITS entry 1: 123 is not an account/],
    [
      { SOURCE_ACCOUNT_LIMITS: `${B}:/1e6/` },
      new RegExp(`^SOURCE_ACCOUNT_LIMITS entry 1: ${B}\\.dailyAmount must not use exponent notation`),
    ],
    [
      { SOURCE_ACCOUNT_LIMITS: `${B}://2.5` },
      new RegExp(`^SOURCE_ACCOUNT_LIMITS entry 1: ${B}\\.dailyCount must be a whole number`),
    ],
  ])('refuses %j, naming the variable', (vars, why) => {
    const { limits, problems } = read(vars);
    expect(limits).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(why)]);
  });

  it('refuses an account outside SOURCE_ACCOUNTS, except in PSP mode', () => {
    const cvu = completeCbuCvu('0000003', '1000000000999');
    const vars = { SOURCE_ACCOUNT_LIMITS: `${cvu}:100.00//` };
    expect(read(vars, { accounts: SOURCES, psp: false }).problems).toEqual([
      `SOURCE_ACCOUNT_LIMITS entry 1: ${cvu} is not one of SOURCE_ACCOUNTS (only they send outside PSP mode)`,
    ]);
    expect(read(vars, { accounts: SOURCES, psp: true })).toEqual({
      limits: { accounts: { [cvu]: { perTransfer: '100.00' } } },
      problems: [],
    });
  });
});
