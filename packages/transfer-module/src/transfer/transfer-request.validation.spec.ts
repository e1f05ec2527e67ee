import { completeCbuCvu, completeCuit } from '../domain';
import { TransferValidationError } from './transfer.errors';
import { validateTransferRequest } from './transfer-request.validation';

const FROM_CBU = completeCbuCvu('0170001', '0000000000012');
const TO_CVU = completeCbuCvu('0000003', '1000000000042');
const FROM_CUIT = completeCuit('3071234567') as string;
const TO_CUIT = completeCuit('2012345678') as string;

function request(overrides: { body?: Record<string, unknown>; to?: Record<string, unknown>; originId?: unknown } = {}) {
  return {
    ...('originId' in overrides && { originId: overrides.originId }),
    from: { addressType: 'CBU_CVU', address: FROM_CBU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
    to: { addressType: 'CBU_CVU', address: TO_CVU, owner: { personIdType: 'CUI', personId: TO_CUIT }, ...overrides.to },
    body: { currencyId: '032', amount: 1500.5, description: 'rent', ...overrides.body },
  };
}

function violationsOf(input: unknown, rules = {}) {
  try {
    validateTransferRequest(input, rules);
  } catch (error) {
    expect(error).toBeInstanceOf(TransferValidationError);
    return (error as TransferValidationError).violations;
  }
  throw new Error('expected a TransferValidationError');
}

describe('validateTransferRequest', () => {
  it('accepts a transfer request, the amount as a number or a decimal string, concept VAR by default', () => {
    expect(validateTransferRequest(request(), {})).toMatchObject({
      amount: '1500.50',
      concept: 'VAR',
      description: 'rent',
    });
    expect(
      validateTransferRequest(request({ body: { amount: '0.10', concept: 'ALQ' }, originId: 7 }), {}),
    ).toMatchObject({
      originId: 7,
      amount: '0.10',
      concept: 'ALQ',
    });
  });

  it('names every bad field with its rule, once', () => {
    const violations = violationsOf({
      ...request({ to: { address: '123', extra: true }, body: { amount: '1.234', concept: 'XYZ' }, originId: 0 }),
      unknown: 1,
    });
    expect(violations.map(({ field, rule }) => `${field}:${rule}`).sort()).toEqual(
      [
        'body.amount:amount',
        'body.concept:concept',
        'originId:origin_id',
        'to.address:cbu_cvu',
        'to.extra:unknown_field',
        'unknown:unknown_field',
      ].sort(),
    );
  });

  it('applies the module’s rules: maximum amount and description length', () => {
    expect(violationsOf(request({ body: { amount: 2000 } }), { maxAmount: '1000.00' })).toMatchObject([
      { field: 'body.amount', rule: 'max', message: 'must be at most 1000.00, got 2000' },
    ]);
    expect(violationsOf(request({ body: { description: 'x'.repeat(11) } }), { maxDescriptionLength: 10 })).toEqual([
      expect.objectContaining({ field: 'body.description', rule: 'length' }),
    ]);
  });

  it('refuses what is not a request object at all', () => {
    for (const input of [null, 'transfer', [request()], 42]) {
      expect(violationsOf(input)).toEqual([expect.objectContaining({ field: '', rule: 'type' })]);
    }
  });

  // Was the DTO's (TransferRequestDto, removed): the same fields, rules and words, now the one validation's.
  it('speaks the domain’s rules: names, messages, nested fields', () => {
    expect(
      violationsOf({
        from: 'me',
        to: { addressType: 'CBU', address: TO_CVU, owner: { personIdType: 'CUI', personId: '20123456789' } },
        body: { currencyId: '840', amount: -1 },
      }),
    ).toMatchObject([
      { field: 'from', rule: 'type', message: 'must be an object, got string' },
      { field: 'to.addressType', rule: 'address_type', message: 'must be "CBU_CVU", got "CBU"' },
      { field: 'to.owner.personId', rule: 'cuit', message: expect.stringContaining('check digit') },
      { field: 'body.currencyId', rule: 'currency', message: 'must be one of 032, got "840"' },
      { field: 'body.amount', rule: 'amount', message: 'must be greater than 0, got -1' },
      { field: 'body.description', rule: 'required', message: 'is required' },
    ]);
  });
});
