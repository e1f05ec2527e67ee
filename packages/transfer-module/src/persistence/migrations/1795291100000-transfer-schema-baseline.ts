import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';
import { unlessTrigramsCannotBeUsed } from './1796760000000-movement-text';
import { PAYEE_SCHEMA } from './1797451200000-payees';
import { markBuiltByBaseline } from './after-baseline';

// Today's schema in one migration per engine, for a fresh database: the statements the steps from
// CreateTransferSchema1795291200000 to Payees1797451200000 leave behind, in the order they leave
// them (SQLite breaks a tie between two indexes by their order; the text as SQLite keeps it, and as pg_dump writes
// Postgres's). A database made by an earlier build goes on upgrading through the steps instead; migrations-baseline.spec.ts
// proves both roads give the same schema. Its timestamp comes before the first step's, so that TypeORM runs it first
// on a fresh database; the steps it covers then do nothing in that run (after-baseline.ts). To be regenerated from a
// database the steps made when a step is added to TRANSFER_MIGRATION_STEPS (or the step left after the baseline).

/** SQLite: sqlite_master's statements, FTS5's shadow tables left to its virtual table. */
const SQLITE_SCHEMA = [
  `CREATE TABLE "giro_movement_history" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "origin_id" bigint NOT NULL,
  "from_status" varchar(16),
  "to_status" varchar(16) NOT NULL,
  "at_ms" bigint NOT NULL,
  "source" varchar(16) NOT NULL,
  "detail" text, "actor_key_id" varchar(64), "actor_name" varchar(64),
  CONSTRAINT "FK_giro_movement_history_movement" FOREIGN KEY ("origin_id")
    REFERENCES "giro_movements" ("origin_id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
  `CREATE TABLE "giro_cancellations" (
  "origin_id" bigint NOT NULL,
  "amount" varchar(32) NOT NULL,
  "currency_id" varchar(3) NOT NULL,
  "reason_code" text,
  "reason_message" text,
  "created_at_ms" bigint NOT NULL,
  "acknowledged_at_ms" bigint, "reference" varchar(100), "acknowledged_by_key_id" varchar(64), "acknowledged_by_name" varchar(64),
  CONSTRAINT "PK_giro_cancellations" PRIMARY KEY ("origin_id"),
  CONSTRAINT "FK_giro_cancellations_movement" FOREIGN KEY ("origin_id")
    REFERENCES "giro_movements" ("origin_id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
  `CREATE TABLE "giro_origin_id_counter" (
  "name" varchar(32) NOT NULL,
  "next_value" bigint NOT NULL,
  CONSTRAINT "PK_giro_origin_id_counter" PRIMARY KEY ("name"))`,
  `CREATE INDEX "IDX_giro_movement_history_origin_id" ON "giro_movement_history" ("origin_id")`,
  `CREATE INDEX "IDX_giro_cancellations_acknowledged_at" ON "giro_cancellations" ("acknowledged_at_ms")`,
  `CREATE TRIGGER "TRG_giro_movement_history_no_update" BEFORE UPDATE ON "giro_movement_history"
   BEGIN SELECT RAISE(ABORT, 'giro_movement_history is append-only'); END`,
  `CREATE TRIGGER "TRG_giro_movement_history_no_delete" BEFORE DELETE ON "giro_movement_history"
   BEGIN SELECT RAISE(ABORT, 'giro_movement_history is append-only'); END`,
  `CREATE TABLE "giro_sub_accounts" (
  "address" varchar(22) NOT NULL,
  "owner_person_id" varchar(11) NOT NULL,
  "owner_name" text,
  "created_at_ms" bigint NOT NULL,
  "disabled_at_ms" bigint,
  CONSTRAINT "PK_giro_sub_accounts" PRIMARY KEY ("address")
)`,
  `CREATE TABLE "giro_webhook_endpoints" (
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
  CONSTRAINT "PK_giro_webhook_endpoints" PRIMARY KEY ("id"))`,
  `CREATE TABLE "giro_webhook_events" (
  "seq" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "id" varchar(40) NOT NULL,
  "type" varchar(40) NOT NULL,
  "origin_id" bigint,
  "payload" text NOT NULL,
  "created_at_ms" bigint NOT NULL, "trace_parent" varchar(55),
  CONSTRAINT "UQ_giro_webhook_events_id" UNIQUE ("id"))`,
  `CREATE TABLE "giro_webhook_deliveries" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
    REFERENCES "giro_webhook_endpoints" ("id") ON DELETE CASCADE)`,
  `CREATE TABLE "giro_webhook_attempts" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "delivery_id" bigint NOT NULL,
  "at_ms" bigint NOT NULL,
  "duration_ms" integer NOT NULL,
  "status_code" integer,
  "error" text,
  "response" text,
  CONSTRAINT "FK_giro_webhook_attempts_delivery" FOREIGN KEY ("delivery_id")
    REFERENCES "giro_webhook_deliveries" ("id") ON DELETE CASCADE)`,
  `CREATE INDEX "IDX_giro_webhook_events_origin_id" ON "giro_webhook_events" ("origin_id")`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_due" ON "giro_webhook_deliveries" ("next_attempt_at_ms")
    WHERE "state" = 'pending'`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_order" ON "giro_webhook_deliveries" ("endpoint_id", "origin_id", "event_seq")
    WHERE "state" = 'pending'`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_dead" ON "giro_webhook_deliveries" ("endpoint_id", "id")
    WHERE "state" = 'dead'`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_endpoint" ON "giro_webhook_deliveries" ("endpoint_id", "id")`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_event" ON "giro_webhook_deliveries" ("event_seq")`,
  `CREATE INDEX "IDX_giro_webhook_attempts_delivery" ON "giro_webhook_attempts" ("delivery_id")`,
  `CREATE TABLE "giro_api_keys" (
  "key_id" varchar(16) NOT NULL,
  "name" varchar(64) NOT NULL,
  "role" varchar(16) NOT NULL,
  "key_hash" varchar(64) NOT NULL,
  "created_at_ms" bigint NOT NULL,
  "revoked_at_ms" bigint, "created_by_key_id" varchar(64),
  CONSTRAINT "PK_giro_api_keys" PRIMARY KEY ("key_id"),
  CONSTRAINT "UQ_giro_api_keys_name" UNIQUE ("name"),
  CONSTRAINT "CHK_giro_api_keys_role" CHECK ("role" IN ('viewer', 'operator', 'approver', 'admin'))
)`,
  `CREATE TABLE "giro_anomaly_resolutions" (
  "history_id" bigint NOT NULL,
  "resolved_at_ms" bigint NOT NULL,
  "resolved_by_key_id" varchar(64) NOT NULL,
  "resolved_by_name" varchar(64) NOT NULL,
  "note" text NOT NULL,
  CONSTRAINT "PK_giro_anomaly_resolutions" PRIMARY KEY ("history_id"),
  CONSTRAINT "FK_giro_anomaly_resolutions_history" FOREIGN KEY ("history_id")
    REFERENCES "giro_movement_history" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
)`,
  `CREATE INDEX "IDX_giro_movement_history_anomalies" ON "giro_movement_history" ("id") WHERE "source" = 'anomaly'`,
  `CREATE INDEX "IDX_giro_cancellations_created" ON "giro_cancellations" ("created_at_ms", "origin_id")`,
  `CREATE TABLE "giro_limit_usage" (
  "address" varchar(22) NOT NULL,
  "day" varchar(10) NOT NULL,
  "amount_cents" bigint NOT NULL,
  "transfers" integer NOT NULL,
  CONSTRAINT "PK_giro_limit_usage" PRIMARY KEY ("address", "day")
)`,
  `CREATE TABLE "giro_audit" (
  "seq" bigint NOT NULL,
  "at_ms" bigint NOT NULL,
  "actor_key_id" varchar(64),
  "actor_name" varchar(64),
  "actor_role" varchar(16),
  "action" varchar(64) NOT NULL,
  "origin_id" bigint,
  "target" text,
  "before" text,
  "after" text,
  "request_id" varchar(200) NOT NULL,
  "client_address" varchar(100),
  "outcome" varchar(8) NOT NULL,
  "status_code" integer,
  "error" text,
  "prev_hash" varchar(64) NOT NULL,
  "hash" varchar(64) NOT NULL,
  CONSTRAINT "PK_giro_audit" PRIMARY KEY ("seq"),
  CONSTRAINT "CHK_giro_audit_outcome" CHECK ("outcome" IN ('ok', 'refused'))
)`,
  `CREATE INDEX "IDX_giro_audit_origin_id" ON "giro_audit" ("origin_id", "seq")`,
  `CREATE INDEX "IDX_giro_audit_actor_key_id" ON "giro_audit" ("actor_key_id", "seq")`,
  `CREATE INDEX "IDX_giro_audit_actor_name" ON "giro_audit" ("actor_name", "seq")`,
  `CREATE INDEX "IDX_giro_audit_at_ms" ON "giro_audit" ("at_ms")`,
  `CREATE TRIGGER "TRG_giro_audit_no_update" BEFORE UPDATE ON "giro_audit"
   BEGIN SELECT RAISE(ABORT, 'giro_audit is append-only'); END`,
  `CREATE TRIGGER "TRG_giro_audit_no_delete" BEFORE DELETE ON "giro_audit"
   BEGIN SELECT RAISE(ABORT, 'giro_audit is append-only'); END`,
  `CREATE TABLE "giro_movements" (
  "origin_id" bigint NOT NULL,
  "intent" text NOT NULL,
  "fingerprint" varchar(64) NOT NULL,
  "status" varchar(20) NOT NULL,
  "amount" varchar(32) NOT NULL,
  "currency_id" varchar(3) NOT NULL,
  "bank_movement_id" text,
  "network_id" text,
  "network" text,
  "posting_datetime" text,
  "completed_datetime" text,
  "last_bank_answer" text,
  "attempts" integer NOT NULL DEFAULT 0,
  "queries" integer NOT NULL DEFAULT 0,
  "last_error" text,
  "last_answer_at_ms" bigint,
  "next_query_at_ms" bigint,
  "lease_owner" varchar(200),
  "lease_expires_at_ms" bigint,
  "version" integer NOT NULL DEFAULT 1,
  "created_at_ms" bigint NOT NULL,
  "updated_at_ms" bigint NOT NULL, "queries_held_until_ms" bigint, "debin_id" text, "usage_day" varchar(10), "approval_expires_at_ms" bigint, "amount_cents" bigint, "from_address" varchar(22), "from_person_id" varchar(11), "to_address" varchar(22), "to_person_id" varchar(11), "description" text,
  CONSTRAINT "PK_giro_movements" PRIMARY KEY ("origin_id"),
  CONSTRAINT "CHK_giro_movements_status" CHECK ("status" IN ('AWAITING_APPROVAL', 'PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED', 'REJECTED')))`,
  `CREATE INDEX "IDX_giro_movements_next_query_at" ON "giro_movements" ("next_query_at_ms")`,
  `CREATE INDEX "IDX_giro_movements_pending_due" ON "giro_movements" ("next_query_at_ms") WHERE "status" = 'PENDING'`,
  `CREATE INDEX "IDX_giro_movements_debin_id" ON "giro_movements" ("debin_id") WHERE "debin_id" IS NOT NULL`,
  `CREATE INDEX "IDX_giro_movements_network_id" ON "giro_movements" ("network_id") WHERE "network_id" IS NOT NULL`,
  `CREATE INDEX "IDX_giro_movements_awaiting_approval" ON "giro_movements" ("approval_expires_at_ms")
    WHERE "status" = 'AWAITING_APPROVAL'`,
  `CREATE TABLE "giro_replicas" (
  "owner" varchar(200) NOT NULL,
  "started_at_ms" bigint NOT NULL,
  "heartbeat_at_ms" bigint NOT NULL,
  "beating_since_ms" bigint NOT NULL,
  "bank_paused_until_ms" bigint,
  CONSTRAINT "PK_giro_replicas" PRIMARY KEY ("owner")
)`,
  `CREATE INDEX "IDX_giro_movements_from_address" ON "giro_movements" ("from_address", "created_at_ms", "origin_id")`,
  `CREATE INDEX "IDX_giro_movements_to_address" ON "giro_movements" ("to_address", "created_at_ms", "origin_id")`,
  `CREATE INDEX "IDX_giro_movements_from_person" ON "giro_movements" ("from_person_id", "created_at_ms", "origin_id")`,
  `CREATE INDEX "IDX_giro_movements_to_person" ON "giro_movements" ("to_person_id", "created_at_ms", "origin_id")`,
  `CREATE VIRTUAL TABLE "giro_movement_text" USING fts5("description", content='giro_movements', content_rowid='origin_id', tokenize='trigram')`,
  `CREATE TRIGGER "TRG_giro_movement_text_insert" AFTER INSERT ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`,
  `CREATE TRIGGER "TRG_giro_movement_text_update" AFTER UPDATE OF "description" ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`,
  `CREATE TRIGGER "TRG_giro_movement_text_delete" AFTER DELETE ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
  END`,
  `CREATE INDEX "IDX_giro_movements_status_amount" ON "giro_movements" ("status", "amount_cents", "created_at_ms", "origin_id")`,
  `CREATE INDEX "IDX_giro_movements_created" ON "giro_movements" ("created_at_ms", "origin_id", "amount_cents", "description")`,
  `CREATE INDEX "IDX_giro_movements_status_created" ON "giro_movements" ("status", "created_at_ms", "origin_id", "amount_cents")`,
  `CREATE INDEX "IDX_giro_movements_amount" ON "giro_movements" ("amount_cents", "created_at_ms", "origin_id")`,
  `CREATE TRIGGER "TRG_giro_audit_continues_chain" BEFORE INSERT ON "giro_audit"
   WHEN NEW."seq" IS NOT COALESCE((SELECT MAX("seq") FROM "giro_audit"), 0) + 1
     OR NEW."prev_hash" IS NOT COALESCE((SELECT "hash" FROM "giro_audit" ORDER BY "seq" DESC LIMIT 1), '${'0'.repeat(64)}')
   BEGIN SELECT RAISE(ABORT, 'giro_audit only grows: a row must continue the chain'); END`,
];

/** Postgres: pg_dump --schema-only, without the trigram index (below); each CHECK as the steps wrote it. */
const POSTGRES_SCHEMA = [
  `CREATE FUNCTION giro_refuse_audit_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
   BEGIN RAISE EXCEPTION 'giro_audit is append-only'; END $$`,
  `CREATE FUNCTION giro_refuse_history_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
   BEGIN RAISE EXCEPTION 'giro_movement_history is append-only'; END $$`,
  `CREATE TABLE giro_anomaly_resolutions (
    history_id bigint NOT NULL,
    resolved_at_ms bigint NOT NULL,
    resolved_by_key_id character varying(64) NOT NULL,
    resolved_by_name character varying(64) NOT NULL,
    note text NOT NULL
)`,
  `CREATE TABLE giro_api_keys (
    key_id character varying(16) NOT NULL,
    name character varying(64) NOT NULL,
    role character varying(16) NOT NULL,
    key_hash character varying(64) NOT NULL,
    created_at_ms bigint NOT NULL,
    revoked_at_ms bigint,
    created_by_key_id character varying(64),
    CONSTRAINT "CHK_giro_api_keys_role" CHECK ("role" IN ('viewer', 'operator', 'approver', 'admin'))
)`,
  `CREATE TABLE giro_audit (
    seq bigint NOT NULL,
    at_ms bigint NOT NULL,
    actor_key_id character varying(64),
    actor_name character varying(64),
    actor_role character varying(16),
    action character varying(64) NOT NULL,
    origin_id bigint,
    target text,
    before text,
    after text,
    request_id character varying(200) NOT NULL,
    client_address character varying(100),
    outcome character varying(8) NOT NULL,
    status_code integer,
    error text,
    prev_hash character varying(64) NOT NULL,
    hash character varying(64) NOT NULL,
    CONSTRAINT "CHK_giro_audit_outcome" CHECK ("outcome" IN ('ok', 'refused'))
)`,
  `CREATE TABLE giro_cancellations (
    origin_id bigint NOT NULL,
    amount character varying(32) NOT NULL,
    currency_id character varying(3) NOT NULL,
    reason_code text,
    reason_message text,
    created_at_ms bigint NOT NULL,
    acknowledged_at_ms bigint,
    reference character varying(100),
    acknowledged_by_key_id character varying(64),
    acknowledged_by_name character varying(64)
)`,
  `CREATE TABLE giro_limit_usage (
    address character varying(22) NOT NULL,
    day character varying(10) NOT NULL,
    amount_cents bigint NOT NULL,
    transfers integer NOT NULL
)`,
  `CREATE TABLE giro_movement_history (
    id bigint NOT NULL,
    origin_id bigint NOT NULL,
    from_status character varying(20),
    to_status character varying(20) NOT NULL,
    at_ms bigint NOT NULL,
    source character varying(16) NOT NULL,
    detail text,
    actor_key_id character varying(64),
    actor_name character varying(64)
)`,
  `CREATE SEQUENCE giro_movement_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1`,
  `ALTER SEQUENCE giro_movement_history_id_seq OWNED BY giro_movement_history.id`,
  `CREATE TABLE giro_movements (
    origin_id bigint NOT NULL,
    intent text NOT NULL,
    fingerprint character varying(64) NOT NULL,
    status character varying(20) NOT NULL,
    amount character varying(32) NOT NULL,
    currency_id character varying(3) NOT NULL,
    bank_movement_id text,
    network_id text,
    network text,
    posting_datetime text,
    completed_datetime text,
    last_bank_answer text,
    attempts integer DEFAULT 0 NOT NULL,
    queries integer DEFAULT 0 NOT NULL,
    last_error text,
    last_answer_at_ms bigint,
    next_query_at_ms bigint,
    lease_owner character varying(200),
    lease_expires_at_ms bigint,
    version integer DEFAULT 1 NOT NULL,
    created_at_ms bigint NOT NULL,
    updated_at_ms bigint NOT NULL,
    queries_held_until_ms bigint,
    debin_id text,
    usage_day character varying(10),
    approval_expires_at_ms bigint,
    amount_cents bigint,
    from_address character varying(22),
    from_person_id character varying(11),
    to_address character varying(22),
    to_person_id character varying(11),
    description text,
    CONSTRAINT "CHK_giro_movements_status" CHECK ("status" IN ('AWAITING_APPROVAL', 'PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED', 'REJECTED'))
)
WITH (fillfactor='80')`,
  `CREATE TABLE giro_origin_id_counter (
    name character varying(32) NOT NULL,
    next_value bigint NOT NULL
)`,
  `CREATE TABLE giro_replicas (
    owner character varying(200) NOT NULL,
    started_at_ms bigint NOT NULL,
    heartbeat_at_ms bigint NOT NULL,
    beating_since_ms bigint NOT NULL,
    bank_paused_until_ms bigint
)`,
  `CREATE TABLE giro_sub_accounts (
    address character varying(22) NOT NULL,
    owner_person_id character varying(11) NOT NULL,
    owner_name text,
    created_at_ms bigint NOT NULL,
    disabled_at_ms bigint
)`,
  `CREATE TABLE giro_webhook_attempts (
    id bigint NOT NULL,
    delivery_id bigint NOT NULL,
    at_ms bigint NOT NULL,
    duration_ms integer NOT NULL,
    status_code integer,
    error text,
    response text
)`,
  `CREATE SEQUENCE giro_webhook_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1`,
  `ALTER SEQUENCE giro_webhook_attempts_id_seq OWNED BY giro_webhook_attempts.id`,
  `CREATE TABLE giro_webhook_deliveries (
    id bigint NOT NULL,
    event_seq bigint NOT NULL,
    endpoint_id character varying(40) NOT NULL,
    origin_id bigint,
    state character varying(12) NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at_ms bigint NOT NULL,
    lease_owner character varying(200),
    lease_expires_at_ms bigint,
    last_attempt_at_ms bigint,
    last_status_code integer,
    last_error text,
    delivered_at_ms bigint,
    created_at_ms bigint NOT NULL,
    CONSTRAINT "CHK_giro_webhook_deliveries_state" CHECK ("state" IN ('pending', 'delivered', 'dead'))
)`,
  `CREATE SEQUENCE giro_webhook_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1`,
  `ALTER SEQUENCE giro_webhook_deliveries_id_seq OWNED BY giro_webhook_deliveries.id`,
  `CREATE TABLE giro_webhook_endpoints (
    id character varying(40) NOT NULL,
    url text NOT NULL,
    description text,
    event_types text NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at_ms bigint,
    disabled_at_ms bigint,
    disabled_reason text,
    created_at_ms bigint NOT NULL,
    updated_at_ms bigint NOT NULL
)`,
  `CREATE TABLE giro_webhook_events (
    seq bigint NOT NULL,
    id character varying(40) NOT NULL,
    type character varying(40) NOT NULL,
    origin_id bigint,
    payload text NOT NULL,
    created_at_ms bigint NOT NULL,
    trace_parent character varying(55)
)`,
  `CREATE SEQUENCE giro_webhook_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1`,
  `ALTER SEQUENCE giro_webhook_events_seq_seq OWNED BY giro_webhook_events.seq`,
  `ALTER TABLE ONLY giro_movement_history ALTER COLUMN id SET DEFAULT nextval('giro_movement_history_id_seq'::regclass)`,
  `ALTER TABLE ONLY giro_webhook_attempts ALTER COLUMN id SET DEFAULT nextval('giro_webhook_attempts_id_seq'::regclass)`,
  `ALTER TABLE ONLY giro_webhook_deliveries ALTER COLUMN id SET DEFAULT nextval('giro_webhook_deliveries_id_seq'::regclass)`,
  `ALTER TABLE ONLY giro_webhook_events ALTER COLUMN seq SET DEFAULT nextval('giro_webhook_events_seq_seq'::regclass)`,
  `ALTER TABLE ONLY giro_anomaly_resolutions
    ADD CONSTRAINT "PK_giro_anomaly_resolutions" PRIMARY KEY (history_id)`,
  `ALTER TABLE ONLY giro_api_keys
    ADD CONSTRAINT "PK_giro_api_keys" PRIMARY KEY (key_id)`,
  `ALTER TABLE ONLY giro_audit
    ADD CONSTRAINT "PK_giro_audit" PRIMARY KEY (seq)`,
  `ALTER TABLE ONLY giro_cancellations
    ADD CONSTRAINT "PK_giro_cancellations" PRIMARY KEY (origin_id)`,
  `ALTER TABLE ONLY giro_limit_usage
    ADD CONSTRAINT "PK_giro_limit_usage" PRIMARY KEY (address, day)`,
  `ALTER TABLE ONLY giro_movement_history
    ADD CONSTRAINT "PK_giro_movement_history" PRIMARY KEY (id)`,
  `ALTER TABLE ONLY giro_movements
    ADD CONSTRAINT "PK_giro_movements" PRIMARY KEY (origin_id)`,
  `ALTER TABLE ONLY giro_origin_id_counter
    ADD CONSTRAINT "PK_giro_origin_id_counter" PRIMARY KEY (name)`,
  `ALTER TABLE ONLY giro_replicas
    ADD CONSTRAINT "PK_giro_replicas" PRIMARY KEY (owner)`,
  `ALTER TABLE ONLY giro_sub_accounts
    ADD CONSTRAINT "PK_giro_sub_accounts" PRIMARY KEY (address)`,
  `ALTER TABLE ONLY giro_webhook_attempts
    ADD CONSTRAINT "PK_giro_webhook_attempts" PRIMARY KEY (id)`,
  `ALTER TABLE ONLY giro_webhook_deliveries
    ADD CONSTRAINT "PK_giro_webhook_deliveries" PRIMARY KEY (id)`,
  `ALTER TABLE ONLY giro_webhook_endpoints
    ADD CONSTRAINT "PK_giro_webhook_endpoints" PRIMARY KEY (id)`,
  `ALTER TABLE ONLY giro_webhook_events
    ADD CONSTRAINT "PK_giro_webhook_events" PRIMARY KEY (seq)`,
  `ALTER TABLE ONLY giro_api_keys
    ADD CONSTRAINT "UQ_giro_api_keys_name" UNIQUE (name)`,
  `ALTER TABLE ONLY giro_webhook_events
    ADD CONSTRAINT "UQ_giro_webhook_events_id" UNIQUE (id)`,
  `CREATE INDEX "IDX_giro_audit_actor_key_id" ON giro_audit USING btree (actor_key_id, seq)`,
  `CREATE INDEX "IDX_giro_audit_actor_name" ON giro_audit USING btree (actor_name, seq)`,
  `CREATE INDEX "IDX_giro_audit_at_ms" ON giro_audit USING btree (at_ms)`,
  `CREATE INDEX "IDX_giro_audit_origin_id" ON giro_audit USING btree (origin_id, seq)`,
  `CREATE INDEX "IDX_giro_cancellations_acknowledged_at" ON giro_cancellations USING btree (acknowledged_at_ms)`,
  `CREATE INDEX "IDX_giro_cancellations_created" ON giro_cancellations USING btree (created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movement_history_anomalies" ON giro_movement_history USING btree (id) WHERE ((source)::text = 'anomaly'::text)`,
  `CREATE INDEX "IDX_giro_movement_history_origin_id" ON giro_movement_history USING btree (origin_id)`,
  `CREATE INDEX "IDX_giro_movements_amount" ON giro_movements USING btree (amount_cents, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movements_awaiting_approval" ON giro_movements USING btree (approval_expires_at_ms) WHERE ((status)::text = 'AWAITING_APPROVAL'::text)`,
  `CREATE INDEX "IDX_giro_movements_created" ON giro_movements USING btree (created_at_ms, origin_id, amount_cents, description)`,
  `CREATE INDEX "IDX_giro_movements_debin_id" ON giro_movements USING btree (debin_id) WHERE (debin_id IS NOT NULL)`,
  `CREATE INDEX "IDX_giro_movements_from_address" ON giro_movements USING btree (from_address, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movements_from_person" ON giro_movements USING btree (from_person_id, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movements_network_id" ON giro_movements USING btree (network_id) WHERE (network_id IS NOT NULL)`,
  `CREATE INDEX "IDX_giro_movements_next_query_at" ON giro_movements USING btree (next_query_at_ms)`,
  `CREATE INDEX "IDX_giro_movements_pending_due" ON giro_movements USING btree (next_query_at_ms) WHERE ((status)::text = 'PENDING'::text)`,
  `CREATE INDEX "IDX_giro_movements_status_amount" ON giro_movements USING btree (status, amount_cents, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movements_status_created" ON giro_movements USING btree (status, created_at_ms, origin_id, amount_cents)`,
  `CREATE INDEX "IDX_giro_movements_to_address" ON giro_movements USING btree (to_address, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_movements_to_person" ON giro_movements USING btree (to_person_id, created_at_ms, origin_id)`,
  `CREATE INDEX "IDX_giro_webhook_attempts_delivery" ON giro_webhook_attempts USING btree (delivery_id)`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_dead" ON giro_webhook_deliveries USING btree (endpoint_id, id) WHERE ((state)::text = 'dead'::text)`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_due" ON giro_webhook_deliveries USING btree (next_attempt_at_ms) WHERE ((state)::text = 'pending'::text)`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_endpoint" ON giro_webhook_deliveries USING btree (endpoint_id, id)`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_event" ON giro_webhook_deliveries USING btree (event_seq)`,
  `CREATE INDEX "IDX_giro_webhook_deliveries_order" ON giro_webhook_deliveries USING btree (endpoint_id, origin_id, event_seq) WHERE ((state)::text = 'pending'::text)`,
  `CREATE INDEX "IDX_giro_webhook_events_origin_id" ON giro_webhook_events USING btree (origin_id)`,
  `CREATE TRIGGER "TRG_giro_audit_append_only" BEFORE DELETE OR UPDATE ON giro_audit FOR EACH ROW EXECUTE FUNCTION giro_refuse_audit_change()`,
  `CREATE TRIGGER "TRG_giro_audit_no_truncate" BEFORE TRUNCATE ON giro_audit FOR EACH STATEMENT EXECUTE FUNCTION giro_refuse_audit_change()`,
  `CREATE TRIGGER "TRG_giro_movement_history_append_only" BEFORE DELETE OR UPDATE ON giro_movement_history FOR EACH ROW EXECUTE FUNCTION giro_refuse_history_change()`,
  `ALTER TABLE ONLY giro_anomaly_resolutions
    ADD CONSTRAINT "FK_giro_anomaly_resolutions_history" FOREIGN KEY (history_id) REFERENCES giro_movement_history(id) ON DELETE RESTRICT`,
  `ALTER TABLE ONLY giro_cancellations
    ADD CONSTRAINT "FK_giro_cancellations_movement" FOREIGN KEY (origin_id) REFERENCES giro_movements(origin_id) ON DELETE RESTRICT`,
  `ALTER TABLE ONLY giro_movement_history
    ADD CONSTRAINT "FK_giro_movement_history_movement" FOREIGN KEY (origin_id) REFERENCES giro_movements(origin_id) ON DELETE RESTRICT`,
  `ALTER TABLE ONLY giro_webhook_attempts
    ADD CONSTRAINT "FK_giro_webhook_attempts_delivery" FOREIGN KEY (delivery_id) REFERENCES giro_webhook_deliveries(id) ON DELETE CASCADE`,
  `ALTER TABLE ONLY giro_webhook_deliveries
    ADD CONSTRAINT "FK_giro_webhook_deliveries_endpoint" FOREIGN KEY (endpoint_id) REFERENCES giro_webhook_endpoints(id) ON DELETE CASCADE`,
  `ALTER TABLE ONLY giro_webhook_deliveries
    ADD CONSTRAINT "FK_giro_webhook_deliveries_event" FOREIGN KEY (event_seq) REFERENCES giro_webhook_events(seq) ON DELETE CASCADE`,
];

/** Postgres: the description's trigram index, left out where the database's role may not create pg_trgm. */
const POSTGRES_TRIGRAMS = [
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE INDEX "IDX_giro_movements_description_trgm" ON giro_movements USING gin (lower(description) gin_trgm_ops)`,
];

export class TransferSchemaBaseline1795291100000 implements MigrationInterface {
  name = 'TransferSchemaBaseline1795291100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A database made by an earlier build has the schema already: its steps bring it up to date.
    if (await queryRunner.hasTable('giro_movements')) return;
    if (engineOf(queryRunner.connection) === 'sqlite') {
      for (const statement of [...SQLITE_SCHEMA, ...PAYEE_SCHEMA.sqlite]) await queryRunner.query(statement);
    } else {
      for (const statement of [...POSTGRES_SCHEMA, ...PAYEE_SCHEMA.postgres]) await queryRunner.query(statement);
      await unlessTrigramsCannotBeUsed(queryRunner, POSTGRES_TRIGRAMS);
    }
    markBuiltByBaseline(queryRunner);
  }

  /** Nothing: undone last, after the steps it covers, whose own downs take the schema away. */
  async down(): Promise<void> {}
}
