// The SQL that seeds a long history of movements for the search benchmark, one text for both engines: every
// column of giro_movements filled as the store fills it over a movement's life, with the distributions of a
// payout business (see SEED_SHAPE), and each movement's history rows. Pure: the seeding code runs it.

export type SeedEngine = 'sqlite' | 'postgres';

/** The shape of the seeded history (the figures the bench's report and the queries' parameters rely on). */
export const SEED_SHAPE = {
  /** Creation times spread evenly over this many days before the seeding, newest last. */
  days: 180,
  /** Destination accounts (each with its own CUIT); the i-th of them gets a share ∝ 1/√i (u² skew). */
  destinations: 2_000,
  /** Source accounts (the business's own, each with its CUIT), skewed towards the first. */
  sources: 5,
  /** The newest movements are the open ones (in the sweep's hands or awaiting approval): this share of all. */
  openShare: 0.000_5,
  /** Of the rest: COMPLETED below 0.955, FAILED below 0.995, REJECTED (approval refused or expired) above. */
  completedBelow: 0.955,
  failedBelow: 0.995,
  /** Amounts: log-normal around this median (cents), σ below; this share rounded to whole hundreds of pesos. */
  medianCents: 2_500_000,
  sigma: 1.2,
  roundShare: 0.4,
} as const;

/**
 * The first word of a description and how often it comes: [word, cumulative share]. "embargo" is the rare one
 * (1 in 5 000 movements). The rest of a description is a month, an invoice number unique to the movement
 * (`FC A-0001-` and its originId's last 8 digits), or nothing.
 */
export const DESCRIPTION_WORDS: readonly (readonly [string, number])[] = [
  ['Alquiler', 0.2],
  ['Honorarios', 0.35],
  ['Sueldo', 0.5],
  ['Proveedores', 0.62],
  ['Expensas', 0.7],
  ['Servicios', 0.78],
  ['Cuota', 0.85],
  ['Reintegro', 0.9],
  ['Varios', 0.9998],
  ['Embargo', 1],
];

export const COMMON_WORD = 'alquiler';
export const RARE_WORD = 'embargo';
const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** The invoice number in the description of movement `originId` (when it has one): `A-0001-` and 8 digits. */
export function invoiceOf(originId: number): string {
  return `A-0001-${String(originId % 100_000_000).padStart(8, '0')}`;
}

interface Dialect {
  /** `expression` (an integer) as text, left-padded with zeros to `width`. */
  pad(expression: string, width: number): string;
  /** Epoch milliseconds as ISO 8601 UTC text with a Z. */
  iso(expression: string): string;
  /** `expression` (a real) rounded down to an integer. */
  floor(expression: string): string;
}

