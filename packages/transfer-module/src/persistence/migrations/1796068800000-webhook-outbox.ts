import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// Webhooks: the endpoints hosts register, the outbox of events (written in the same transaction as the
// change each one reports), one delivery per event and endpoint, and every attempt of a delivery. The id
// columns and the spelling of a few types differ between the engines; literal DDL only.

const endpointColumns = `
  "id" varchar(40) NOT NULL,
  "url" text NOT NULL,
  "description" text,
  "event_types" text NOT NULL,
  "secret" text NOT NULL,
  "previous_secret" text,
  "previous_secret_expires_at_ms" bigint,
  "disabled_at_ms" bigint,
  "disabled_reason" text,
  "created_at_ms" bigint NOT NULL,
  "updated_at_ms" bigint NOT NULL,
  CONSTRAINT "PK_giro_webhook_endpoints" PRIMARY KEY ("id")`;

const eventColumns = (seqColumn: string) => `
  ${seqColumn},
  "id" varchar(40) NOT NULL,
  "type" varchar(40) NOT NULL,
  "origin_id" bigint,
  "payload" text NOT NULL,
  "created_at_ms" bigint NOT NULL,
  CONSTRAINT "UQ_giro_webhook_events_id" UNIQUE ("id")`;

const deliveryColumns = (idColumn: string) => `
  ${idColumn},
  "event_seq" bigint NOT NULL,
  "endpoint_id" varchar(40) NOT NULL,
  "origin_id" bigint,
  "state" varchar(12) NOT NULL,
  "attempts" integer NOT NULL DEFAULT 0,
  "next_attempt_at_ms" bigint NOT NULL,
  "lease_owner" varchar(200),
  "lease_expires_at_ms" bigint,
  "last_attempt_at_ms" bigint,
  "last_status_code" integer,
  "last_error" text,
  "delivered_at_ms" bigint,
  "created_at_ms" bigint NOT NULL,
  CONSTRAINT "CHK_giro_webhook_deliveries_state" CHECK ("state" IN ('pending', 'delivered', 'dead')),
  CONSTRAINT "FK_giro_webhook_deliveries_event" FOREIGN KEY ("event_seq")
    REFERENCES "giro_webhook_events" ("seq") ON DELETE CASCADE,
  CONSTRAINT "FK_giro_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id")
    REFERENCES "giro_webhook_endpoints" ("id") ON DELETE CASCADE`;

const attemptColumns = (idColumn: string) => `
  ${idColumn},
  "delivery_id" bigint NOT NULL,
  "at_ms" bigint NOT NULL,
  "duration_ms" integer NOT NULL,
  "status_code" integer,
  "error" text,
  "response" text,
  CONSTRAINT "FK_giro_webhook_attempts_delivery" FOREIGN KEY ("delivery_id")
    REFERENCES "giro_webhook_deliveries" ("id") ON DELETE CASCADE`;

const indexes = [
  'CREATE INDEX "IDX_giro_webhook_events_origin_id" ON "giro_webhook_events" ("origin_id")',
  // The dispatcher's claim: pending deliveries by due time. Partial: a delivered one leaves the index.
  `CREATE INDEX "IDX_giro_webhook_deliveries_due" ON "giro_webhook_deliveries" ("next_attempt_at_ms")
    WHERE "state" = 'pending'`,
  // Order per transfer: is an earlier delivery of the same transfer to the same endpoint still pending?
  `CREATE INDEX "IDX_giro_webhook_deliveries_order" ON "giro_webhook_deliveries" ("endpoint_id", "origin_id", "event_seq")
    WHERE "state" = 'pending'`,
  // The dead ones, few, for an operator to see and deliver again.
  `CREATE INDEX "IDX_giro_webhook_deliveries_dead" ON "giro_webhook_deliveries" ("endpoint_id", "id")
    WHERE "state" = 'dead'`,
  'CREATE INDEX "IDX_giro_webhook_deliveries_endpoint" ON "giro_webhook_deliveries" ("endpoint_id", "id")',
  'CREATE INDEX "IDX_giro_webhook_deliveries_event" ON "giro_webhook_deliveries" ("event_seq")',
  'CREATE INDEX "IDX_giro_webhook_attempts_delivery" ON "giro_webhook_attempts" ("delivery_id")',
];

// SQLite allows AUTOINCREMENT only on "integer PRIMARY KEY" (a 64-bit rowid).
const sqliteUp = [
  `CREATE TABLE "giro_webhook_endpoints" (${endpointColumns})`,
  `CREATE TABLE "giro_webhook_events" (${eventColumns('"seq" integer PRIMARY KEY AUTOINCREMENT NOT NULL')})`,
  `CREATE TABLE "giro_webhook_deliveries" (${deliveryColumns('"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL')})`,
  `CREATE TABLE "giro_webhook_attempts" (${attemptColumns('"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL')})`,
  ...indexes,
];

const postgresUp = [
  `CREATE TABLE "giro_webhook_endpoints" (${endpointColumns})`,
  `CREATE TABLE "giro_webhook_events" (${eventColumns('"seq" BIGSERIAL NOT NULL')},
    CONSTRAINT "PK_giro_webhook_events" PRIMARY KEY ("seq"))`,
  `CREATE TABLE "giro_webhook_deliveries" (${deliveryColumns('"id" BIGSERIAL NOT NULL')},
    CONSTRAINT "PK_giro_webhook_deliveries" PRIMARY KEY ("id"))`,
  `CREATE TABLE "giro_webhook_attempts" (${attemptColumns('"id" BIGSERIAL NOT NULL')},
    CONSTRAINT "PK_giro_webhook_attempts" PRIMARY KEY ("id"))`,
  ...indexes,
];

const down = [
  'DROP TABLE "giro_webhook_attempts"',
  'DROP TABLE "giro_webhook_deliveries"',
  'DROP TABLE "giro_webhook_events"',
  'DROP TABLE "giro_webhook_endpoints"',
];

export class WebhookOutbox1796068800000 implements MigrationInterface {
  name = 'WebhookOutbox1796068800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = engineOf(queryRunner.connection) === 'sqlite' ? sqliteUp : postgresUp;
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of down) await queryRunner.query(statement);
  }
}
