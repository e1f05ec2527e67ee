import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  ANOMALY_KINDS,
  amountFromCents,
  amountToCents,
  type BankCalendar,
  businessDayBounds,
  businessDayOf,
  type DecimalAmount,
  isPastStatementGrace,
} from '../domain';
import type { BulkColumn } from './engine/engine-adapter';
import { MovementHistoryEntity as HistoryEntity, type MovementHistoryEntity } from './entities';
import { bigintAsNumber } from './entities/column-transformers';
import { writeMovementChangeEvents } from './movement-change-events';
import { type RecordedActor, toHistoryRecord, toMovementRecord } from './movement-records';
import { type UnknownDebit, writeOutboxEvents } from './outbox';
import { StoreArgumentError } from './persistence.errors';
import {
  type LineOutcome,
  STATEMENT_REPORT_ITEMS,
  type StatementConfirmation,
  type StatementImportRecord,
  type StatementItem,
  type StatementLineInput,
  type StatementReport,
} from './statement-records';
import { checkInteger, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import type { MovementPage } from './store-types';
import { UnknownDebits } from './unknown-debits';

// The bank's statements matched against the transfers (migration Statements1797624000000 says how the tables
// keep one confirming line per transfer). An import is one transaction: its lines are read in batches from the
// caller's stream, each batch matched with a few queries and inserted with one statement, so memory stays flat
// whatever the file's size. Every value is a placeholder.

/** The high bits of an account's import lock key ('st'), apart from the store's other advisory locks. */
const STATEMENT_LOCK_PREFIX = 0x7374;

/** Lines matched and inserted together: 10 values each on SQLite, under its limit on placeholders. */
const LINES_PER_INSERT = 1000;

const LINE_TABLE_COLUMNS: readonly BulkColumn[] = [
  { name: 'import_id', type: 'text' },
  { name: 'line_number', type: 'integer' },
  { name: 'account', type: 'text' },
  { name: 'line_date', type: 'text' },
  { name: 'amount_cents', type: 'bigint' },
  { name: 'reference', type: 'text' },
  { name: 'description', type: 'text' },
  { name: 'outcome', type: 'text' },
  { name: 'origin_id', type: 'bigint' },
  { name: 'matched_origin_id', type: 'bigint' },
];

/** Statuses a transfer never reached the bank in: a statement line cannot be about it. */
const NEVER_SENT = ['AWAITING_APPROVAL', 'SCHEDULED', 'REJECTED', 'CANCELED'];

/** `<created_at_ms>.<id>` of the last import of a page. */
const CURSOR = /^([0-9]{1,16})\.([0-9a-f-]{36})$/;

interface Candidate {
  originId: number;
  networkId: string | null;
  cents: bigint;
  status: string;
}

interface StoredLine {
  line: number;
  date: string;
  cents: bigint;
  reference: string;
  description: string;
  outcome: LineOutcome;
  originId: number | null;
  matchedOriginId: number | null;
  /** A debit no transfer explains, seen in no statement before: announced (`statement.unknown_debit`). */
  firstUnknown?: boolean;
}

/** What an import needs beyond its lines: whose account, the file's digest, who, and the grace of a transfer. */
export interface StatementImportRequest {
  account: string;
  sha256: string;
  by: RecordedActor | null;
  calendar: BankCalendar;
  graceDays: number;
}

/** MovementStore's statements: imports, their lines, the transfers they confirm, and the anomalies they raise. */
export class StatementBook {
  private readonly unknownDebits: UnknownDebits;

  constructor(private readonly context: StoreContext) {
    this.unknownDebits = new UnknownDebits(context);
  }

  /** The import of this file for this account, if it was imported already. */
  async findImport(account: string, sha256: string): Promise<StatementReport | null> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(
        this.context.engine.sql(
          `SELECT ${IMPORT_COLUMNS} FROM "giro_statement_imports" WHERE "account" = ? AND "sha256" = ?`,
        ),
        [account, sha256],
      );
      return row ? this.report(manager, importOf(row)) : null;
    });
  }

  /** An import by its id, with its lists as they stand; null when there is none. */
  async getImport(id: string): Promise<StatementReport | null> {
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) return null;
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(
        this.context.engine.sql(`SELECT ${IMPORT_COLUMNS} FROM "giro_statement_imports" WHERE "id" = ?`),
        [id],
      );
      return row ? this.report(manager, importOf(row)) : null;
    });
  }

  /** A page of imports, newest first. */
  async listImports(options: { limit: number; after?: string }): Promise<MovementPage<StatementImportRecord>> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const after = options.after === undefined ? undefined : parseCursor(options.after);
    return this.context.transactions.read(async (manager) => {
      const where = after ? 'WHERE ("created_at_ms" < ? OR ("created_at_ms" = ? AND "id" < ?))' : '';
      const rows: Record<string, unknown>[] = await manager.query(
        this.context.engine.sql(
          `SELECT ${IMPORT_COLUMNS} FROM "giro_statement_imports" ${where}
  ORDER BY "created_at_ms" DESC, "id" DESC LIMIT ?`,
        ),
        after ? [after.atMs, after.atMs, after.id, limit + 1] : [limit + 1],
      );
      const items = rows.slice(0, limit).map(importOf);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit ? `${last.createdAt.getTime()}.${last.id}` : null };
    });
  }

  /**
   * Imports a statement: its lines (in batches, in file order) matched against the account's transfers and
   * stored, the anomalies raised, in one transaction. The same file (digest) for the same account answers the
   * import made before and stores nothing.
   */
  async importStatement(
    request: StatementImportRequest,
    batches: AsyncIterable<StatementLineInput[]>,
  ): Promise<StatementReport> {
    const known = await this.findImport(request.account, request.sha256);
    if (known) return known;
    const now = this.context.nowMs();
    const id = randomUUID();
    const written = await this.write(request, batches, id, now).catch(async (error: unknown) => {
      // The same file imported at the same moment by another request: its unique key refused this one, and the
      // other's import is the answer.
      if ((await this.findImport(request.account, request.sha256)) !== null) return null;
      throw error;
    });
    if (written === null) return (await this.findImport(request.account, request.sha256)) as StatementReport;
    if (written.announced > 0) this.context.outbox?.committed();
    return this.context.transactions.read((manager) => this.report(manager, written.record));
  }

  /** The import's transaction: its row, its lines batch by batch, the anomalies, the counts. */
  private write(
    request: StatementImportRequest,
    batches: AsyncIterable<StatementLineInput[]>,
    id: string,
    now: number,
  ): Promise<{ record: StatementImportRecord; announced: number }> {
    return this.context.transactions.write(async (manager) => {
      const sql = (text: string) => this.context.engine.sql(text);
      // One import of an account at a time: two statements that overlap, imported at once, would each find a
      // transfer unconfirmed and both claim it (the unique index refusing the second); in turn, the second sees
      // the first's lines and matches each bank line once.
      await this.context.engine.serialize(manager, accountLockKey(request.account));
      await manager.query(
        sql(`INSERT INTO "giro_statement_imports" ("id", "account", "sha256", "line_count", "matched_count",
  "only_in_statement_count", "only_in_giro_count", "amount_mismatch_count", "created_at_ms", "created_by_key_id",
  "created_by_name") VALUES (?, ?, ?, 0, 0, 0, 0, 0, ?, ?, ?)`),
        [id, request.account, request.sha256, now, request.by?.keyId ?? null, request.by?.name ?? null],
      );
      const counts = { lines: 0, matched: 0, onlyInStatement: 0, amountMismatch: 0 };
      let announced = 0;
      let from: string | null = null;
      let to: string | null = null;
      for await (const batch of readAhead(batches)) {
        for (let at = 0; at < batch.length; at += LINES_PER_INSERT) {
          const lines = await this.matchLines(manager, request.account, batch.slice(at, at + LINES_PER_INSERT));
          await this.insertLines(manager, id, request.account, lines);
          for (const line of lines) {
            counts.lines++;
            if (line.outcome === 'matched') counts.matched++;
            else if (line.outcome === 'amount_mismatch') counts.amountMismatch++;
            else if (line.outcome !== 'credit') counts.onlyInStatement++;
            if (from === null || line.date < from) from = line.date;
            if (to === null || line.date > to) to = line.date;
          }
          announced += await this.raiseLineAnomalies(manager, { id, account: request.account }, lines, now);
        }
      }
      let onlyInGiro = 0;
      if (from !== null && to !== null) {
        const missing = await this.raiseMissing(manager, request, { id, from, to }, now);
        onlyInGiro = missing.count;
        announced += missing.raised;
      }
      await manager.query(
        sql(`UPDATE "giro_statement_imports" SET "period_from" = ?, "period_to" = ?, "line_count" = ?,
  "matched_count" = ?, "only_in_statement_count" = ?, "only_in_giro_count" = ?, "amount_mismatch_count" = ?
  WHERE "id" = ?`),
        [from, to, counts.lines, counts.matched, counts.onlyInStatement, onlyInGiro, counts.amountMismatch, id],
      );
      const [row] = await manager.query(sql(`SELECT ${IMPORT_COLUMNS} FROM "giro_statement_imports" WHERE "id" = ?`), [
        id,
      ]);
      return { record: importOf(row), announced };
    });
  }

  /** Each line of a batch judged: which transfer it names, and whether it confirms it. */
  private async matchLines(
    manager: EntityManager,
    account: string,
    batch: StatementLineInput[],
  ): Promise<StoredLine[]> {
    const debits = batch.filter((line) => line.amountCents < 0n);
    const named = await this.candidatesOf(manager, account, [...new Set(debits.map((line) => line.reference))]);
    const originIds = [...new Set([...named.values()].flat().map((candidate) => candidate.originId))];
    const confirming = await this.confirmingLines(manager, originIds);
    const unexplained = debits.filter((line) => (named.get(line.reference) ?? []).length === 0);
    const seenUnknown = await this.unknownDebitKeys(
      manager,
      account,
      unexplained.map((line) => line.reference),
    );
    return batch.map((input) => {
      const line: StoredLine = {
        line: input.line,
        date: input.date,
        cents: input.amountCents,
        reference: input.reference,
        description: input.description,
        outcome: 'credit',
        originId: null,
        matchedOriginId: null,
      };
      if (input.amountCents >= 0n) return line;
      const candidates = named.get(input.reference) ?? [];
      if (candidates.length === 0) {
        line.outcome = 'unknown_debit';
        const key = bankLineKey(line);
        // The same bank line in an earlier statement, or earlier in this one, was announced already.
        line.firstUnknown = !seenUnknown.has(key);
        seenUnknown.add(key);
        return line;
      }
      if (candidates.length > 1) {
        line.outcome = 'ambiguous';
        return line;
      }
      const [transfer] = candidates;
      line.originId = transfer.originId;
      const earlier = confirming.get(transfer.originId);
      if (earlier) {
        // The same bank line seen again names the transfer as before; another line is not a second confirmation.
        line.outcome = bankLineKey(earlier) === bankLineKey(line) ? earlier.outcome : 'already_matched';
        return line;
      }
      line.outcome = -input.amountCents === transfer.cents ? 'matched' : 'amount_mismatch';
      line.matchedOriginId = transfer.originId;
      confirming.set(transfer.originId, line);
      return line;
    });
  }

  /** The account's sent transfers each reference names: by networkId, and by originId when it is one. */
  private async candidatesOf(
    manager: EntityManager,
    account: string,
    references: string[],
  ): Promise<Map<string, Candidate[]>> {
    const named = new Map<string, Candidate[]>();
    if (references.length === 0) return named;
    const originIds = references.filter((reference) => /^[1-9][0-9]{0,15}$/.test(reference)).map(Number);
    const networkIds = this.context.engine.oneOf('text', references);
    const byOriginId = originIds.length > 0 ? this.context.engine.oneOf('bigint', originIds) : undefined;
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT "origin_id", "network_id", "amount", "status" FROM "giro_movements"
  WHERE "from_address" = ? AND ("network_id" ${networkIds.text}${byOriginId ? ` OR "origin_id" ${byOriginId.text}` : ''})`,
      ),
      [account, ...networkIds.parameters, ...(byOriginId?.parameters ?? [])],
    );
    for (const row of rows) {
      if (NEVER_SENT.includes(String(row.status))) continue;
      const candidate: Candidate = {
        originId: bigint(row.origin_id),
        networkId: (row.network_id as string | null) ?? null,
        cents: amountToCents(String(row.amount) as DecimalAmount),
        status: String(row.status),
      };
      const names = new Set([candidate.networkId, String(candidate.originId)]);
      for (const reference of names) {
        if (reference === null || !references.includes(reference)) continue;
        const list = named.get(reference) ?? [];
        if (!list.some((known) => known.originId === candidate.originId)) list.push(candidate);
        named.set(reference, list);
      }
    }
    return named;
  }

  /** The bank lines (bankLineKey) of the debits no transfer explains already stored for these references. */
  private async unknownDebitKeys(manager: EntityManager, account: string, references: string[]): Promise<Set<string>> {
    const distinct = [...new Set(references)];
    if (distinct.length === 0) return new Set();
    const named = this.context.engine.oneOf('text', distinct);
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT ${LINE_COLUMNS} FROM "giro_statement_lines"
  WHERE "account" = ? AND "reference" ${named.text} AND "outcome" = 'unknown_debit'`,
      ),
      [account, ...named.parameters],
    );
    return new Set(rows.map((row) => bankLineKey(lineOf(row))));
  }

  /** The line already confirming each of these transfers, if any. */
  private async confirmingLines(manager: EntityManager, originIds: number[]): Promise<Map<number, StoredLine>> {
    const found = new Map<number, StoredLine>();
    if (originIds.length === 0) return found;
    const transfers = this.context.engine.oneOf('bigint', originIds);
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT ${LINE_COLUMNS} FROM "giro_statement_lines" WHERE "matched_origin_id" ${transfers.text}`,
      ),
      transfers.parameters,
    );
    for (const row of rows) found.set(bigint(row.matched_origin_id), lineOf(row));
    return found;
  }

  private async insertLines(manager: EntityManager, importId: string, account: string, lines: StoredLine[]) {
    await this.context.engine.insertMany(
      manager,
      'giro_statement_lines',
      LINE_TABLE_COLUMNS,
      lines.map((line) => [
        importId,
        line.line,
        account,
        line.date,
        line.cents.toString(),
        line.reference,
        line.description,
        line.outcome,
        line.originId,
        line.matchedOriginId,
      ]),
    );
  }

  /**
   * An amount that differs raises `amount_mismatch` on the transfer, once: with the line that confirms it; a debit no
   * transfer explains raises `unknown_debit` (an anomaly of its own, and its event `statement.unknown_debit`), once
   * per bank line. Answers how many events were written.
   */
  private async raiseLineAnomalies(
    manager: EntityManager,
    statement: { id: string; account: string },
    lines: StoredLine[],
    now: number,
  ): Promise<number> {
    let raised = 0;
    for (const line of lines) {
      if (line.outcome !== 'amount_mismatch' || line.matchedOriginId === null) continue;
      raised += await this.raise(manager, line.matchedOriginId, now, {
        kind: ANOMALY_KINDS.amountMismatch,
        reason: `the bank's statement debited ${amountFromCents(-line.cents)} for it`,
        statement: { importId: statement.id, line: line.line, date: line.date, amount: signedAmount(line.cents) },
      });
    }
    const firstUnknown = lines.filter((line) => line.firstUnknown);
    await this.unknownDebits.record(
      manager,
      statement.id,
      firstUnknown.map((line) => line.line),
      now,
    );
    const unknown: UnknownDebit[] = firstUnknown.map((line) => ({
      statementId: statement.id,
      account: statement.account,
      line: {
        number: line.line,
        date: line.date,
        amount: signedAmount(line.cents),
        reference: line.reference,
        description: line.description,
      },
    }));
    if (unknown.length === 0 || !this.context.outbox) return raised;
    const events = this.context.outbox.renderUnknownDebits(unknown, now);
    await writeOutboxEvents(manager, this.context.engine, events, now);
    return raised + events.length;
  }

  /**
   * The account's COMPLETED transfers of the covered days that no line confirms: counted, and each past the
   * grace raises `missing_in_statement` once. A transfer's day is the Buenos Aires day it was created on.
   */
  private async raiseMissing(
    manager: EntityManager,
    request: StatementImportRequest,
    period: { id: string; from: string; to: string },
    now: number,
  ): Promise<{ count: number; raised: number }> {
    const today = businessDayOf(new Date(now));
    let count = 0;
    let raised = 0;
    let afterOriginId = 0;
    for (;;) {
      const rows = await this.unconfirmed(manager, request.account, period, afterOriginId, MAX_BATCH_SIZE);
      if (rows.length === 0) return { count, raised };
      count += rows.length;
      afterOriginId = rows[rows.length - 1].originId;
      const overdue = rows.filter((row) => isPastStatementGrace(request.calendar, row.day, today, request.graceDays));
      const raisedBefore = await this.alreadyMissing(
        manager,
        overdue.map((row) => row.originId),
      );
      for (const row of overdue) {
        if (raisedBefore.has(row.originId)) continue;
        raised += await this.raise(manager, row.originId, now, {
          kind: ANOMALY_KINDS.missingInStatement,
          reason: `COMPLETED on ${row.day}, absent from the bank's statement of that day`,
          statement: { importId: period.id, from: period.from, to: period.to },
        });
      }
    }
  }

  private async unconfirmed(
    manager: EntityManager,
    account: string,
    period: { from: string; to: string },
    afterOriginId: number,
    limit: number,
  ): Promise<{ originId: number; networkId: string | null; amount: string; day: string }[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT m."origin_id", m."network_id", m."amount", m."created_at_ms" FROM "giro_movements" m
  WHERE m."from_address" = ? AND m."created_at_ms" >= ? AND m."created_at_ms" < ? AND m."status" = 'COMPLETED'
    AND m."origin_id" > ?
    AND NOT EXISTS (SELECT 1 FROM "giro_statement_lines" l WHERE l."matched_origin_id" = m."origin_id")
  ORDER BY m."origin_id" LIMIT ?`,
      ),
      [
        account,
        businessDayBounds(period.from).start.getTime(),
        businessDayBounds(period.to).end.getTime(),
        afterOriginId,
        limit,
      ],
    );
    return rows.map((row) => ({
      originId: bigint(row.origin_id),
      networkId: (row.network_id as string | null) ?? null,
      amount: String(row.amount),
      day: businessDayOf(new Date(bigint(row.created_at_ms))),
    }));
  }

  /** Of these transfers, those a `missing_in_statement` anomaly was raised for already. */
  private async alreadyMissing(manager: EntityManager, originIds: number[]): Promise<Set<number>> {
    if (originIds.length === 0) return new Set();
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(
        `SELECT h."origin_id" FROM "giro_movement_history" h WHERE h."source" = 'anomaly'
  AND h."origin_id" IN (${originIds.map(() => '?').join(', ')})
  AND ${this.context.engine.jsonMember('h."detail"', 'kind')} = ?`,
      ),
      [...originIds, ANOMALY_KINDS.missingInStatement],
    );
    return new Set(rows.map((row) => bigint(row.origin_id)));
  }

  /**
   * An anomaly row on the transfer, its status kept, and its `transfer.anomaly` event in the same transaction;
   * answers how many events were written.
   */
  private async raise(
    manager: EntityManager,
    originId: number,
    now: number,
    detail: Record<string, unknown>,
  ): Promise<number> {
    const movement = await this.context.getMovement(manager, originId);
    const entity: Omit<MovementHistoryEntity, 'id' | 'movement'> = {
      originId,
      fromStatus: movement.status,
      toStatus: movement.status,
      atMs: now,
      source: 'anomaly',
      detail: JSON.stringify(detail),
      actorKeyId: null,
      actorName: null,
    };
    const inserted = await manager.createQueryBuilder().insert().into(HistoryEntity).values(entity).execute();
    const id = Number(inserted.identifiers[0]?.id ?? inserted.raw?.[0]?.id);
    if (!this.context.outbox) return 0;
    await writeMovementChangeEvents(
      manager,
      this.context,
      this.context.outbox,
      {
        movement: toMovementRecord(movement),
        appended: [toHistoryRecord({ ...entity, id } as MovementHistoryEntity)],
        cancellation: null,
      },
      now,
    );
    return 1;
  }

  /** An import's answer: its counts, and the first items of each list (the transfers named, and who is missing). */
  private async report(manager: EntityManager, record: StatementImportRecord): Promise<StatementReport> {
    const sql = (text: string) => this.context.engine.sql(text);
    const items = async (outcomes: LineOutcome[]): Promise<StatementItem[]> => {
      const rows: Record<string, unknown>[] = await manager.query(
        sql(`SELECT ${LINED_COLUMNS}, m."network_id" AS "transfer_network_id", m."amount" AS "transfer_amount"
  FROM "giro_statement_lines" l LEFT JOIN "giro_movements" m ON m."origin_id" = l."origin_id"
  WHERE l."import_id" = ? AND l."outcome" IN (${outcomes.map(() => '?').join(', ')})
  ORDER BY l."line_number" LIMIT ?`),
        [record.id, ...outcomes, STATEMENT_REPORT_ITEMS],
      );
      return rows.map((row) => {
        const line = lineOf(row);
        return {
          kind: line.outcome,
          line: { number: line.line, date: line.date, amount: signedAmount(line.cents), reference: line.reference },
          transfer:
            line.originId === null
              ? null
              : {
                  originId: line.originId,
                  networkId: (row.transfer_network_id as string | null) ?? null,
                  amount: String(row.transfer_amount),
                },
        };
      });
    };
    const onlyInGiro: StatementItem[] =
      record.periodFrom === null || record.periodTo === null
        ? []
        : (
            await this.unconfirmed(
              manager,
              record.account,
              { from: record.periodFrom, to: record.periodTo },
              0,
              STATEMENT_REPORT_ITEMS,
            )
          ).map((row) => ({
            kind: 'missing_in_statement',
            line: null,
            transfer: { originId: row.originId, networkId: row.networkId, amount: row.amount },
          }));
    return {
      ...record,
      matched: await items(['matched']),
      onlyInStatement: await items(['unknown_debit', 'ambiguous', 'already_matched']),
      onlyInGiro,
      amountMismatch: await items(['amount_mismatch']),
    };
  }
}

/** The line that confirmed each of these transfers (matched, or matched with another amount), by originId. */
export async function statementConfirmationsOf(
  manager: EntityManager,
  originIds: number[],
): Promise<Map<number, StatementConfirmation>> {
  const found = new Map<number, StatementConfirmation>();
  if (originIds.length === 0) return found;
  const rows: Record<string, unknown>[] = await manager
    .createQueryBuilder()
    .select(['l.matched_origin_id AS "origin_id"', 'l.import_id AS "import_id"', 'l.line_number AS "line_number"'])
    .addSelect('l.line_date', 'line_date')
    .from('giro_statement_lines', 'l')
    .where('l.matched_origin_id IN (:...originIds)', { originIds })
    .getRawMany();
  for (const row of rows) {
    found.set(bigint(row.origin_id), {
      importId: String(row.import_id),
      line: Number(row.line_number),
      date: String(row.line_date),
    });
  }
  return found;
}

const IMPORT_COLUMNS = `"id", "account", "sha256", "period_from", "period_to", "line_count", "matched_count",
  "only_in_statement_count", "only_in_giro_count", "amount_mismatch_count", "created_at_ms", "created_by_key_id",
  "created_by_name"`;

const LINED_COLUMNS = `l."line_number", l."line_date", l."amount_cents", l."reference", l."description", l."outcome",
  l."origin_id", l."matched_origin_id"`;
const LINE_COLUMNS = LINED_COLUMNS.replace(/l\./g, '');

const bigint = bigintAsNumber.from;

function importOf(row: Record<string, unknown>): StatementImportRecord {
  return {
    id: String(row.id),
    account: String(row.account),
    sha256: String(row.sha256),
    periodFrom: (row.period_from as string | null) ?? null,
    periodTo: (row.period_to as string | null) ?? null,
    lines: Number(row.line_count),
    counts: {
      matched: Number(row.matched_count),
      onlyInStatement: Number(row.only_in_statement_count),
      onlyInGiro: Number(row.only_in_giro_count),
      amountMismatch: Number(row.amount_mismatch_count),
    },
    createdAt: new Date(bigint(row.created_at_ms)),
    by:
      row.created_by_key_id === null || row.created_by_name === null
        ? null
        : { keyId: String(row.created_by_key_id), name: String(row.created_by_name) },
  };
}

function lineOf(row: Record<string, unknown>): StoredLine {
  return {
    line: Number(row.line_number),
    date: String(row.line_date),
    cents: BigInt(String(row.amount_cents)),
    reference: String(row.reference),
    description: String(row.description ?? ''),
    outcome: row.outcome as LineOutcome,
    originId: row.origin_id === null || row.origin_id === undefined ? null : bigint(row.origin_id),
    matchedOriginId:
      row.matched_origin_id === null || row.matched_origin_id === undefined ? null : bigint(row.matched_origin_id),
  };
}

/**
 * The batches, the next one read while the caller works on the one it has: reading a statement (decoding and
 * parsing the file) then runs while the database matches and stores the batch before, not after it. A failure of
 * the read ahead is the caller's when it asks for that batch.
 */
async function* readAhead<T>(batches: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = batches[Symbol.asyncIterator]();
  let done = false;
  try {
    let next = iterator.next();
    for (;;) {
      const result = await next;
      if (result.done) {
        done = true;
        return;
      }
      next = iterator.next();
      // Awaited on the next turn; meanwhile its rejection is not an unhandled one.
      next.catch(() => undefined);
      yield result.value;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}

/** Statement imports' advisory lock of an account: a fixed prefix, then 32 bits of the account's digest. */
function accountLockKey(account: string): number {
  return STATEMENT_LOCK_PREFIX * 2 ** 32 + createHash('sha256').update(account).digest().readUInt32BE(0);
}

/** What makes two statement lines the same bank line: its date, amount and reference (the account aside). */
function bankLineKey(line: { date: string; cents: bigint; reference: string }): string {
  return `${line.date}|${line.cents}|${line.reference}`;
}

function signedAmount(cents: bigint): string {
  return cents < 0n ? `-${amountFromCents(-cents)}` : amountFromCents(cents);
}

function parseCursor(after: unknown): { atMs: number; id: string } {
  const match = typeof after === 'string' ? CURSOR.exec(after) : null;
  if (!match) throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  return { atMs: Number(match[1]), id: match[2] };
}
