import { applyConfigPatch, DEFAULT_SANDBOX_CONFIG } from './sandbox-config';

describe('applyConfigPatch', () => {
  it('merges a partial patch into a copy, leaving the current configuration untouched', () => {
    const result = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { timings: { createdMs: 10 }, faults: { hangRate: 0.5 } });
    expect(result.ok && result.config.timings).toEqual({ ...DEFAULT_SANDBOX_CONFIG.timings, createdMs: 10 });
    expect(result.ok && result.config.faults.hangRate).toBe(0.5);
    expect(DEFAULT_SANDBOX_CONFIG.timings.createdMs).toBe(2_000);
    expect(DEFAULT_SANDBOX_CONFIG.faults.hangRate).toBe(0);
  });

  it('names every bad field and its rule', () => {
    const result = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, {
      timings: { createdMs: -1, speed: 2 },
      faults: { malformedRate: 1.5, retryAfterSeconds: 0 },
      duplicateMode: 'ignore',
      seed: 1.5,
      colour: 'blue',
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations.map(({ field, rule }) => `${field}:${rule}`)).toEqual([
      'timings.createdMs:duration',
      'timings.speed:unknown',
      'faults.malformedRate:rate',
      'faults.retryAfterSeconds:positive-seconds',
      'duplicateMode:duplicate-mode',
      'seed:seed',
      'colour:unknown',
    ]);
  });

  it('refuses fault rates adding up to more than 1, counting the rates already set', () => {
    const half = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { faults: { serverErrorRate: 0.5 } });
    if (!half.ok) throw new Error('expected a valid patch');
    expect(applyConfigPatch(half.config, { faults: { hangRate: 0.5 } }).ok).toBe(true);
    const over = applyConfigPatch(half.config, { faults: { hangRate: 0.51 } });
    expect(!over.ok && over.violations[0].rule).toBe('rate-sum');
  });

  it('refuses a patch that is not an object', () => {
    expect(applyConfigPatch(DEFAULT_SANDBOX_CONFIG, [1]).ok).toBe(false);
    expect(applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { timings: 5 }).ok).toBe(false);
  });

  it('takes the HMAC scheme and names a bad preset or header', () => {
    const result = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, {
      hmac: { preset: 'single-header', signatureHeader: 'Sig' },
    });
    expect(result.ok && result.config.hmac).toEqual({
      preset: 'single-header',
      timestampHeader: 'X-Timestamp',
      signatureHeader: 'Sig',
      keyIdHeader: 'X-Key-Id',
      keyId: null,
    });
    const bad = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: { preset: 'aws', timestampHeader: 'X Ts' } });
    expect(bad.ok || bad.violations.map((violation) => violation.message)).toEqual([
      'hmac.preset must be one of default, single-header',
      'hmac.timestampHeader must be an HTTP header name, e.g. X-Signature',
    ]);
    const same = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: { signatureHeader: 'x-timestamp' } });
    expect(same.ok || same.violations.map((violation) => violation.message)).toEqual([
      'hmac.signatureHeader must differ from hmac.timestampHeader',
    ]);
    const keyed = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: { keyId: 'key-1', keyIdHeader: 'X-Api-Key-Id' } });
    expect(keyed.ok && keyed.config.hmac).toMatchObject({ keyId: 'key-1', keyIdHeader: 'X-Api-Key-Id' });
    const badKey = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: { keyId: 'a,b' } });
    expect(badKey.ok || badKey.violations.map((violation) => violation.message)).toEqual([
      'hmac.keyId must be 1 to 200 printable ASCII characters without a comma or a space, or null (not checked)',
    ]);
    const clash = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: { keyIdHeader: 'x-signature' } });
    expect(clash.ok || clash.violations.map((violation) => violation.message)).toEqual([
      'hmac.keyIdHeader must differ from hmac.timestampHeader and hmac.signatureHeader',
    ]);
  });
});
