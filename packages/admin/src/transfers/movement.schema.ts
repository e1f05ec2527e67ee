import { MOVEMENT_STATUSES } from '@giro/transfer-module';
import { HISTORY_SOURCES } from '@giro/transfer-module/persistence';
import type { SchemaObject } from '@nestjs/swagger';

// The movement as the admin API answers it (MovementView), described for the OpenAPI document: a named schema
// (`#/components/schemas/Movement`), so that a generated client (`@giro/client`) types its answers. Its type and
// this description are checked against each other by the client's specs (movement-schema.spec.ts).

const string: SchemaObject = { type: 'string' };
const nullableString: SchemaObject = { type: 'string', nullable: true };
const isoTime: SchemaObject = { type: 'string', format: 'date-time' };
const nullableIsoTime: SchemaObject = { ...isoTime, nullable: true };
const status: SchemaObject = { type: 'string', enum: [...MOVEMENT_STATUSES] };

const object = (properties: Record<string, SchemaObject>, optional: string[] = []): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});
const allOptional = (properties: Record<string, SchemaObject>) => object(properties, Object.keys(properties));
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });

const actor = object({ keyId: string, name: string });
const party = object({
  addressType: { type: 'string', enum: ['CBU_CVU'] },
  address: string,
  owner: object({ personIdType: { type: 'string', enum: ['CUI'] }, personId: string }),
});
const accountRouting = allOptional({ addressType: string, address: string });
const bankDetails = allOptional({
  movementId: string,
  type: string,
  typeDescription: string,
  network: string,
  networkId: string,
  postingDatetime: string,
  completedDatetime: string,
  motiveCode: string,
  message: string,
  counterparty: allOptional({ personId: string, personIdType: string, personName: string, accountRouting }),
  thisSubAccount: allOptional({
    owners: allOptional({ personId: string, personIdType: string, personName: string, personType: string }),
    accountRouting,
  }),
});

export const CANCELLATION_SCHEMA = object({
  originId: { type: 'integer' },
  amount: string,
  currencyId: string,
  reason: object({
    kind: { type: 'string', enum: ['failed', 'refused'] },
    code: nullableString,
    message: nullableString,
  }),
  createdAt: isoTime,
  acknowledgedAt: nullableIsoTime,
  reference: nullableString,
  acknowledgedBy: nullable(actor),
});

export const MOVEMENT_SCHEMA = object(
  {
    originId: { type: 'integer' },
    status,
    amount: { ...string, description: 'decimal, two places' },
    currencyId: string,
    from: party,
    to: party,
    description: string,
    concept: string,
    networkId: nullableString,
    bankMovementId: nullableString,
    attempts: { type: 'integer' },
    queries: { type: 'integer' },
    lastError: nullableString,
    lastAnswerAt: nullableIsoTime,
    nextQueryAt: nullableIsoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
    history: {
      type: 'array',
      items: object(
        {
          from: nullable(status),
          to: status,
          at: isoTime,
          source: { type: 'string', enum: [...HISTORY_SOURCES] },
          by: actor,
          reason: string,
        },
        ['by', 'reason'],
      ),
    },
    anomalies: {
      type: 'array',
      items: object(
        {
          id: { type: 'integer' },
          at: isoTime,
          status: nullable(status),
          claimed: status,
          kind: string,
          reason: nullableString,
          bank: nullable(bankDetails),
          resolution: nullable(object({ at: isoTime, by: actor, note: string })),
        },
        ['kind'],
      ),
    },
    cancellation: nullable(CANCELLATION_SCHEMA),
    bank: nullable(bankDetails),
    approval: object({
      expiresAt: nullableIsoTime,
      decision: { type: 'string', enum: ['approved', 'rejected', 'expired'], nullable: true },
      decidedBy: nullable(actor),
      decidedAt: nullableIsoTime,
      reason: nullableString,
      holds: { type: 'array', items: object({ reason: { type: 'string', enum: ['amount', 'new_payee'] } }) },
    }),
    schedule: object({
      executeAt: isoTime,
      requested: {
        oneOf: [object({ executeOn: { type: 'string', format: 'date' } }), object({ executeAt: isoTime })],
      },
    }),
    statement: object({
      importId: { type: 'string', format: 'uuid', description: 'the statement import (GET /admin/statements/:id)' },
      line: { type: 'integer', description: "the line's number in the statement file" },
      date: { type: 'string', format: 'date', description: "the line's day" },
    }),
  },
  ['approval', 'schedule', 'statement'],
);

/** The named schemas setupAdminOpenApi adds to the document. */
export const ADMIN_SCHEMAS: Record<string, SchemaObject> = { Movement: MOVEMENT_SCHEMA };

/** A reference to the Movement schema, for a response. */
export const MOVEMENT_REF = { $ref: '#/components/schemas/Movement' };
