import { wordsForIndex } from './movement-search-query';

describe('wordsForIndex (Postgres: the words of a text its trigram index reads)', () => {
  const MOVEMENTS = 10_000_000;

  it('gives the index the rarest word of an invoice number, not the part every invoice shares', () => {
    const estimates = [
      { word: '0001', rows: 3_448_426 },
      { word: '00123456', rows: 379 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toEqual(['00123456']);
  });

  it('keeps every word within ten times the rarest', () => {
    const estimates = [
      { word: 'embargo', rows: 379 },
      { word: 'marzo', rows: 3_790 },
      { word: 'alquiler', rows: 1_988_987 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toEqual(['embargo', 'marzo']);
  });

  it('leaves a text whose words are all common to the planner', () => {
    const estimates = [
      { word: 'alquiler', rows: 1_988_987 },
      { word: 'marzo', rows: 379_606 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toBeUndefined();
    expect(wordsForIndex([], MOVEMENTS)).toBeUndefined();
  });
});
