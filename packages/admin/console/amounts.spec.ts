import { toApiDecimal, totalsByCurrency, typedAmount } from './amounts';

describe('toApiDecimal', () => {
  it('reads an amount as typed in Argentina: dots for thousands, a comma for cents, a leading $', () => {
    expect(toApiDecimal('1.234,50')).toBe('1234.50');
    expect(toApiDecimal('$ 2.000.000')).toBe('2000000');
    expect(toApiDecimal('1234,5')).toBe('1234.5');
  });

  it('passes an amount as a program writes it, and anything else, as typed: the API names the error', () => {
    expect(toApiDecimal('1234.50')).toBe('1234.50');
    expect(toApiDecimal('1.234')).toBe('1234');
    expect(toApiDecimal('12,345')).toBe('12,345');
    expect(toApiDecimal('mil')).toBe('mil');
  });
});

describe('typedAmount', () => {
  it('shows an API amount as typed in Argentina, and what it cannot read as it is', () => {
    expect(typedAmount('2000.28')).toBe('2.000,28');
    expect(typedAmount('1234567')).toBe('1.234.567');
    expect(typedAmount('0.5')).toBe('0,5');
    expect(typedAmount('')).toBe('');
    expect(typedAmount('mil')).toBe('mil');
  });

  it('is undone by toApiDecimal', () => {
    for (const amount of ['2000.28', '1234567', '999.9', '12.00'])
      expect(toApiDecimal(typedAmount(amount))).toBe(amount);
  });
});

describe('totalsByCurrency', () => {
  it('adds amounts exactly in cents, per currency, in the order the currencies come', () => {
    expect(
      totalsByCurrency([
        { amount: '0.1', currencyId: '032' },
        { amount: '12345.00', currencyId: '840' },
        { amount: '0.2', currencyId: '032' },
        { amount: '9999999999999.99', currencyId: '032' },
      ]),
    ).toEqual([
      { currencyId: '032', amount: '10000000000000.29', count: 3 },
      { currencyId: '840', amount: '12345.00', count: 1 },
    ]);
    expect(totalsByCurrency([])).toEqual([]);
  });
});
