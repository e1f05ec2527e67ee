import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';

/** The problems reconcilerConfigFromEnv lists for `env` (sandbox mode), or [] when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    reconcilerConfigFromEnv(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('TRANSFER_* variables', () => {
  it("leave the module's defaults when unset", () => {
    expect(reconcilerConfigFromEnv({}).transferRules).toBeUndefined();
  });

  it('read comma-separated currencies and concepts, the maximum amount and the description length', () => {
    const config = reconcilerConfigFromEnv({
      TRANSFER_CURRENCIES: '032, 840',
      TRANSFER_CONCEPTS: 'VAR,ALQ ,HON',
      TRANSFER_MAX_AMOUNT: '500000.00',
      TRANSFER_MAX_DESCRIPTION_LENGTH: '80',
    });
    expect(config.transferRules).toEqual({
      currencies: ['032', '840'],
      concepts: ['VAR', 'ALQ', 'HON'],
      maxAmount: '500000.00',
      maxDescriptionLength: 80,
    });
  });

  it.each([
    [{ TRANSFER_CURRENCIES: 'ARS' }, /^TRANSFER_CURRENCIES item 1 must be an ISO 4217 numeric code of 3 digits/],
    [{ TRANSFER_CURRENCIES: '032,,840' }, /^TRANSFER_CURRENCIES item 2 must be an ISO 4217 numeric code/],
    [{ TRANSFER_CURRENCIES: '032,032' }, /^TRANSFER_CURRENCIES lists 032 twice$/],
    [
      { TRANSFER_CONCEPTS: 'ALQ,HON' },
      /^TRANSFER_CONCEPTS must include VAR, the concept of a request that names none$/,
    ],
    [{ TRANSFER_CONCEPTS: 'VAR,alq' }, /^TRANSFER_CONCEPTS item 2 must be 1 to 16 characters A-Z or 0-9/],
    [{ TRANSFER_MAX_AMOUNT: 'lots' }, /^TRANSFER_MAX_AMOUNT must be a decimal string from 0.01 to 9999999999999.99/],
    [
      { TRANSFER_MAX_DESCRIPTION_LENGTH: '0' },
      /^TRANSFER_MAX_DESCRIPTION_LENGTH must be a whole number of characters ≥ 1$/,
    ],
    [
      { TRANSFER_MAX_DESCRIPTION_LENGTH: '1.5' },
      /^TRANSFER_MAX_DESCRIPTION_LENGTH must be a whole number of characters/,
    ],
  ])('refuse %j, naming the variable and the rule', (env, message) => {
    expect(problemsOf(env)).toEqual([expect.stringMatching(message)]);
  });

  it('list every bad variable at once', () => {
    expect(problemsOf({ TRANSFER_CURRENCIES: 'ARS', TRANSFER_CONCEPTS: 'ALQ', TRANSFER_MAX_AMOUNT: '0' })).toEqual([
      expect.stringMatching(/^TRANSFER_MAX_AMOUNT /),
      expect.stringMatching(/^TRANSFER_CURRENCIES /),
      expect.stringMatching(/^TRANSFER_CONCEPTS /),
    ]);
  });
});
