import { neutralizeFormula } from './csv-formula';

describe('neutralizeFormula', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+54 11 5555', `'+54 11 5555`],
    ['-1+2', `'-1+2`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
    ['\uFF1D1+1', `'\uFF1D1+1`],
    ['\uFF0B54', `'\uFF0B54`],
    ['\uFF0D1', `'\uFF0D1`],
    ['\uFF20SUM(A1)', `'\uFF20SUM(A1)`],
  ])('prefixes %j, which a spreadsheet would run, with a quote', (cell, expected) => {
    expect(neutralizeFormula(cell)).toBe(expected);
  });

  it.each(['rent May', '1234.50', '', 'a=b', "'=already quoted", ' =1'])('leaves %j as it is', (cell) => {
    expect(neutralizeFormula(cell)).toBe(cell);
  });
});
