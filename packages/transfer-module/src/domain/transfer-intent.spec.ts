import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { DecimalAmount } from './money';
import {
  intentFingerprint,
  intentToWire,
  type TransferInput,
  type TransferIntent,
  validateTransferIntent,
} from './transfer-intent';
import type { Violation } from './violation';

// Published numbers: Banco Macro's example CBU and AFIP's CUIT; a CVU and a CUIL completed by hand.
const FROM_CBU = '2850590940090418135201';
const FROM_CUIT = '33693450239';
const TO_CVU = '0000003100000000000017'; // block 1: 3·3 = 9 → check 1; block 2: 1·3 = 3 → check 7
const TO_CUIL = '20123456786';

function validRequest(): Record<string, unknown> {
  return {
    originId: 1001,
    from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
    to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
    body: { currencyId: '032', amount: 1234.5, description: 'Alquiler marzo', concept: 'ALQ' },
  };
}

const EXPECTED_INTENT: TransferIntent = {
  originId: 1001,
  from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
  to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
  currencyId: '032',
  amount: '1234.50' as DecimalAmount,
  description: 'Alquiler marzo',
  concept: 'ALQ',
};

/** The request with `path` (dotted) set to `value`, or removed when `value` is `REMOVE`. */
const REMOVE = Symbol('remove');
function requestWith(path: string, value: unknown): Record<string, unknown> {
  const request = validRequest();
  const keys = path.split('.');
  let target = request;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = keys[keys.length - 1];
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return request;
}

function violationsOf(input: unknown, rules?: Parameters<typeof validateTransferIntent>[1]): Violation[] {
  const result = validateTransferIntent(input, rules);
  if (result.ok) throw new Error('expected violations, the request was accepted');
  return result.violations;
}

function intentOf(input: unknown): TransferInput {
  const result = validateTransferIntent(input);
  if (!result.ok) throw new Error(`expected a valid request, got ${JSON.stringify(result.violations)}`);
  return result.intent;
}