const DIALECTS: Record<SeedEngine, Dialect> = {
  sqlite: {
    pad: (e, w) => `substr('${'0'.repeat(w)}' || (${e}), -${w})`,
    iso: (e) => `strftime('%Y-%m-%dT%H:%M:%SZ', (${e}) / 1000, 'unixepoch')`,
    floor: (e) => `CAST(floor(${e}) AS INTEGER)`,
  },
  postgres: {
    pad: (e, w) => `lpad((${e})::text, ${w}, '0')`,
    iso: (e) => `to_char(to_timestamp((${e}) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    floor: (e) => `CAST(floor(${e}) AS bigint)`,
  },
};

/** Uniform draws per movement: u1 status, u2/u3 amount (Box–Muller), u4 rounding, u5 destination, u6 source, u7 word, u8 suffix. */
export const DRAWS = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'] as const;

/** The parties' tables the seed joins (created and dropped by the seeding code). */
export const PARTY_TABLES = {
  destinations: 'bench_search_destinations',
  sources: 'bench_search_sources',
  draws: 'bench_search_draws',
} as const;

export interface SeedRange {
  /** Movements in the whole history (n runs 0 … total − 1, oldest first). */
  total: number;
  firstOriginId: number;
  /** Epoch ms of the newest movement's creation. */
  newestAtMs: number;
}

const MOVEMENT_COLUMNS = `origin_id, intent, fingerprint, status, amount, currency_id, amount_cents, from_address,
  from_person_id, to_address, to_person_id, description, usage_day, approval_expires_at_ms, bank_movement_id,
  network_id, network, debin_id, posting_datetime, completed_datetime, last_bank_answer, attempts, queries, last_error,
  last_answer_at_ms, next_query_at_ms, queries_held_until_ms, lease_owner, lease_expires_at_ms, version,
  created_at_ms, updated_at_ms`;

/**
 * `INSERT INTO giro_movements … SELECT` over the draws table (columns n, u1…u8; one row per movement to insert),
 * joined with the parties' tables (idx, address, person_id).
 */
export function insertMovementsSql(engine: SeedEngine, range: SeedRange): string {
  const d = DIALECTS[engine];
  const s = SEED_SHAPE;
  const spanMs = s.days * 86_400_000;
  const firstAtMs = range.newestAtMs - spanMs;
  const openFrom = Math.floor(range.total * (1 - s.openShare));
  const words = DESCRIPTION_WORDS.map(([word, below]) => `WHEN r.u7 < ${below} THEN '${word}'`).join(' ');
  const months = MONTHS.map((month, index) => `WHEN ${index} THEN '${month}'`).join(' ');
  const cents = `${d.floor(`exp(ln(${s.medianCents}) + ${s.sigma} * sqrt(-2 * ln(u2)) * cos(2 * pi() * u3))`)}`;
  // Layer r: numbers per movement; layer t: texts; the outer SELECT: the row as the store would have it.
  const numbers = `SELECT n, u1, u7, u8,
      ${range.firstOriginId} + n AS origin_id,
      ${firstAtMs} + (n * ${spanMs}) / ${range.total} AS created,
      CASE WHEN n >= ${openFrom} THEN
          CASE WHEN u1 < 0.6 THEN 'IN_PROGRESS' WHEN u1 < 0.75 THEN 'DELAYED' WHEN u1 < 0.9 THEN 'PENDING'
            ELSE 'AWAITING_APPROVAL' END
        WHEN u1 < ${s.completedBelow} THEN 'COMPLETED' WHEN u1 < ${s.failedBelow} THEN 'FAILED' ELSE 'REJECTED' END
        AS status,
      CASE WHEN u4 < ${s.roundShare} THEN max_cents((${cents} / 10000) * 10000, 10000) ELSE max_cents(${cents}, 1) END
        AS cents,
      ${d.floor(`${s.destinations} * u5 * u5`)} AS dst,
      ${d.floor(`${s.sources} * power(u6, 1.5)`)} AS src
    FROM ${PARTY_TABLES.draws}`;
  const texts = `SELECT r.*, dp.address AS to_address, dp.person_id AS to_person_id, sp.address AS from_address,
      sp.person_id AS from_person_id,
      (r.cents / 100) || '.' || ${d.pad('r.cents % 100', 2)} AS amount,
      (CASE ${words} END) || (CASE WHEN r.u8 < 0.45 THEN ' ' || (CASE r.n % 12 ${months} END)
        WHEN r.u8 < 0.8 THEN ' FC A-0001-' || ${d.pad(`r.origin_id % 100000000`, 8)} ELSE '' END) AS description,
      'NET' || ${d.pad('r.origin_id', 16)} AS network_id,
      r.status IN ('IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED') AS answered,
      r.status IN ('COMPLETED', 'FAILED', 'REJECTED') AS final
    FROM (${numbers}) AS r
    JOIN ${PARTY_TABLES.destinations} AS dp ON dp.idx = r.dst
    JOIN ${PARTY_TABLES.sources} AS sp ON sp.idx = r.src`;
  const party = (side: string) =>
    `'{"addressType":"CBU_CVU","address":"' || t.${side}_address || '","owner":{"personIdType":"CUI","personId":"' || t.${side}_person_id || '"}}'`;
  const intent = `'{"from":' || ${party('from')} || ',"to":' || ${party('to')} || ',"currencyId":"032","amount":"' || t.amount || '","description":"' || t.description || '","concept":"VAR","originId":' || t.origin_id || '}'`;
  const posted = d.iso('t.created + 300');
  const answer = `'{"id":"mov-bench-' || t.origin_id || '","status":"' || t.status || '","counterparty":{"personId":"' || t.to_person_id || '","personIdType":"CUI","personName":"Juan Pérez","accountRouting":{"addressType":"CBU_CVU","address":"' || t.to_address || '"}},"details":{"type":"DEBIT_TRANSFER_SENT_CVU","typeDescription":"Transferencia enviada","originId":' || t.origin_id || ',"network":"COELSA","networkId":"' || t.network_id || '","postingDatetime":"' || ${posted} || '","amountCurrency":"032","amount":' || t.amount || ',"motiveCode":"VAR","message":"' || t.description || '"},"thisSubAccount":{"owners":{"personId":"' || t.from_person_id || '","personIdType":"CUI","personName":"Giro Bench SA","personType":"COMPANY"},"accountRouting":{"addressType":"CVU","address":"' || t.from_address || '"}}}'`;
  // A pseudo fingerprint (64 hex digits, distinct per movement): nothing searches it; its size is what counts.
  const fingerprint = `${d.pad(`t.origin_id`, 16)} || ${d.pad(`t.cents`, 16)} || '00000000000000000000000000000000'`;
  const select = `SELECT t.origin_id, ${intent}, ${fingerprint}, t.status, t.amount, '032', t.cents, t.from_address,
      t.from_person_id, t.to_address, t.to_person_id, t.description, NULL,
      CASE WHEN t.status = 'AWAITING_APPROVAL' THEN t.created + 86400000 END,
      CASE WHEN t.answered THEN 'mov-bench-' || t.origin_id END,
      CASE WHEN t.answered THEN t.network_id END,
      CASE WHEN t.answered THEN 'COELSA' END,
      NULL,
      CASE WHEN t.answered THEN ${posted} END,
      CASE WHEN t.status = 'COMPLETED' THEN ${d.iso('t.created + 60000')} END,
      CASE WHEN t.answered THEN ${answer} END,
      CASE WHEN t.answered THEN 1 ELSE 0 END,
      CASE WHEN t.answered THEN 1 + t.n % 3 ELSE 0 END,
      NULL,
      CASE WHEN t.answered THEN t.created + 60000 END,
      CASE WHEN t.final THEN NULL WHEN t.status = 'AWAITING_APPROVAL' THEN NULL ELSE t.created + 120000 END,
      NULL, NULL, NULL,
      CASE WHEN t.final THEN 4 ELSE 2 END,
      t.created,
      CASE WHEN t.answered OR t.final THEN t.created + 60000 ELSE t.created END
    FROM (${texts}) AS t`;
  const sql = `INSERT INTO giro_movements (${MOVEMENT_COLUMNS}) ${select}`;
  // max_cents(a, b): the larger, spelled per engine (SQLite's two-argument max, Postgres's GREATEST).
  return sql.replace(/max_cents\(/g, engine === 'sqlite' ? 'max(' : 'GREATEST(');
}

/**
 * A movement's history as the store writes it over its life, by final status: [status, step, from, to, source,
 * ms after creation]. Every movement has its intent row; an answered one the creation's answer; a final or
 * DELAYED one the sweep's answer that made it so; an approval's decision its own row.
 */
export const HISTORY_STEPS: readonly (readonly [string, number, string | null, string, string, number])[] = [
  ...['PENDING', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED'].map(
    (status) => [status, 1, null, 'PENDING', 'intent', 0] as const,
  ),
  ...['IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED'].map(
    (status) => [status, 2, 'PENDING', 'IN_PROGRESS', 'create', 300] as const,
  ),
  ...['DELAYED', 'COMPLETED', 'FAILED'].map((status) => [status, 3, 'IN_PROGRESS', status, 'query', 60_000] as const),
  ['AWAITING_APPROVAL', 1, null, 'AWAITING_APPROVAL', 'intent', 0],
  ['REJECTED', 1, null, 'AWAITING_APPROVAL', 'intent', 0],
  ['REJECTED', 2, 'AWAITING_APPROVAL', 'REJECTED', 'rejection', 60_000],
];

/** `INSERT INTO giro_movement_history … SELECT` for the movements with originIds in [$1, $2] (positional). */
export function insertHistorySql(engine: SeedEngine): string {
  const quote = (value: string | null) => (value === null ? 'NULL' : `'${value}'`);
  const steps = HISTORY_STEPS.map(
    ([status, step, from, to, source, afterMs]) =>
      `(${quote(status)}, ${step}, ${quote(from)}, ${quote(to)}, ${quote(source)}, ${afterMs})`,
  ).join(', ');
  const [low, high] = engine === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  // Postgres: a VALUES list's NULL first column would be text; the literals above type it.
  return `INSERT INTO giro_movement_history (origin_id, from_status, to_status, at_ms, source, detail)
    SELECT m.origin_id, s.from_status, s.to_status, m.created_at_ms + s.after_ms, s.source, NULL
    FROM giro_movements AS m
    JOIN (${engine === 'sqlite' ? `SELECT column1 AS status, column2 AS step, column3 AS from_status, column4 AS to_status, column5 AS source, column6 AS after_ms FROM (VALUES ${steps})` : `VALUES ${steps}`}) AS s${engine === 'sqlite' ? '' : '(status, step, from_status, to_status, source, after_ms)'}
      ON s.status = m.status
    WHERE m.origin_id BETWEEN ${low} AND ${high}
    ORDER BY m.origin_id, s.step`;
}

/** Postgres: the draws for movements n ∈ [low, high), as a table the insert reads (materialized: each draw once). */
export function postgresDrawsSql(low: number, high: number): string {
  return `CREATE TEMP TABLE ${PARTY_TABLES.draws} AS
    SELECT n, ${DRAWS.map((u) => `random() AS ${u}`).join(', ')} FROM generate_series(${low}::bigint, ${high - 1}::bigint) AS n`;
}

/** SQLite: the same, with a recursive CTE; random() is a 64-bit integer there, mapped into (0, 1). */
export function sqliteDrawsSql(low: number, high: number): string {
  const uniform = `((random() & 4294967295) + 0.5) / 4294967296.0`;
  return `CREATE TEMP TABLE ${PARTY_TABLES.draws} AS
    WITH RECURSIVE s(n) AS (SELECT ${low} UNION ALL SELECT n + 1 FROM s WHERE n < ${high - 1})
    SELECT n, ${DRAWS.map((u) => `${uniform} AS ${u}`).join(', ')} FROM s`;
}
