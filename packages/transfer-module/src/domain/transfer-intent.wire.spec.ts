import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  EXPECTED_INTENT,
  FROM_CBU,
  FROM_CUIT,
  intentOf,
  REMOVE,
  requestWith,
  TO_CUIL,
  TO_CVU,
} from './testing/transfer-requests';
import { intentFingerprint, intentToWire, type TransferIntent, validateTransferIntent } from './transfer-intent';

describe('intentToWire', () => {
  it('builds the request body for the bank with the amount as a JSON number', () => {
    const wire = intentToWire(EXPECTED_INTENT);
    expect(wire).toEqual({
      originId: 1001,
      from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
      to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
      body: { currencyId: '032', amount: 1234.5, description: 'Alquiler marzo', concept: 'ALQ' },
    });
    expect(JSON.stringify(wire.body)).toBe(
      '{"currencyId":"032","amount":1234.5,"description":"Alquiler marzo","concept":"ALQ"}',
    );
  });

  it('shares no object with the intent', () => {
    const wire = intentToWire(EXPECTED_INTENT);
    wire.from.owner.personId = 'changed';
    expect(EXPECTED_INTENT.from.owner.personId).toBe(FROM_CUIT);
  });

  it('refuses an intent without a valid originId', () => {
    const { originId: _omitted, ...withoutOriginId } = EXPECTED_INTENT;
    expect(() => intentToWire(withoutOriginId as TransferIntent)).toThrow(
      'intentToWire: originId must be a number, got undefined',
    );
  });
});

describe('intentFingerprint', () => {
  it('is the SHA-256 of the documented canonical JSON', () => {
    const canonical =
      '{"amount":"1234.50","concept":"ALQ","currencyId":"032","description":"Alquiler marzo",' +
      `"from":{"address":"${FROM_CBU}","addressType":"CBU_CVU","owner":{"personId":"${FROM_CUIT}","personIdType":"CUI"}},` +
      `"to":{"address":"${TO_CVU}","addressType":"CBU_CVU","owner":{"personId":"${TO_CUIL}","personIdType":"CUI"}}}`;
    expect(intentFingerprint(EXPECTED_INTENT)).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('hashes the canonical JSON as UTF-8, as the stored fingerprints were', () => {
    const intent = { ...EXPECTED_INTENT, description: 'Alquiler año 2026 – señal ✓ 😀' };
    const canonical = JSON.stringify({
      amount: intent.amount,
      concept: intent.concept,
      currencyId: intent.currencyId,
      description: intent.description,
      from: { address: FROM_CBU, addressType: 'CBU_CVU', owner: { personId: FROM_CUIT, personIdType: 'CUI' } },
      to: { address: TO_CVU, addressType: 'CBU_CVU', owner: { personId: TO_CUIL, personIdType: 'CUI' } },
    });
    expect(intentFingerprint(intent)).toBe(createHash('sha256').update(Buffer.from(canonical, 'utf8')).digest('hex'));
  });

  it('takes the execution asked for in, by its day or its instant, and leaves the form as it was without one', () => {
    const base = intentFingerprint(EXPECTED_INTENT);
    const monday = intentFingerprint({ ...EXPECTED_INTENT, execution: { executeOn: '2026-12-28' } });
    const nine = intentFingerprint({ ...EXPECTED_INTENT, execution: { executeAt: '2026-12-28T09:00:00-03:00' } });
    const noon = intentFingerprint({ ...EXPECTED_INTENT, execution: { executeAt: '2026-12-28T12:00:00.000Z' } });
    expect(new Set([base, monday, nine]).size).toBe(3);
    expect(noon).toBe(nine);
  });

  it('ignores the originId and how the same payload was written', () => {
    const base = intentFingerprint(EXPECTED_INTENT);
    const request = requestWith('body.amount', '1234.50');
    request.originId = 99;
    expect(intentFingerprint(intentOf(request))).toBe(base);
    expect(intentFingerprint(intentOf(requestWith('originId', REMOVE)))).toBe(base);

    const defaultConcept = intentFingerprint(intentOf(requestWith('body.concept', REMOVE)));
    expect(intentFingerprint(intentOf(requestWith('body.concept', 'VAR')))).toBe(defaultConcept);
  });

  it('changes when any part of the payload changes', () => {
    const base = intentFingerprint(EXPECTED_INTENT);
    const changes: Array<[string, unknown]> = [
      ['body.amount', 1234.51],
      ['body.description', 'Alquiler abril'],
      ['body.concept', 'VAR'],
      ['to.address', FROM_CBU],
      ['to.owner.personId', FROM_CUIT],
      ['from.address', TO_CVU],
      ['from.owner.personId', TO_CUIL],
    ];
    const fingerprints = changes.map(([path, value]) => intentFingerprint(intentOf(requestWith(path, value))));
    for (const fingerprint of fingerprints) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([base, ...fingerprints]).size).toBe(changes.length + 1);
  });

  it('tells apart any two different descriptions', () => {
    // Printable ASCII, and any Unicode text without control characters or unpaired surrogates, that the rules
    // accept (they refuse invisible characters, such as U+FFA0, which the generator sometimes draws).
    const accepted = (description: string) => validateTransferIntent(requestWith('body.description', description)).ok;
    const text = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.string({ maxLength: 30, unit: 'grapheme' }).filter((s) => !/[\p{Cc}\p{Cs}]/u.test(s) && [...s].length <= 100),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(a !== b && accepted(a) && accepted(b));
        const fa = intentFingerprint(intentOf(requestWith('body.description', a)));
        const fb = intentFingerprint(intentOf(requestWith('body.description', b)));
        expect(fa).not.toBe(fb);
      }),
    );
  });
});
