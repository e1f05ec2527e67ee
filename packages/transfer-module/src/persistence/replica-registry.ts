import type { DataSource } from 'typeorm';
import type { Clock } from '../domain';
import {
  type EngineAdapter,
  engineAdapterFor,
  type HeartbeatConnection,
  type RunStatement,
} from './engine/engine-adapter';
import { checkInteger, checkLeaseOwner } from './store-arguments';

/** What a heartbeat learns of the deployment. */
export interface ReplicaCensus {
  /** Replicas whose last heartbeat is recent enough (this one included). */
  live: number;
  /** How many of them come before this one by owner (0-based): the replicas' agreed order for sharing the budget. */
  rank: number;
  /** The end of the latest pause a replica reported (a 429 with Retry-After), or null. */
  bankPausedUntilMs: number | null;
}

/**
 * Key of the lock each heartbeat takes in its transaction (EngineAdapter.serialize: on Postgres an advisory lock),
 * "beat" in ASCII. Heartbeats one after another, so of two replicas starting together the second always counts the
 * first (each alone in its own snapshot would take the whole budget).
 */
export const HEARTBEAT_LOCK_KEY = 0x62656174;

// The heartbeat: this replica's row written, and at once the others counted. The pause a replica reports only
// grows (the bank's latest Retry-After wins, an older one never shortens it).
const BEAT = `INSERT INTO "giro_replicas" ("owner", "started_at_ms", "heartbeat_at_ms", "beating_since_ms",
  "bank_paused_until_ms") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("owner") DO UPDATE SET
  "heartbeat_at_ms" = excluded."heartbeat_at_ms",
  "beating_since_ms" = CASE WHEN "giro_replicas"."heartbeat_at_ms" < ? THEN excluded."heartbeat_at_ms"
    ELSE "giro_replicas"."beating_since_ms" END,
  "bank_paused_until_ms" = CASE
    WHEN excluded."bank_paused_until_ms" IS NULL THEN "giro_replicas"."bank_paused_until_ms"
    WHEN "giro_replicas"."bank_paused_until_ms" IS NULL THEN excluded."bank_paused_until_ms"
    WHEN excluded."bank_paused_until_ms" > "giro_replicas"."bank_paused_until_ms" THEN excluded."bank_paused_until_ms"
    ELSE "giro_replicas"."bank_paused_until_ms" END`;
// The others alive, by their heartbeats; a replica always counts itself, however long its own last beat took.
const CENSUS = `SELECT COUNT(*) AS "others", SUM(CASE WHEN "owner" < ? THEN 1 ELSE 0 END) AS "before",
  MAX("bank_paused_until_ms") AS "paused" FROM "giro_replicas" WHERE "owner" <> ? AND "heartbeat_at_ms" > ?`;
const OWN_PAUSE = `SELECT "bank_paused_until_ms" AS "paused" FROM "giro_replicas" WHERE "owner" = ?`;
const LEAVE = `DELETE FROM "giro_replicas" WHERE "owner" = ?`;
const PRUNE = `DELETE FROM "giro_replicas" WHERE "heartbeat_at_ms" < ?`;

/**
 * The replicas of a deployment on one database (`giro_replicas`): each writes its heartbeat, and learns how many
 * are alive and whether the bank asked them all to wait. ReplicaHeartbeat keeps the bank budget's share from it.
 */
export class ReplicaRegistry {
  private readonly engine: EngineAdapter;
  /** The heartbeat's own connection, opened at the first write (`ownConnection`; none on SQLite). */
  private connection: HeartbeatConnection | undefined;
  private closed = false;

  /**
   * `ownConnection`: the registry writes through a connection of its own (EngineAdapter.openHeartbeatConnection),
   * not the data source's pool, whose writers could keep a heartbeat waiting past the takeover's silence; close()
   * ends it. Without it (or on SQLite) the data source's transactions.
   */
  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    private readonly options: { ownConnection?: boolean } = {},
  ) {
    this.engine = engineAdapterFor(dataSource);
  }

  /**
   * Writes `owner`'s heartbeat (and the end of a pause it reports), then counts the replicas whose heartbeat is
   * less than `liveWithinMs` old. A replica that stopped beating drops out of the count after that long.
   */
  async beat(owner: string, liveWithinMs: number, report: { bankPausedUntilMs?: number } = {}): Promise<ReplicaCensus> {
    checkLeaseOwner(owner);
    checkInteger(liveWithinMs, 'liveWithinMs', 1, 24 * 3_600_000);
    const now = this.clock.now().getTime();
    const sql = (text: string) => this.engine.sql(text);
    return this.write(async (run) => {
      // A gap longer than the live window starts a new run of beats (beating_since_ms).
      await run(sql(BEAT), [owner, now, now, now, report.bankPausedUntilMs ?? null, now - liveWithinMs]);
      const [census] = await run(sql(CENSUS), [owner, owner, now - liveWithinMs]);
      const [own] = await run(sql(OWN_PAUSE), [owner]);
      const paused = [census?.paused, own?.paused].filter((value) => value !== null && value !== undefined).map(Number);
      return {
        live: Number(census?.others ?? 0) + 1,
        rank: Number(census?.before ?? 0),
        bankPausedUntilMs: paused.length === 0 ? null : Math.max(...paused),
      };
    }, HEARTBEAT_LOCK_KEY);
  }

  /** Removes `owner`'s row (a graceful stop): the others take its share at their next heartbeat. */
  async leave(owner: string): Promise<void> {
    checkLeaseOwner(owner);
    await this.write((run) => run(this.engine.sql(LEAVE), [owner]));
  }

  /** Deletes the rows of replicas silent for `silentForMs` (crashed long ago); returns nothing. */
  async prune(silentForMs: number): Promise<void> {
    checkInteger(silentForMs, 'silentForMs', 1, Number.MAX_SAFE_INTEGER);
    const before = this.clock.now().getTime() - silentForMs;
    await this.write((run) => run(this.engine.sql(PRUNE), [before]));
  }

  /**
   * Ends the registry's own connection, if it has one (it writes no more then); a registry writing through the
   * data source's transactions has nothing to end.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.connection?.close();
    this.connection = undefined;
  }

  /** `work` in one write transaction, serialised on `serializeKey` when given: on the own connection if any. */
  private write<T>(work: (run: RunStatement) => Promise<T>, serializeKey?: number): Promise<T> {
    if (this.options.ownConnection) {
      if (this.closed) return Promise.reject(new Error('the replica registry is closed'));
      this.connection ??= this.engine.openHeartbeatConnection();
    }
    if (this.connection !== undefined) return this.connection.write(work, serializeKey);
    return this.engine.transactions.write(async (manager) => {
      if (serializeKey !== undefined) await this.engine.serialize(manager, serializeKey);
      return work((sql, parameters) => manager.query(sql, parameters));
    });
  }
}
