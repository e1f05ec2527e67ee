import { dataSourceOptionsFromUrl, runTransferMigrations } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { type Backlog, backlogChunks, backlogConstants } from './backlog';

const INSERT = `INSERT INTO giro_movements
  (origin_id, intent, fingerprint, status, amount, currency_id, attempts, queries, last_answer_at_ms,
   next_query_at_ms, version, created_at_ms, updated_at_ms)
  VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 1, ?, ?)`;

/** A fresh SQLite file with giro's schema (its own migrations) and the backlog, in one transaction. */
export async function seedSqliteBacklog(file: string, backlog: Backlog): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  try {
    await runTransferMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  const db = new Database(file);
  try {
    const insert = db.prepare(INSERT);
    const fixed = backlogConstants(backlog);
    db.transaction(() => {
      for (const rows of backlogChunks(backlog, 10_000)) {
        for (const row of rows) {
          insert.run(
            row.originId,
            row.intent,
            row.fingerprint,
            fixed.status,
            fixed.amount,
            fixed.currencyId,
            fixed.attempts,
            fixed.lastAnswerAtMs,
            row.nextQueryAtMs,
            fixed.createdAtMs,
            fixed.createdAtMs,
          );
        }
      }
    })();
    // Everything into the main file, so a copy of it alone is a complete database.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
