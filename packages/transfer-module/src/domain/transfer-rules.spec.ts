import { CONCEPT_CODES } from './concept';
import { DEFAULT_MAX_DESCRIPTION_LENGTH, transferLimitsOf } from './transfer-rules';

describe('transferLimitsOf', () => {
  it('applies the defaults: the peso, the concept codes in use, 100 characters', () => {
    expect(transferLimitsOf(undefined)).toEqual({
      maxAmount: undefined,
      maxDescriptionLength: DEFAULT_MAX_DESCRIPTION_LENGTH,
      currencies: ['032'],
      concepts: [...CONCEPT_CODES],
    });
  });

  it('keeps configured lists, as copies', () => {
    const currencies = ['032', '840'];
    const limits = transferLimitsOf({ currencies, concepts: ['VAR', 'X1'] });
    expect(limits).toMatchObject({ currencies: ['032', '840'], concepts: ['VAR', 'X1'] });
    currencies.push('978');
    expect(limits.currencies).toEqual(['032', '840']);
  });

  it.each([
    [{ currencies: 'all' }, 'transfer rule "currencies" must be a non-empty list of codes, got string'],
    [{ currencies: [] }, 'transfer rule "currencies" must be a non-empty list of codes, got an empty list'],
    [{ currencies: ['032', 32] }, 'transfer rule "currencies" item 2 must be an ISO 4217 numeric code of 3 digits'],
    [{ currencies: ['ARS'] }, 'item 1 must be an ISO 4217 numeric code of 3 digits, e.g. "032", got "ARS"'],
    [{ currencies: ['032', '032'] }, 'transfer rule "currencies" lists 032 twice'],
    [{ concepts: ['VAR', 'alq'] }, 'transfer rule "concepts" item 2 must be 1 to 16 characters A-Z or 0-9'],
    [{ concepts: ['VAR', 'ALQ', 'ALQ'] }, 'transfer rule "concepts" lists ALQ twice'],
    [{ concepts: ['ALQ'] }, 'transfer rule "concepts" must include VAR, the concept of a request that names none'],
    [{ maxDescriptionLength: 1.5 }, 'transfer rule "maxDescriptionLength" must be a positive integer, got 1.5'],
  ])('refuses %j, naming the rule', (rules, message) => {
    expect(() => transferLimitsOf(rules as never)).toThrow(RangeError);
    expect(() => transferLimitsOf(rules as never)).toThrow(message);
  });
});
