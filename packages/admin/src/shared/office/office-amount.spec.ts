import { readOfficeAmount } from './office-amount';

describe('readOfficeAmount', () => {
  it.each([
    ['1234.50', '1234.50'],
    ['1234,50', '1234.50'],
    ['1234,5', '1234.5'],
    ['1234', '1234'],
    ['1.234,50', '1234.50'],
    ['1.234.567', '1234567'],
    ['1.234.567,8', '1234567.8'],
    ['$ 1.234,50', '1234.50'],
    ['$1.234,50', '1234.50'],
    ['$\u00a01.500,00', '1500.00'],
    [' 1.500,00 ', '1500.00'],
    ['1,234.50', '1234.50'],
    ['1,234,567', '1234567'],
    ['0,01', '0.01'],
  ])('reads %j as %j', (cell, amount) => {
    expect(readOfficeAmount(cell)).toEqual({ amount });
  });

  it.each(['1.500', '1,500', '$ 12.345', '999,000', '10.001'])(
    'refuses %j, which could be thousands or decimals',
    (cell) => {
      expect(readOfficeAmount(cell)).toEqual({
        violation: {
          field: 'body.amount',
          rule: 'ambiguous_amount',
          params: { value: cell.trim() },
          message: expect.stringContaining('could be thousands or decimals'),
        },
      });
    },
  );

  it.each(['1.23.45', '-5', 'abc', '1.234,567', '12.34.567', ''])(
    'passes %j on as written, for the amount rule to name',
    (cell) => {
      expect(readOfficeAmount(cell)).toEqual({ amount: cell });
    },
  );
});
