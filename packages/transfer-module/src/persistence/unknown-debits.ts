import type { EntityManager } from 'typeorm';
import { amountFromCents } from '../domain';
import { ANOMALY_RANKS, type AnomalyCursor, afterCursor } from './anomaly-order';
import { bigintAsNumber } from './entities/column-transformers';
import type { RecordedActor } from './movement-records';
import { AnomalyAlreadyResolvedError, AnomalyNotFoundError } from './persistence.errors';
import type { StoreContext } from './store-context';

// The debits of the bank's statements that no transfer explains, as anomalies (migration UnknownDebits1798056000000):
// one row per bank line, naming the first statement line that showed it, and its resolution once closed (a row of
// its own, as a transfer's anomaly's). Every value is a placeholder.

/** A debit of a statement no transfer explains: an anomaly about a statement line, not about a transfer. */
export interface UnknownDebitRecord {
  /** Its id among the unknown debits (not a history row's: `POST /admin/anomalies/unknown-debits/:id/resolve`). */
  id: number;
  kind: 'unknown_debit';
  at: Date;
  /** The line that showed it: its import, its number there, and what the bank wrote. */
  statement: {
    importId: string;
    account: string;
    line: number;
    date: string;
    /** Signed, as the statement wrote it (a debit is negative). */
    amount: string;
    reference: string;
    description: string;
  };
  resolution: { at: Date; by: RecordedActor; note: string } | null;
}

const COLUMNS = `d."id", d."at_ms", r."resolved_at_ms", r."resolved_by_key_id", r."resolved_by_name", r."note",
  l."import_id", l."line_number", l."account", l."line_date", l."amount_cents", l."reference", l."description"`;

const FROM = `FROM "giro_unknown_debits" d
  JOIN "giro_statement_lines" l ON l."import_id" = d."import_id" AND l."line_number" = d."line_number"
  LEFT JOIN "giro_unknown_debit_resolutions" r ON r."unknown_debit_id" = d."id"`;

/** MovementStore's unknown debits: recorded by an import, listed and resolved with the other anomalies. */
export class UnknownDebits {
  constructor(private readonly context: StoreContext) {}

  /** In an import's transaction: these stored lines of `importId` are debits no earlier line showed. */
  async record(manager: EntityManager, importId: string, lineNumbers: number[], now: number): Promise<void> {
    if (lineNumbers.length === 0) return;
    await this.context.engine.insertMany(
      manager,
      'giro_unknown_debits',
      [
        { name: 'import_id', type: 'text' },
        { name: 'line_number', type: 'integer' },
        { name: 'at_ms', type: 'bigint' },
      ],
      lineNumbers.map((line) => [importId, line, now]),
    );
  }

  /** Resolved or open ones after `cursor`, in the anomalies' order (anomaly-order.ts). */
  async page(
    manager: EntityManager,
    options: { resolved: boolean; cursor?: AnomalyCursor; limit: number },
  ): Promise<UnknownDebitRecord[]> {
    const { text, parameters } = afterCursor('d', ANOMALY_RANKS.unknownDebit, options.resolved, options.cursor);
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT ${COLUMNS} ${FROM}
  WHERE r."unknown_debit_id" IS ${options.resolved ? 'NOT NULL' : 'NULL'}${text}
  ORDER BY d."at_ms" DESC, d."id" DESC LIMIT ?`,
      ),
      [...parameters, options.limit],
    );
    return rows.map(unknownDebitOf);
  }

  async countOpen(manager: EntityManager): Promise<number> {
    const [row] = await manager.query(`SELECT COUNT(*) AS "count" FROM "giro_unknown_debits" d
  WHERE NOT EXISTS (SELECT 1 FROM "giro_unknown_debit_resolutions" r WHERE r."unknown_debit_id" = d."id")`);
    return Number(row.count);
  }

  /**
   * Closes an unknown debit: who, now, why. Throws AnomalyNotFoundError for an id no unknown debit has,
   * AnomalyAlreadyResolvedError (with the first resolution, which stays) when it was resolved already.
   */
  async resolve(id: number, resolution: { note: string; by: RecordedActor }): Promise<UnknownDebitRecord> {
    const now = this.context.nowMs();
    const sql = (text: string) => this.context.engine.sql(text);
    return this.context.transactions.write(async (manager) => {
      const [known] = await manager.query(sql('SELECT "id" FROM "giro_unknown_debits" WHERE "id" = ?'), [id]);
      if (!known) throw new AnomalyNotFoundError(id);
      // The primary key keeps one resolution per unknown debit, also when two operators resolve it at once
      // (Postgres: the second insert waits for the first, then does nothing).
      const inserted: unknown[] = await manager.query(
        sql(`INSERT INTO "giro_unknown_debit_resolutions"
  ("unknown_debit_id", "resolved_at_ms", "resolved_by_key_id", "resolved_by_name", "note") VALUES (?, ?, ?, ?, ?)
  ON CONFLICT ("unknown_debit_id") DO NOTHING RETURNING "unknown_debit_id"`),
        [id, now, resolution.by.keyId, resolution.by.name, resolution.note],
      );
      const [row] = await manager.query(sql(`SELECT ${COLUMNS} ${FROM} WHERE d."id" = ?`), [id]);
      const record = unknownDebitOf(row);
      if (inserted.length === 0) {
        throw new AnomalyAlreadyResolvedError(id, record.resolution as NonNullable<UnknownDebitRecord['resolution']>);
      }
      await this.context.audit?.recordChange(manager, {
        target: `unknown-debit/${id}`,
        before: { resolution: null },
        after: { resolution: record.resolution },
      });
      return record;
    });
  }
}

const bigint = bigintAsNumber.from;

function unknownDebitOf(row: Record<string, unknown>): UnknownDebitRecord {
  const cents = BigInt(String(row.amount_cents));
  return {
    id: bigint(row.id),
    kind: 'unknown_debit',
    at: new Date(bigint(row.at_ms)),
    statement: {
      importId: String(row.import_id),
      account: String(row.account),
      line: Number(row.line_number),
      date: String(row.line_date),
      amount: cents < 0n ? `-${amountFromCents(-cents)}` : amountFromCents(cents),
      reference: String(row.reference),
      description: String(row.description ?? ''),
    },
    resolution:
      row.resolved_at_ms === null || row.resolved_at_ms === undefined
        ? null
        : {
            at: new Date(bigint(row.resolved_at_ms)),
            by: { keyId: String(row.resolved_by_key_id), name: String(row.resolved_by_name) },
            note: String(row.note),
          },
  };
}
