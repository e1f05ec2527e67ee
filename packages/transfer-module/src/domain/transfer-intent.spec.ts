import { EXPECTED_INTENT, intentOf, REMOVE, requestWith, validRequest } from './testing/transfer-requests';
import { validateTransferIntent } from './transfer-intent';
import type { Violation } from './violation';

function violationsOf(input: unknown, rules?: Parameters<typeof validateTransferIntent>[1]): Violation[] {
  const result = validateTransferIntent(input, rules);
  if (result.ok) throw new Error('expected violations, the request was accepted');
  return result.violations;
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

  it.each<[string, string, unknown, Omit<Violation, 'params'>]>([
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
        message: 'is not a known field (allowed here: originId, executeOn, executeAt, from, to, body)',
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
      { field: 'body.currencyId', rule: 'currency', message: 'must be one of 032, got "USD"' },
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
    expect(violationsOf(requestWith(path, value))).toMatchObject([violation]);
  });

  it.each<[string, string, unknown, Violation['params']]>([
    [
      'a wrong check digit of block 2',
      'to.address',
      '2850590940090418135207',
      { reason: 'check_digit', block: 2, position: 22, expected: 1, actual: 7 },
    ],
    ['a CBU one digit short', 'to.address', '285059094009041813520', { reason: 'length', expected: 22, actual: 21 }],
    [
      'a wrong CUIT check digit',
      'from.owner.personId',
      '30712345678',
      { reason: 'check_digit', position: 11, expected: 1, actual: 8 },
    ],
    ['an amount above the maximum', 'body.amount', '1000000000000', { max: '999999999999.99', value: '1000000000000' }],
    ['a description too long', 'body.description', 'x'.repeat(101), { max: 100, actual: 101 }],
    [
      'a hidden character',
      'body.description',
      'ab\u202Ec',
      { reason: 'bidirectional_control', codePoint: 'U+202E', name: 'RIGHT-TO-LEFT OVERRIDE', position: 3 },
    ],
    [
      'a control character',
      'body.description',
      'a\nb',
      { reason: 'control_character', codePoint: 'U+000A', position: 2 },
    ],
    ['a wrong type', 'body.description', 7, { expected: 'string', actual: 'number' }],
    ['a currency not accepted', 'body.currencyId', '840', { allowed: ['032'], value: '840' }],
  ])('gives the params of %s, the values its message is built from', (_case, path, value, params) => {
    expect(violationsOf(requestWith(path, value))).toEqual([expect.objectContaining({ field: path, params })]);
  });

  it.each([
    ['null', null, 'must be an object, got null'],
    ['an array', [validRequest()], 'must be an object, got array'],
    ['a JSON string', JSON.stringify(validRequest()), 'must be an object, got string'],
  ])('reports %s as the whole input', (_case, input, message) => {
    expect(violationsOf(input)).toMatchObject([{ field: '', rule: 'type', message }]);
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
    expect(violationsOf(validRequest(), rules)).toMatchObject([
      { field: 'body.amount', rule: 'max', message: 'must be at most 1000.00, got 1234.5' },
      { field: 'body.description', rule: 'length', message: 'must be at most 5 characters, got 14' },
    ]);
  });

  it('accepts only the configured currencies and concepts, naming the field and the allowed values', () => {
    const rules = { currencies: ['032', '840'], concepts: ['VAR', 'ALQ'] };
    const dollars = requestWith('body.currencyId', '840');
    expect(validateTransferIntent(dollars, rules)).toMatchObject({ ok: true, intent: { currencyId: '840' } });
    expect(violationsOf(requestWith('body.currencyId', '978'), rules)).toMatchObject([
      { field: 'body.currencyId', rule: 'currency', message: 'must be one of 032, 840, got "978"' },
    ]);
    expect(violationsOf(requestWith('body.concept', 'HON'), rules)).toMatchObject([
      { field: 'body.concept', rule: 'concept', message: 'must be one of VAR, ALQ, got "HON"' },
    ]);
    expect(validateTransferIntent(requestWith('body.concept', REMOVE), rules)).toMatchObject({
      ok: true,
      intent: { concept: 'VAR' },
    });
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
    expect(() => validateTransferIntent(validRequest(), { currencies: [] })).toThrow(
      'transfer rule "currencies" must be a non-empty list of codes, got an empty list',
    );
  });

  it('keeps an execution asked with executeOn or executeAt, one of them, each checked', () => {
    expect(intentOf({ ...validRequest(), executeOn: '2026-12-28' }).execution).toEqual({ executeOn: '2026-12-28' });
    const executeAt = '2026-12-28T09:00:00-03:00';
    expect(intentOf({ ...validRequest(), executeAt }).execution).toEqual({ executeAt });
    expect(intentOf(validRequest())).not.toHaveProperty('execution');
    expect(violationsOf({ ...validRequest(), executeOn: '2026-12-28', executeAt })).toMatchObject([
      { field: '', rule: 'exclusive', params: { fields: ['executeOn', 'executeAt'] } },
    ]);
    expect(violationsOf({ ...validRequest(), executeOn: '28/12/2026' })).toMatchObject([
      { field: 'executeOn', rule: 'execute_on', params: { format: 'YYYY-MM-DD' } },
    ]);
    expect(violationsOf({ ...validRequest(), executeAt: '2026-12-28T09:00' })).toMatchObject([
      { field: 'executeAt', rule: 'execute_at' },
    ]);
  });
});
