import { WEBHOOK_EVENT_TYPES } from '@giro/transfer-module';
import type { SchemaObject } from '@nestjs/swagger';

// The OpenAPI schemas of the webhook routes: WebhookService's views (`@giro/transfer-module`), with examples.

/** The types an endpoint may choose (`webhook.test` goes to the endpoint it is sent to, whatever it chose). */
const SUBSCRIBABLE = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test');

const EXAMPLE_TIME = '2026-05-04T15:20:00.000Z';
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });

export const WEBHOOK_ENDPOINT_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'A webhook endpoint. Its secret is never shown here: only when it is created or rotated.',
  properties: {
    id: { type: 'string', example: 'ep_3kq9Zf2m1XbV0cYt8uQw' },
    url: { type: 'string', example: 'https://hooks.example.com/giro' },
    description: nullable({ type: 'string', example: 'payouts service' }),
    eventTypes: {
      type: 'array',
      items: { type: 'string', enum: SUBSCRIBABLE },
      description: 'the event types it receives; empty: all',
      example: ['transfer.completed', 'transfer.failed'],
    },
    enabled: { type: 'boolean', example: true },
    disabledAt: nullable({ type: 'string', format: 'date-time', example: null }),
    disabledReason: nullable({
      type: 'string',
      description: '`disabled by an operator`, or `the receiver answered 410 Gone`',
      example: null,
    }),
    previousSecretExpiresAt: nullable({
      type: 'string',
      format: 'date-time',
      description: 'after a rotation: until when the previous secret still signs beside the new one',
      example: null,
    }),
    createdAt: { type: 'string', format: 'date-time', example: EXAMPLE_TIME },
    updatedAt: { type: 'string', format: 'date-time', example: EXAMPLE_TIME },
  },
};

export const WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'The endpoint and its signing secret, shown this once: store it where the receiver reads it.',
  properties: {
    endpoint: WEBHOOK_ENDPOINT_SCHEMA,
    secret: {
      type: 'string',
      description: 'the Standard Webhooks secret (`whsec_` and base64), for the standardwebhooks library',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    },
  },
};

export const CREATE_WEBHOOK_ENDPOINT_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      maxLength: 2048,
      description:
        'https; http only to a loopback host with WEBHOOK_ALLOW_LOOPBACK. Loopback, private and link-local addresses ' +
        'are refused unless allowed (checked again on every connection, after DNS)',
      example: 'https://hooks.example.com/giro',
    },
    eventTypes: {
      type: 'array',
      items: { type: 'string', enum: SUBSCRIBABLE },
      description: 'the event types to receive; empty or absent: all',
      example: ['transfer.completed', 'transfer.failed'],
    },
    description: nullable({ type: 'string', maxLength: 200, example: 'payouts service' }),
  },
};

export const UPDATE_WEBHOOK_ENDPOINT_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...CREATE_WEBHOOK_ENDPOINT_SCHEMA.properties,
    enabled: {
      type: 'boolean',
      description: 'false: nothing is sent to it (its deliveries wait); true: enabled again, after a 410 too',
      example: false,
    },
  },
  example: { enabled: false },
};

export const WEBHOOK_DELIVERY_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'One event for one endpoint, and where its delivery stands.',
  properties: {
    id: { type: 'integer', example: 412 },
    endpointId: { type: 'string', example: 'ep_3kq9Zf2m1XbV0cYt8uQw' },
    eventId: {
      type: 'string',
      description: 'the `webhook-id` header: the same on every attempt',
      example: 'msg_0sWbq5vQ2ZlC3kq1m8xYfA',
    },
    eventType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES], example: 'transfer.completed' },
    originId: nullable({ type: 'integer', example: 1001 }),
    state: { type: 'string', enum: ['pending', 'delivered', 'dead'], example: 'delivered' },
    attempts: { type: 'integer', example: 1 },
    nextAttemptAt: nullable({ type: 'string', format: 'date-time', description: 'while pending', example: null }),
    lastAttemptAt: nullable({ type: 'string', format: 'date-time', example: EXAMPLE_TIME }),
    lastStatusCode: nullable({ type: 'integer', example: 204 }),
    lastError: nullable({ type: 'string', example: null }),
    deliveredAt: nullable({ type: 'string', format: 'date-time', example: EXAMPLE_TIME }),
    createdAt: {
      type: 'string',
      format: 'date-time',
      description: 'when the event was committed',
      example: EXAMPLE_TIME,
    },
  },
};

export const WEBHOOK_DELIVERY_WITH_PAYLOAD_SCHEMA: SchemaObject = {
  allOf: [
    WEBHOOK_DELIVERY_SCHEMA,
    {
      type: 'object',
      properties: {
        payload: {
          type: 'object',
          description: 'the body as sent: `{ type, timestamp, data }`',
          example: {
            type: 'transfer.completed',
            timestamp: EXAMPLE_TIME,
            data: { originId: 1001, movement: { originId: 1001, status: 'COMPLETED', amount: '1234.50' } },
          },
        },
      },
    },
  ],
};

export const WEBHOOK_DELIVERY_PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    items: { type: 'array', items: WEBHOOK_DELIVERY_SCHEMA },
    nextCursor: nullable({
      type: 'string',
      description: 'pass it as `before` for the next (older) page',
      example: null,
    }),
  },
};

export const WEBHOOK_ATTEMPT_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    at: { type: 'string', format: 'date-time', example: EXAMPLE_TIME },
    durationMs: { type: 'integer', example: 38 },
    statusCode: nullable({ type: 'integer', description: "the receiver's HTTP status; null: no answer", example: 500 }),
    error: nullable({ type: 'string', description: 'null when delivered', example: 'HTTP 500' }),
    response: nullable({ type: 'string', description: "the start of the receiver's answer", example: 'oops' }),
  },
};
