import { checkLimits, type DecimalAmount, limitViolation, SourceAccountLimits } from './index';

const A = '0000003110000000000175';
const B = '2850590940090418135201';
const amount = (text: string) => text as DecimalAmount;
const unused = { amount: amount('0.00'), transfers: 0 };

describe('SourceAccountLimits.from', () => {
  it('reads a default and accounts, an account inheriting what it leaves out and dropping what it sets to null', () => {
    const limits = SourceAccountLimits.from({
      default: { perTransfer: '50000', dailyAmount: '1000000.5', dailyCount: 100 },
      accounts: { [A]: { dailyAmount: '2000000.00', dailyCount: null } },
    });
    expect(limits.of(A)).toEqual({ perTransfer: '50000.00', dailyAmount: '2000000.00', dailyCount: null });
    expect(limits.of(B)).toEqual({ perTransfer: '50000.00', dailyAmount: '1000000.50', dailyCount: 100 });
    expect(limits.addresses()).toEqual([A]);
    expect(limits.isEmpty()).toBe(false);
  });

  it('is empty when nothing is limited', () => {
    expect(SourceAccountLimits.from({}).isEmpty()).toBe(true);
    expect(SourceAccountLimits.from({ accounts: { [A]: { perTransfer: null } } }).isEmpty()).toBe(true);
  });

  it.each([
    [[], /^limits must be an object/],
    [{ perAccount: {} }, /^perAccount is not a limits key/],
    [{ default: { daily: '1' } }, /^default\.daily is not a limit \(known: perTransfer, dailyAmount, dailyCount\)/],
    [{ default: { perTransfer: 100 } }, /^default\.perTransfer must be a decimal string/],
    [{ default: { perTransfer: '1.005' } }, /^default\.perTransfer has 3 decimals/],
    [{ default: { dailyAmount: '0' } }, /^default\.dailyAmount must be greater than 0/],
    [{ default: { dailyAmount: '1e5' } }, /^default\.dailyAmount must not use exponent notation/],
    [{ default: { dailyAmount: '99999999999999.00' } }, /^default\.dailyAmount must be at most 9999999999999\.99/],
    [{ default: { dailyCount: 0 } }, /^default\.dailyCount must be a whole number from 1 to 1000000, got 0/],
    [{ default: { dailyCount: 1.5 } }, /^default\.dailyCount must be a whole number/],
    [{ default: { dailyCount: null } }, /^default\.dailyCount must not be null/],
    [{ accounts: { '123': {} } }, /^accounts\.123 is not an account: /],
    [{ accounts: { [A]: { perTransfer: '-5' } } }, new RegExp(`^accounts\\.${A}\\.perTransfer must be greater than 0`)],
  ])('refuses %j naming the value', (value, message) => {
    expect(() => SourceAccountLimits.from(value)).toThrow(message);
  });
});

describe('checkLimits', () => {
  const limits = SourceAccountLimits.from({
    default: { perTransfer: '500.00', dailyAmount: '1000.00', dailyCount: 3 },
  }).of(A);

  it('lets a transfer reach each limit exactly', () => {
    expect(checkLimits(limits, A, amount('500.00'), unused)).toBeUndefined();
    expect(checkLimits(limits, A, amount('500.00'), { amount: amount('500.00'), transfers: 2 })).toBeUndefined();
  });

  it('refuses one cent over the per-transfer maximum', () => {
    expect(checkLimits(limits, A, amount('500.01'), unused)).toEqual({
      rule: 'per_transfer',
      address: A,
      limit: '500.00',
      amount: '500.01',
    });
  });

  it('refuses one cent over the daily amount, saying what remains', () => {
    const refusal = checkLimits(limits, A, amount('400.01'), { amount: amount('600.00'), transfers: 1 });
    expect(refusal).toEqual({ rule: 'daily_amount', address: A, limit: '1000.00', remaining: '400.00' });
    expect(limitViolation(refusal as NonNullable<typeof refusal>)).toEqual({
      field: 'body.amount',
      rule: 'daily_amount',
      params: { address: A, limit: '1000.00', remaining: '400.00' },
      message: `the daily amount of ${A} would pass 1000.00: 400.00 remain today`,
    });
  });

  it('refuses the transfer after the daily count', () => {
    const refusal = checkLimits(limits, A, amount('1.00'), { amount: amount('3.00'), transfers: 3 });
    expect(refusal).toEqual({ rule: 'daily_count', address: A, limit: 3, remaining: 0 });
    expect(limitViolation(refusal as NonNullable<typeof refusal>)).toEqual({
      field: 'from.address',
      rule: 'daily_count',
      params: { address: A, limit: 3, remaining: 0 },
      message: `the daily count of ${A} would pass 3 transfers: 0 remain today`,
    });
  });

  it('never says less than nothing remains', () => {
    expect(checkLimits(limits, A, amount('1.00'), { amount: amount('1200.00'), transfers: 0 })).toMatchObject({
      remaining: '0.00',
    });
  });
});
