import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { Backlog } from './backlog';

// The measured movements come after the warm-up ones (backlogChunks): their originIds are the backlog's last `count`.
const MAKE_DUE_SQLITE = 'UPDATE giro_movements SET next_query_at_ms = ? WHERE origin_id >= ? AND origin_id < ?';
const MAKE_DUE_POSTGRES = 'UPDATE giro_movements SET next_query_at_ms = $1 WHERE origin_id >= $2 AND origin_id < $3';

/**
 * Makes the backlog's measured movements due now, in the benchmark's database, just before the sweeping
 * processes are told to go (outside the measurement). Rather than each process moving its clock to make them
 * due: the module's clock is also the one of the replicas' heartbeats and of the takeover of a silent replica's
 * leases, and processes that moved theirs at slightly different moments took each other's leases.
 */
export async function makeMeasuredDue(databaseUrl: string, backlog: Backlog): Promise<void> {
  const firstMeasured = backlog.firstOriginId + backlog.warmup;
  const range = [firstMeasured, firstMeasured + backlog.count] as const;
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    try {
      db.prepare(MAKE_DUE_SQLITE).run(Date.now(), ...range);
      // Into the main file now, not by the sweep's own checkpoints while it is measured.
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    return;
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(MAKE_DUE_POSTGRES, [Date.now(), ...range]);
    // The old row versions gone and the statistics fresh, as after seeding.
    await client.query('VACUUM ANALYZE giro_movements');
  } finally {
    await client.end();
  }
}
