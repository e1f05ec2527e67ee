import { describeOnPostgres } from '../testing/test-engines';
import { trigramsOf, uncommonPattern, uncommonTextPattern } from './postgres-text-pattern';

describe('trigramsOf (the trigrams of a text pg_trgm indexes)', () => {
  it('takes each word’s trigrams, lowercased, in order, with where each starts in the text', () => {
    expect(trigramsOf('Embargo')).toEqual([
      { trigram: 'emb', at: 0 },
      { trigram: 'mba', at: 1 },
      { trigram: 'bar', at: 2 },
      { trigram: 'arg', at: 3 },
      { trigram: 'rgo', at: 4 },
    ]);
    expect(trigramsOf('de AÑO').map(({ trigram, at }) => `${trigram}@${at}`)).toEqual(['año@3']);
    expect(trigramsOf('A-0001-00000042').map(({ trigram }) => trigram)).toEqual([
      '000',
      '001',
      '000',
      '000',
      '000',
      '000',
      '004',
      '042',
    ]);
    expect(trigramsOf('a-b, 12')).toEqual([]);
  });

  it('counts positions in characters, not UTF-16 units', () => {
    expect(trigramsOf('𝟘𝟘 pago').map(({ trigram, at }) => `${trigram}@${at}`)).toEqual(['pag@3', 'ago@4']);
  });
});

describe('uncommonPattern (Postgres: what its trigram index is given)', () => {
  const commonOf =
    (...common: string[]) =>
    (trigram: string) =>
      common.includes(trigram);
  const patternOf = (text: string, ...common: string[]) => uncommonPattern(text, trigramsOf(text), commonOf(...common));

  it('leaves out a rare word’s common trigram ("emb", as in "septiembre")', () => {
    expect(patternOf('Embargo', 'emb')).toBe('%mbargo%');
  });

  it('keeps the whole text’s words, in order, when no trigram is common', () => {
    expect(patternOf('Embargo judicial')).toBe('%embargo%judicial%');
  });

  it('splits a word around a common trigram, and drops a stretch that would overlap the one before it', () => {
    // abcdef: bcd common → "abc" and "cde…" overlap on "c": the second starts after the first ("def").
    expect(patternOf('abcdefg', 'bcd')).toBe('%abc%defg%');
    // abcdef: bcd and cde common → "abc" and "def" are apart.
    expect(patternOf('abcdef', 'bcd', 'cde')).toBe('%abc%def%');
    // abcde: bcd common → "abc", then only "de" after it: too short for a trigram, left out.
    expect(patternOf('abcde', 'bcd')).toBe('%abc%');
  });

  it('gives an invoice number its uncommon digits only', () => {
    expect(patternOf('A-0001-03000316', '000', '001', '030', '300', '003')).toBe('%0316%');
  });

  it('leaves a text whose trigrams are all common to the planner', () => {
    expect(patternOf('alquiler', 'alq', 'lqu', 'qui', 'uil', 'ile', 'ler')).toBeUndefined();
    expect(patternOf('a b')).toBeUndefined();
  });

  it('escapes LIKE’s wildcards in what it keeps', () => {
    expect(uncommonPattern('50%_x', [{ trigram: '50%', at: 0 }], () => false)).toBe('%50\\%%');
  });
});

describeOnPostgres('uncommonTextPattern (the planner’s estimates, asked for each text)', (engine) => {
  it('weighs a text’s distinct trigrams in one EXPLAIN each time, keeping nothing between texts', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const query = jest.spyOn(dataSource.manager, 'query');
    const explained = () => query.mock.calls.filter(([sql]) => sql.startsWith('EXPLAIN')).map(([, values]) => values);
    try {
      const first = await uncommonTextPattern(dataSource.manager, 'Embargo');
      expect(explained()).toEqual([['%emb%', '%mba%', '%bar%', '%arg%', '%rgo%']]);
      expect(await uncommonTextPattern(dataSource.manager, 'embargo')).toBe(first);
      expect(explained()).toHaveLength(2);
      expect(await uncommonTextPattern(dataSource.manager, 'a b')).toBeUndefined();
      expect(explained()).toHaveLength(2);
    } finally {
      query.mockRestore();
    }
  });
});
