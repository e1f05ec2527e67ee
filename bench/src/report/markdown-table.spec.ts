import { formatNumber, markdownTable } from './markdown-table';

describe('markdownTable', () => {
  it('pads every column to its widest cell, as Biome lays tables out, escaping pipes inside cells', () => {
    expect(
      markdownTable(
        ['system', 'rate'],
        [
          ['giro', '12'],
          ['a|b', '3 456'],
        ],
        ['l', 'r'],
      ),
    ).toBe(['| system |  rate |', '| ------ | ----: |', '| giro   |    12 |', '| a\\|b   | 3 456 |'].join('\n'));
  });

  it('counts a non-ASCII character as one, and keeps rule dashes at least three long', () => {
    expect(markdownTable(['÷', 'x'], [['—', '1']])).toBe(
      ['| ÷   | x   |', '| --- | --- |', '| —   | 1   |'].join('\n'),
    );
  });
});

describe('formatNumber', () => {
  it('rounds to the digits asked and groups thousands', () => {
    expect(formatNumber(1234567.891, 1)).toBe('1\u202f234\u202f567.9');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(-0.456, 2)).toBe('−0.46');
  });

  it('shows a dash for a figure that is missing', () => {
    expect(formatNumber(Number.NaN)).toBe('—');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(null, 2)).toBe('—');
  });
});
