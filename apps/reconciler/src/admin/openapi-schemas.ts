import { CONCEPT_CODES } from '@giro/transfer-module';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DEMO_PAYEES, DEMO_PAYER } from '../demo/demo-batch';

const PARTY: SchemaObject = {
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

/** SPEC §2.1, as `POST /admin/transfers` accepts it. */
export const TRANSFER_REQUEST_SCHEMA: SchemaObject = {
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
    from: DEMO_PAYER,
    to: {
      addressType: 'CBU_CVU',
      address: DEMO_PAYEES[0].address,
      owner: { personIdType: 'CUI', personId: DEMO_PAYEES[0].personId },
    },
    body: { currencyId: '032', amount: '1234.50', description: 'rent May', concept: 'ALQ' },
  },
};
