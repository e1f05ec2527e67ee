import { CONCEPT_CODES } from './concept';
import type { ObjectField } from './request-fields';
import { validateTransferIntent } from './transfer-intent';
import { TRANSFER_REQUEST, transferRequestOpenApiSchema } from './transfer-request';
import type { TransferLimits } from './transfer-rules';

const PARTY = {
  type: 'object',
  required: ['addressType', 'address', 'owner'],
  additionalProperties: false,
  properties: {
    addressType: { type: 'string', enum: ['CBU_CVU'] },
    address: { type: 'string', pattern: '^[0-9]{22}$', description: 'CBU or CVU (both check digits verified)' },
    owner: {
      type: 'object',
      required: ['personIdType', 'personId'],
      additionalProperties: false,
      properties: {
        personIdType: { type: 'string', enum: ['CUI'] },
        personId: { type: 'string', pattern: '^[0-9]{11}$', description: 'CUIT or CUIL (check digit verified)' },
      },
    },
  },
};

describe('TRANSFER_REQUEST, the description of the transfer request', () => {
  it('gives the OpenAPI schema of POST /admin/transfers: fields, types, required lists, examples', () => {
    // As the admin API has published it since its first release (then a hand-kept copy of the rules), with the
    // execution a scheduled transfer asks for.
    expect(JSON.stringify(transferRequestOpenApiSchema())).toBe(
      JSON.stringify({
        type: 'object',
        required: ['from', 'to', 'body'],
        additionalProperties: false,
        properties: {
          originId: {
            type: 'integer',
            minimum: 1,
            maximum: Number.MAX_SAFE_INTEGER,
            description: 'your idempotency key; allocated when absent',
          },
          executeOn: {
            type: 'string',
            format: 'date',
            description: 'send on this day (Buenos Aires), at the release time, moved off weekends and holidays',
            example: '2026-12-28',
          },
          executeAt: {
            type: 'string',
            format: 'date-time',
            description: 'send at this moment (ISO 8601 with its offset); not with executeOn',
            example: '2026-12-28T09:00:00-03:00',
          },
          from: PARTY,
          to: PARTY,
          body: {
            type: 'object',
            required: ['currencyId', 'amount', 'description', 'concept'],
            additionalProperties: false,
            properties: {
              currencyId: { type: 'string', enum: ['032'] },
              amount: {
                oneOf: [{ type: 'number' }, { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$' }],
                description: '> 0, at most 2 decimals; a JSON number or a decimal string',
                example: '1234.50',
              },
              description: { type: 'string', maxLength: 100 },
              concept: { type: 'string', enum: [...CONCEPT_CODES], default: 'VAR' },
            },
          },
        },
        example: {
          from: {
            addressType: 'CBU_CVU',
            address: '0000003110000000000175',
            owner: { personIdType: 'CUI', personId: '30712345671' },
          },
          to: {
            addressType: 'CBU_CVU',
            address: '2850590994009004181356',
            owner: { personIdType: 'CUI', personId: '20123456786' },
          },
          body: { currencyId: '032', amount: '1234.50', description: 'rent May', concept: 'ALQ' },
        },
      }),
    );
  });

  it('documents examples the rules accept', () => {
    const example = TRANSFER_REQUEST.example as { body: Record<string, unknown> };
    expect(validateTransferIntent(example)).toMatchObject({ ok: true });
    const { amount } = (TRANSFER_REQUEST.fields.body as ObjectField<TransferLimits>).fields;
    const withAmount = { ...example, body: { ...example.body, amount: amount.example } };
    expect(validateTransferIntent(withAmount)).toMatchObject({ ok: true, intent: { amount: '1234.50' } });
  });

  it('hands out a new schema on every call, so no caller changes another’s', () => {
    const first = transferRequestOpenApiSchema() as { example: { body: { amount: string } } };
    first.example.body.amount = '1.00';
    expect(transferRequestOpenApiSchema()).toMatchObject({ example: { body: { amount: '1234.50' } } });
  });
});
