import type { EntityManager } from 'typeorm';

// One statement: it creates the counter row or moves it forward, and returns its new value. The first id
// handed out is the largest of
//   - the persisted counter (never hands out an id twice while the database keeps its state),
//   - the highest originId stored + 1 (skips ids the host supplied itself),
//   - now ms × ORIGIN_IDS_PER_MS (after a restore from an old backup the counter is old, but time has moved
//     on: ids issued before the restore were below this floor, as long as fewer than ORIGIN_IDS_PER_MS
//     were allocated per millisecond on average).
// The value is read back as text: exact even beyond 2^53, where a JS number would round.

// better-sqlite3 binds JS numbers as REAL: the casts keep the arithmetic in exact 64-bit integers.
const SQLITE_ALLOCATE = `
  INSERT INTO "giro_origin_id_counter" ("name", "next_value")
  VALUES (?, MAX(CAST(? AS INTEGER), (SELECT COALESCE(MAX("origin_id"), 0) + 1 FROM "giro_movements")) + CAST(? AS INTEGER))
  ON CONFLICT ("name") DO UPDATE
    SET "next_value" = MAX("giro_origin_id_counter"."next_value" + CAST(? AS INTEGER), "excluded"."next_value")
  RETURNING CAST("next_value" AS TEXT) AS "next_value"`;

const POSTGRES_ALLOCATE = `
  INSERT INTO "giro_origin_id_counter" ("name", "next_value")
  VALUES ($1, GREATEST($2::bigint, (SELECT COALESCE(MAX("origin_id"), 0) + 1 FROM "giro_movements")) + $3::bigint)
  ON CONFLICT ("name") DO UPDATE
    SET "next_value" = GREATEST("giro_origin_id_counter"."next_value" + $3::bigint, EXCLUDED."next_value")
  RETURNING CAST("next_value" AS TEXT) AS "next_value"`;

/** SQLite: moves the counter `name` past `size` new ids; its new value. */
export async function advanceSqliteCounter(
  manager: EntityManager,
  name: string,
  timeFloor: number,
  size: number,
): Promise<string> {
  const rows: { next_value: string }[] = await manager.query(SQLITE_ALLOCATE, [name, timeFloor, size, size]);
  return rows[0].next_value;
}

/** Postgres: moves the counter `name` past `size` new ids; its new value. */
export async function advancePostgresCounter(
  manager: EntityManager,
  name: string,
  timeFloor: number,
  size: number,
): Promise<string> {
  const rows: { next_value: string }[] = await manager.query(POSTGRES_ALLOCATE, [name, timeFloor, size]);
  return rows[0].next_value;
}
