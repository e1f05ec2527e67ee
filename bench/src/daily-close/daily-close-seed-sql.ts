// The SQL that fills one source account's Buenos Aires day with N transfers for the daily close's benchmark, one
// text per engine: each row as the store leaves a transfer at the end of its life (its intent and the bank's last
// answer, so rows are as wide as real ones), spread evenly over the day. Pure: the seeding code runs it.

export type CloseSeedEngine = 'sqlite' | 'postgres';

/** Of every 1 000 transfers: COMPLETED below 950, FAILED below 990 (with their cancellation), the rest still DELAYED at the day's end. */
export const CLOSE_SEED_SHAPE = { completedBelow: 950, failedBelow: 990 } as const;

export interface CloseSeed {
  transfers: number;
  firstOriginId: number;
  /** The day's start and end, epoch ms. */
  startMs: number;
  endMs: number;
  account: string;
  personId: string;
  destination: string;
}

/** The rows numbered n = 0 … N − 1, per engine. */
function numbers(engine: CloseSeedEngine, count: number): string {
  return engine === 'postgres'
    ? `SELECT n::bigint AS n FROM generate_series(0, ${count - 1}) AS n`
    : `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${count - 1}) SELECT n FROM s`;
}

export function insertCloseMovementsSql(engine: CloseSeedEngine, seed: CloseSeed): string {
  const { completedBelow, failedBelow } = CLOSE_SEED_SHAPE;
  const span = seed.endMs - seed.startMs;
  const text = engine === 'postgres' ? '::text' : '';
  const rows = `SELECT n, ${seed.firstOriginId} + n AS origin_id, ${seed.startMs} + (n * ${span}) / ${seed.transfers} AS created,
      CASE WHEN n % 1000 < ${completedBelow} THEN 'COMPLETED' WHEN n % 1000 < ${failedBelow} THEN 'FAILED' ELSE 'DELAYED' END AS status,
      100 + (n * 7919) % 5000000 AS cents
    FROM (${numbers(engine, seed.transfers)}) AS numbered`;
  const amountText =
    engine === 'postgres'
      ? `(r.cents / 100)::text || '.' || lpad((r.cents % 100)::text, 2, '0')`
      : `(r.cents / 100) || '.' || substr('00' || (r.cents % 100), -2)`;
  const intent = `'{"from":{"addressType":"CBU_CVU","address":"${seed.account}","owner":{"personIdType":"CUI","personId":"${seed.personId}"}},"to":{"addressType":"CBU_CVU","address":"${seed.destination}","owner":{"personIdType":"CUI","personId":"20123456786"}},"currencyId":"032","amount":"' || ${amountText} || '","description":"Proveedores FC A-0001-' || r.origin_id${text} || '","concept":"VAR","originId":' || r.origin_id${text} || '}'`;
  const answer = `'{"id":"mov-bench-' || r.origin_id${text} || '","status":"' || r.status || '","counterparty":{"personId":"20123456786","personIdType":"CUI","personName":"Juan Pérez","accountRouting":{"addressType":"CBU_CVU","address":"${seed.destination}"}},"details":{"type":"DEBIT_TRANSFER_SENT_CVU","typeDescription":"Transferencia enviada","originId":' || r.origin_id${text} || ',"network":"COELSA","networkId":"NET' || r.origin_id${text} || '","amountCurrency":"032","amount":' || ${amountText} || ',"motiveCode":"VAR"}}'`;
  const final = `r.status IN ('COMPLETED', 'FAILED')`;
  // A pseudo fingerprint (64 hex digits, distinct per transfer): nothing reads it; its size is what counts.
  const padded =
    engine === 'postgres' ? `lpad(r.origin_id::text, 16, '0')` : `substr('0000000000000000' || r.origin_id, -16)`;
  const fingerprint = `${padded} || '${'0'.repeat(48)}'`;
  return `INSERT INTO "giro_movements" ("origin_id", "intent", "fingerprint", "status", "amount", "currency_id",
      "amount_cents", "from_address", "from_person_id", "to_address", "to_person_id", "description", "network_id",
      "last_bank_answer", "attempts", "queries", "last_answer_at_ms", "next_query_at_ms", "final_at_ms", "version",
      "created_at_ms", "updated_at_ms")
    SELECT r.origin_id, ${intent}, ${fingerprint},
      r.status, ${amountText}, '032', r.cents, '${seed.account}', '${seed.personId}', '${seed.destination}', '20123456786',
      'Proveedores FC A-0001-' || r.origin_id${text}, 'NET' || r.origin_id${text}, ${answer}, 1, 2, r.created + 60000,
      CASE WHEN ${final} THEN NULL ELSE r.created + 660000 END,
      CASE WHEN ${final} THEN r.created + 60000 END,
      4, r.created, r.created + 60000
    FROM (${rows}) AS r`;
}

/** The history the close reads: the intent row of every transfer still pending at the end (the status at the end). */
export function insertPendingHistorySql(seed: CloseSeed): string {
  return `INSERT INTO "giro_movement_history" ("origin_id", "from_status", "to_status", "at_ms", "source")
    SELECT "origin_id", NULL, 'PENDING', "created_at_ms", 'intent' FROM "giro_movements"
    WHERE "status" = 'DELAYED' AND "origin_id" >= ${seed.firstOriginId}`;
}

/** The FAILED transfers' cancellations, half of them acknowledged (registered). */
export function insertCancellationsSql(seed: CloseSeed): string {
  return `INSERT INTO "giro_cancellations" ("origin_id", "amount", "currency_id", "created_at_ms", "acknowledged_at_ms")
    SELECT "origin_id", "amount", '032', "final_at_ms", CASE WHEN "origin_id" % 2 = 0 THEN "final_at_ms" + 1000 END
    FROM "giro_movements" WHERE "status" = 'FAILED' AND "origin_id" >= ${seed.firstOriginId}`;
}