describe('validateTransferIntent', () => {
  it('accepts a full valid request and keeps the payment data flat, amount as a decimal', () => {
    expect(validateTransferIntent(validRequest())).toEqual({ ok: true, intent: EXPECTED_INTENT });
  });

  it('accepts a request without originId or concept: no originId in the intent, concept VAR', () => {
    const request = requestWith('body.concept', REMOVE);
    delete request.originId;
    const intent = intentOf(request);
    expect(intent).not.toHaveProperty('originId');
    expect(intent.concept).toBe('VAR');
  });

  it('accepts the amount as a decimal string and an empty description', () => {
    expect(intentOf(requestWith('body.amount', '1234.5')).amount).toBe('1234.50');
    expect(intentOf(requestWith('body.description', '')).description).toBe('');
  });

  it.each<[string, string, unknown, Violation]>([
    ['a missing from', 'from', REMOVE, { field: 'from', rule: 'required', message: 'is required' }],
    ['a missing body', 'body', REMOVE, { field: 'body', rule: 'required', message: 'is required' }],
    ['from as a string', 'from', 'me', { field: 'from', rule: 'type', message: 'must be an object, got string' }],
    ['to as null', 'to', null, { field: 'to', rule: 'type', message: 'must be an object, got null' }],
    [
      'an unknown top-level field',
      'priority',
      'high',
      {
        field: 'priority',
        rule: 'unknown_field',
        message: 'is not a known field (allowed here: originId, from, to, body)',
      },
    ],
    [
      'an unknown nested field',
      'to.owner.name',
      'Ana',
      {
        field: 'to.owner.name',
        rule: 'unknown_field',
        message: 'is not a known field (allowed here: personIdType, personId)',
      },
    ],
    ['originId 0', 'originId', 0, { field: 'originId', rule: 'origin_id', message: 'must be at least 1, got 0' }],
    [
      'originId as a string',
      'originId',
      '7',
      { field: 'originId', rule: 'origin_id', message: 'must be a number, got string' },
    ],
    [
      'originId null',
      'originId',
      null,
      { field: 'originId', rule: 'origin_id', message: 'must be a number, got null' },
    ],
    [
      'originId 2^53',
      'originId',
      2 ** 53,
      {
        field: 'originId',
        rule: 'origin_id',
        message: 'must be at most 9007199254740991 (2^53−1), got 9007199254740992',
      },
    ],
    [
      'another address type',
      'from.addressType',
      'ALIAS',
      { field: 'from.addressType', rule: 'address_type', message: 'must be "CBU_CVU", got "ALIAS"' },
    ],
    [
      'a bad CBU check digit',
      'to.address',
      '0000003100000000000019',
      { field: 'to.address', rule: 'cbu_cvu', message: 'check digit of block 2 (position 22) is 9, expected 7' },
    ],
    [
      'a CBU as a number',
      'to.address',
      12,
      { field: 'to.address', rule: 'type', message: 'must be a string, got number' },
    ],
    ['a missing address', 'from.address', REMOVE, { field: 'from.address', rule: 'required', message: 'is required' }],
    [
      'another person id type',
      'from.owner.personIdType',
      'DNI',
      { field: 'from.owner.personIdType', rule: 'person_id_type', message: 'must be "CUI", got "DNI"' },
    ],
    [
      'a bad CUIT',
      'from.owner.personId',
      '33693450238',
      { field: 'from.owner.personId', rule: 'cuit', message: 'check digit (position 11) is 8, expected 9' },
    ],
    [
      'another currency',
      'body.currencyId',
      'USD',
      { field: 'body.currencyId', rule: 'currency', message: 'must be "032", got "USD"' },
    ],
    [
      'currency as a number',
      'body.currencyId',
      32,
      { field: 'body.currencyId', rule: 'type', message: 'must be a string, got number' },
    ],
    ['a missing amount', 'body.amount', REMOVE, { field: 'body.amount', rule: 'required', message: 'is required' }],
    [
      'an amount with 3 decimals',
      'body.amount',
      '10.001',
      { field: 'body.amount', rule: 'amount', message: 'has 3 decimals, at most 2 allowed, got "10.001"' },
    ],
    [
      'an amount above the maximum',
      'body.amount',
      1e13,
      { field: 'body.amount', rule: 'max', message: 'must be at most 999999999999.99, got 10000000000000' },
    ],
    [
      'an unknown concept',
      'body.concept',
      'XYZ',
      {
        field: 'body.concept',
        rule: 'concept',
        message: 'must be one of VAR, ALQ, CUO, EXP, FAC, PRE, SEG, HON, HAB, got "XYZ"',
      },
    ],
    [
      'a description with a line break',
      'body.description',
      'line\nbreak',
      {
        field: 'body.description',
        rule: 'characters',
        message: 'must not contain control characters or unpaired surrogates, found U+000A at position 5',
      },
    ],
    [
      'a description with an unpaired surrogate',
      'body.description',
      'ok\uD800',
      {
        field: 'body.description',
        rule: 'characters',
        message: 'must not contain control characters or unpaired surrogates, found U+D800 at position 3',
      },
    ],
    [
      'a description that is too long',
      'body.description',
      'x'.repeat(101),
      { field: 'body.description', rule: 'length', message: 'must be at most 100 characters, got 101' },
    ],
    [
      'a missing description',
      'body.description',
      REMOVE,
      { field: 'body.description', rule: 'required', message: 'is required' },
    ],
  ])('reports %s', (_case, path, value, violation) => {
    expect(violationsOf(requestWith(path, value))).toEqual([violation]);
  });

  it.each([
    ['null', null, 'must be an object, got null'],
    ['an array', [validRequest()], 'must be an object, got array'],
    ['a JSON string', JSON.stringify(validRequest()), 'must be an object, got string'],
  ])('reports %s as the whole input', (_case, input, message) => {
    expect(violationsOf(input)).toEqual([{ field: '', rule: 'type', message }]);
  });

  it('collects every violation at once', () => {
    const request = requestWith('from.address', '1');
    (request.to as Record<string, unknown>).owner = { personIdType: 'CUI', personId: '21000000000', nick: 'x' };
    request.body = { currencyId: '032', amount: -1, description: 'a\tb', concept: 'var' };
    request.originId = 1.5;
    expect(violationsOf(request).map((v) => `${v.field}:${v.rule}`)).toEqual([
      'originId:origin_id',
      'from.address:cbu_cvu',
      'to.owner.nick:unknown_field',
      'to.owner.personId:cuit',
      'body.amount:amount',
      'body.description:characters',
      'body.concept:concept',
    ]);
  });

  it('applies configured rules', () => {
    const rules = { maxAmount: '1000', maxDescriptionLength: 5 };
    expect(violationsOf(validRequest(), rules)).toEqual([
      { field: 'body.amount', rule: 'max', message: 'must be at most 1000.00, got 1234.5' },
      { field: 'body.description', rule: 'length', message: 'must be at most 5 characters, got 14' },
    ]);
  });

  it('counts the description in characters, not UTF-16 units', () => {
    const rules = { maxDescriptionLength: 3 };
    expect(validateTransferIntent(requestWith('body.description', 'ñ😀é'), rules).ok).toBe(true);
    expect(violationsOf(requestWith('body.description', 'ñ😀é!'), rules)[0].message).toBe(
      'must be at most 3 characters, got 4',
    );
  });

  it('refuses invalid rules, naming them', () => {
    expect(() => validateTransferIntent(validRequest(), { maxDescriptionLength: 0 })).toThrow(
      'transfer rule "maxDescriptionLength" must be a positive integer, got 0',
    );
    expect(() => validateTransferIntent(validRequest(), { maxAmount: '-5' })).toThrow('amount rule "max"');
  });
});

describe('intentToWire', () => {
  it('builds the SPEC §2.1 body with the amount as a JSON number', () => {
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
    // Printable ASCII, and any Unicode text without control characters or unpaired surrogates.
    const text = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.string({ maxLength: 30, unit: 'grapheme' }).filter((s) => !/[\p{Cc}\p{Cs}]/u.test(s) && [...s].length <= 100),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(a !== b);
        const fa = intentFingerprint(intentOf(requestWith('body.description', a)));
        const fb = intentFingerprint(intentOf(requestWith('body.description', b)));
        expect(fa).not.toBe(fb);
      }),
    );
  });
});
