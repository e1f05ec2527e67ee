import type { EntityManager } from 'typeorm';
import { amountFromCents, amountToCents, type DecimalAmount } from '../domain';
import type { RecordedActor } from './movement-records';
import { PayeeNotFoundError } from './persistence.errors';
import { checkActor, checkInteger, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import type { MovementPage } from './store-types';

/** One destination account (CBU/CVU) as the payee book knows it. */
export interface PayeeRecord {
  address: string;
  /** The CUIT giro asked for in the latest transfer to it (or the one given by hand). */
  requestedPersonId: string | null;
  /** The holder's CUIT and name as the bank's latest completed answer reported them. */
  holderPersonId: string | null;
  holderName: string | null;
  /** The names the bank reported before the current one, oldest first. */
  previousNames: string[];
  /** When the bank first reported a name other than the one learned before. */
  nameChangedAt: Date | null;
  label: string | null;
  firstPaidAt: Date | null;
  lastPaidAt: Date | null;
  completedCount: number;
  completedAmount: DecimalAmount;
  approvedAt: Date | null;
  approvedBy: RecordedActor | null;
  blockedAt: Date | null;
  blockedBy: RecordedActor | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a completed transfer teaches the book: its account, who was asked for, who the bank said was paid. */
export interface PayeePayment {
  address: string;
  requestedPersonId: string;
  holderPersonId?: string;
  holderName?: string;
  amount: DecimalAmount;
}

/** What the create path needs to know about a destination account. */
export interface PayeeGate {
  blocked: boolean;
  /** Paid before (a completed transfer) or approved as a payee. */
  known: boolean;
}

export interface PayeeSearchOptions {
  /** Digits: an account's first digits or a CUIT (asked for or reported); other text: the start of a name or label. */
  q?: string;
  limit: number;
  /** The previous page's `nextCursor`: the last address it showed. */
  after?: string;
}

export interface PayeeEntry {
  address: string;
  personId: string | null;
  label: string | null;
}

/** Above every character a prefix search meets: the end of a range over a prefix. */
const PREFIX_END = '\uffff';
const DIGITS = /^[0-9]{1,22}$/;
const CUIT_LENGTH = 11;

const SELECT = 'SELECT * FROM "giro_payees"';
const GATE = `SELECT "blocked_at_ms", "approved_at_ms", "completed_count" FROM "giro_payees" WHERE "address" = ?`;
const LEARNED = `SELECT "holder_name", "previous_names", "name_changed_at_ms" FROM "giro_payees" WHERE "address" = ?`;
const LEARN = `INSERT INTO "giro_payees" ("address", "requested_person_id", "holder_person_id", "holder_name", "name_key",
    "previous_names", "name_changed_at_ms", "first_paid_at_ms", "last_paid_at_ms", "completed_count", "completed_cents",
    "created_at_ms", "updated_at_ms")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
  ON CONFLICT ("address") DO UPDATE SET "requested_person_id" = excluded."requested_person_id",
    "holder_person_id" = COALESCE(excluded."holder_person_id", "giro_payees"."holder_person_id"),
    "holder_name" = COALESCE(excluded."holder_name", "giro_payees"."holder_name"),
    "name_key" = COALESCE(excluded."name_key", "giro_payees"."name_key"),
    "previous_names" = excluded."previous_names", "name_changed_at_ms" = excluded."name_changed_at_ms",
    "first_paid_at_ms" = COALESCE("giro_payees"."first_paid_at_ms", excluded."first_paid_at_ms"),
    "last_paid_at_ms" = excluded."last_paid_at_ms", "completed_count" = "giro_payees"."completed_count" + 1,
    "completed_cents" = "giro_payees"."completed_cents" + excluded."completed_cents",
    "updated_at_ms" = excluded."updated_at_ms"`;
const ENSURE = `INSERT INTO "giro_payees" ("address", "requested_person_id", "created_at_ms", "updated_at_ms")
  VALUES (?, ?, ?, ?) ON CONFLICT ("address") DO NOTHING`;

/**
 * MovementStore's payee book: one row per destination account, learned in the transaction that applies a final
 * COMPLETED answer (never on the create path, which only reads one row by its key), and kept by hand (a label,
 * blocked, approved as a payee). Every change by hand is audited in its transaction.
 */
export class PayeeBook {
  constructor(private readonly context: StoreContext) {}

  /** In the caller's transaction (the one applying a COMPLETED answer): one more completed payment to `address`. */
  async learn(manager: EntityManager, payment: PayeePayment): Promise<void> {
    const now = this.context.nowMs();
    const sql = (text: string) => this.context.engine.sql(text);
    const [before] = await manager.query(sql(LEARNED), [payment.address]);
    const previousNames: string[] = before ? parseNames(before.previous_names) : [];
    let nameChangedAtMs: number | null = before?.name_changed_at_ms == null ? null : Number(before.name_changed_at_ms);
    const learnedName: string | null = before?.holder_name ?? null;
    if (payment.holderName !== undefined && learnedName !== null && learnedName !== payment.holderName) {
      previousNames.push(learnedName);
      nameChangedAtMs = now;
    }
    await manager.query(sql(LEARN), [
      payment.address,
      payment.requestedPersonId,
      payment.holderPersonId ?? null,
      payment.holderName ?? null,
      payment.holderName === undefined ? null : searchKey(payment.holderName),
      previousNames.length === 0 ? null : JSON.stringify(previousNames),
      nameChangedAtMs,
      now,
      now,
      Number(amountToCents(payment.amount)),
      now,
      now,
    ]);
  }

  /** Whether transfers to `address` are refused, and whether it was paid or approved before. */
  async gate(address: string): Promise<PayeeGate> {
    // Every create reads it: one statement, without a transaction around it.
    return this.context.transactions.readStatement(async (manager) => gateOf(await this.selectGate(manager, address)));
  }

  /** In the caller's transaction (an approval's): `address` is approved as a payee, by `by`, unless it was already. */
  async approve(manager: EntityManager, address: string, requestedPersonId: string, by: RecordedActor): Promise<void> {
    const now = this.context.nowMs();
    const sql = (text: string) => this.context.engine.sql(text);
    await manager.query(sql(ENSURE), [address, requestedPersonId, now, now]);
    await manager.query(
      sql(`UPDATE "giro_payees" SET "approved_at_ms" = ?, "approved_by_key_id" = ?, "approved_by_name" = ?,
        "updated_at_ms" = ? WHERE "address" = ? AND "approved_at_ms" IS NULL`),
      [now, by.keyId, by.name, now, address],
    );
  }

  /** The entry of `address`; null when the book has none. */
  async find(address: string): Promise<PayeeRecord | null> {
    return this.context.transactions.read(async (manager) => this.select(manager, address));
  }

  /** A page of entries by address (keyset: `after` is the last address of the previous page). */
  async search(options: PayeeSearchOptions): Promise<MovementPage<PayeeRecord>> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    const q = options.q?.trim() ?? '';
    if (DIGITS.test(q)) {
      const byCuit = q.length === CUIT_LENGTH ? ' OR "requested_person_id" = ? OR "holder_person_id" = ?' : '';
      conditions.push(`(("address" >= ? AND "address" < ?)${byCuit})`);
      parameters.push(q, q + PREFIX_END, ...(byCuit === '' ? [] : [q, q]));
    } else if (q !== '') {
      const key = searchKey(q);
      conditions.push(`(("name_key" >= ? AND "name_key" < ?) OR ("label_key" >= ? AND "label_key" < ?))`);
      parameters.push(key, key + PREFIX_END, key, key + PREFIX_END);
    }
    if (options.after !== undefined) {
      conditions.push(`"address" > ?`);
      parameters.push(options.after);
    }
    const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
    const rows = await this.context.transactions.read((manager) =>
      manager.query(this.context.engine.sql(`${SELECT}${where} ORDER BY "address" LIMIT ?`), [
        ...parameters,
        limit + 1,
      ]),
    );
    const items = (rows as PayeeRow[]).slice(0, limit).map(toPayeeRecord);
    return { items, nextCursor: rows.length > limit ? items[items.length - 1].address : null };
  }

  /** Adds `address` to the book, or sets its label and the CUIT expected for it; audited. */
  async add(entry: PayeeEntry): Promise<PayeeRecord> {
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const before = await this.select(manager, entry.address);
      const sql = (text: string) => this.context.engine.sql(text);
      await manager.query(sql(ENSURE), [entry.address, entry.personId, now, now]);
      await manager.query(
        sql(`UPDATE "giro_payees" SET "requested_person_id" = COALESCE(?, "requested_person_id"), "label" = ?,
          "label_key" = ?, "updated_at_ms" = ? WHERE "address" = ?`),
        [entry.personId, entry.label, entry.label === null ? null : searchKey(entry.label), now, entry.address],
      );
      const after = (await this.select(manager, entry.address)) as PayeeRecord;
      await this.context.audit?.recordChange(manager, {
        target: entry.address,
        before: before && { requestedPersonId: before.requestedPersonId, label: before.label },
        after: { requestedPersonId: after.requestedPersonId, label: after.label },
      });
      return after;
    });
  }

  /** Blocks `address` (no transfer to it is accepted) or unblocks it; idempotent, the first block stays; audited. */
  async setBlocked(address: string, blocked: boolean, by: RecordedActor): Promise<PayeeRecord> {
    const actor = checkActor(by, 'by');
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const sql = (text: string) => this.context.engine.sql(text);
      const before = await this.select(manager, address);
      if (before === null && !blocked) throw new PayeeNotFoundError(address);
      if (before === null) await manager.query(sql(ENSURE), [address, null, now, now]);
      const wasBlocked = before?.blockedAt != null;
      if (wasBlocked !== blocked) {
        await manager.query(
          sql(`UPDATE "giro_payees" SET "blocked_at_ms" = ?, "blocked_by_key_id" = ?, "blocked_by_name" = ?,
            "updated_at_ms" = ? WHERE "address" = ?`),
          blocked ? [now, actor.keyId, actor.name, now, address] : [null, null, null, now, address],
        );
        await this.context.audit?.recordChange(manager, {
          target: address,
          before: { blocked: wasBlocked },
          after: { blocked },
        });
      }
      return (await this.select(manager, address)) as PayeeRecord;
    });
  }

  private async select(manager: EntityManager, address: string): Promise<PayeeRecord | null> {
    const [row] = await manager.query(this.context.engine.sql(`${SELECT} WHERE "address" = ?`), [address]);
    return row === undefined ? null : toPayeeRecord(row);
  }

  private async selectGate(manager: EntityManager, address: string): Promise<GateRow | undefined> {
    const [row] = await manager.query(this.context.engine.sql(GATE), [address]);
    return row;
  }
}

