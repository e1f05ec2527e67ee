import { ESTIMATE_LIFETIME_MS, TrigramEstimates, trigramsOf, uncommonPattern } from './postgres-text-pattern';
import { describeOnPostgres } from './testing/test-engines';

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

describeOnPostgres('TrigramEstimates (the planner’s estimates, kept for a while)', (engine) => {
  it('weighs a text’s trigrams in one EXPLAIN, then again only those not weighed within the lifetime', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    let now = Date.parse('2026-09-01T12:00:00Z');
    const estimates = new TrigramEstimates(() => now);
    const query = jest.spyOn(dataSource.manager, 'query');
    const explained = () => query.mock.calls.filter(([sql]) => sql.startsWith('EXPLAIN')).map(([, values]) => values);

    await estimates.patternFor(dataSource.manager, 'embargo');
    expect(explained()).toEqual([['%emb%', '%mba%', '%bar%', '%arg%', '%rgo%']]);

    now += ESTIMATE_LIFETIME_MS - 1;
    await estimates.patternFor(dataSource.manager, 'Embargo judicial');
    expect(explained()[1]).toEqual(['%jud%', '%udi%', '%dic%', '%ici%', '%cia%', '%ial%']);

    now += 1;
    await estimates.patternFor(dataSource.manager, 'embargo');
    expect(explained()[2]).toEqual(['%emb%', '%mba%', '%bar%', '%arg%', '%rgo%']);
    expect(explained()).toHaveLength(3);
    query.mockRestore();
  });
});