/** A name or label as searched: lower case, accents and repeated spaces gone ("Pérez  S.A." → "perez s.a."). */
function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

interface GateRow {
  blocked_at_ms: unknown;
  approved_at_ms: unknown;
  completed_count: unknown;
}

function gateOf(row: GateRow | undefined): PayeeGate {
  if (row === undefined) return { blocked: false, known: false };
  return { blocked: row.blocked_at_ms != null, known: row.approved_at_ms != null || Number(row.completed_count) > 0 };
}

interface PayeeRow {
  address: string;
  requested_person_id: string | null;
  holder_person_id: string | null;
  holder_name: string | null;
  previous_names: string | null;
  name_changed_at_ms: unknown;
  label: string | null;
  first_paid_at_ms: unknown;
  last_paid_at_ms: unknown;
  completed_count: unknown;
  completed_cents: unknown;
  approved_at_ms: unknown;
  approved_by_key_id: string | null;
  approved_by_name: string | null;
  blocked_at_ms: unknown;
  blocked_by_key_id: string | null;
  blocked_by_name: string | null;
  created_at_ms: unknown;
  updated_at_ms: unknown;
}

function toPayeeRecord(row: PayeeRow): PayeeRecord {
  return {
    address: row.address,
    requestedPersonId: row.requested_person_id,
    holderPersonId: row.holder_person_id,
    holderName: row.holder_name,
    previousNames: parseNames(row.previous_names),
    nameChangedAt: dateOf(row.name_changed_at_ms),
    label: row.label,
    firstPaidAt: dateOf(row.first_paid_at_ms),
    lastPaidAt: dateOf(row.last_paid_at_ms),
    completedCount: Number(row.completed_count),
    completedAmount: amountFromCents(BigInt(String(row.completed_cents))),
    approvedAt: dateOf(row.approved_at_ms),
    approvedBy: actorOf(row.approved_by_key_id, row.approved_by_name),
    blockedAt: dateOf(row.blocked_at_ms),
    blockedBy: actorOf(row.blocked_by_key_id, row.blocked_by_name),
    createdAt: new Date(Number(row.created_at_ms)),
    updatedAt: new Date(Number(row.updated_at_ms)),
  };
}

function dateOf(ms: unknown): Date | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms));
}

function actorOf(keyId: string | null, name: string | null): RecordedActor | null {
  return keyId === null || name === null ? null : { keyId, name };
}

function parseNames(text: string | null | undefined): string[] {
  return typeof text === 'string' ? (JSON.parse(text) as string[]) : [];
}
