import type { EntityManager } from 'typeorm';
import { FINAL_STATUSES, MOVEMENT_STATUSES, type MovementStatus } from '../domain';
import { CancellationEntity, MovementEntity, MovementHistoryEntity } from './entities';
import { resolutionsOf } from './movement-anomalies';
import {
  type HistoryRecord,
  type MovementDetails,
  toCancellationRecord,
  toHistoryRecord,
  toMovementRecord,
} from './movement-records';
import { type ScheduledDayTotal, type ScheduledTotalsFilter, selectScheduledTotals } from './scheduled-totals';
import { checkedSearch, pageOf } from './search/checked-search';
import { type MovementSearchPort, movementSearchFor } from './search/movement-search-port';
import { statementConfirmationsOf } from './statement-book';
import { checkAddress, checkDate, checkInteger, checkOriginId } from './store-arguments';
import type { StoreContext } from './store-context';
import type { ListMovementsOptions, MovementPage } from './store-types';

/** How many movements and how much, in one currency. */
export interface CurrencyTotal {
  currencyId: string;
  count: number;
  cents: bigint;
}

/** Which scheduled transfers scheduledTotalsByDay totals (each filter optional). */
export interface ScheduledTotalsOptions {
  executeFrom?: Date;
  executeBefore?: Date;
  fromAddress?: string;
}

/** How many movements findManyByOriginIds reads per statement (its lists of ids stay short of any engine's limit). */
const FIND_MANY_CHUNK = 500;

/** The most groups (day, account, currency) one scheduledTotalsByDay answers. */
export const MAX_TOTALS_GROUPS = 1000;

const NON_FINAL_STATUSES = MOVEMENT_STATUSES.filter(
  (status) => !(FINAL_STATUSES as readonly string[]).includes(status),
);

/** MovementStore's reads of movements: one with its details, pages of them, and counts. */
export class MovementListing {
  private readonly search: MovementSearchPort;

  constructor(private readonly context: StoreContext) {
    this.search = movementSearchFor(context.dataSource);
  }

  /** The movement with its history (oldest first) and its cancellation; null when unknown. */
  async findByOriginId(originId: number): Promise<MovementDetails | null> {
    checkOriginId(originId);
    return this.context.transactions.read(async (manager) => {
      const row = await this.context.selectMovement(manager, originId);
      if (!row) return null;
      const [details] = await withDetails(manager, [row]);
      return details;
    });
  }

  /**
   * The movements of `originIds` with their details, as findByOriginId reads one, in the order asked (the unknown
   * left out): a few statements per FIND_MANY_CHUNK movements, not one read per movement.
   */
  async findManyByOriginIds(originIds: readonly number[]): Promise<MovementDetails[]> {
    for (const originId of originIds) checkOriginId(originId);
    const ids = [...new Set(originIds)];
    if (ids.length === 0) return [];
    return this.context.transactions.read(async (manager) => {
      const found: MovementDetails[] = [];
      for (let from = 0; from < ids.length; from += FIND_MANY_CHUNK) {
        const chunk = ids.slice(from, from + FIND_MANY_CHUNK);
        const rows = await manager
          .createQueryBuilder(MovementEntity, 'm')
          .where('m.originId IN (:...chunk)', { chunk })
          .getMany();
        const rowOf = new Map(rows.map((row) => [row.originId, row]));
        found.push(
          ...(await withDetails(
            manager,
            chunk.flatMap((id) => rowOf.get(id) ?? []),
          )),
        );
      }
      return found;
    });
  }

  /** A page of the movements a search finds (all of them without filters), by originId or creation time. */
  async list(options: ListMovementsOptions): Promise<MovementPage> {
    const search = checkedSearch(options);
    return this.context.transactions.read(async (manager) =>
      pageOf(await this.search.rows(manager, search), search, toMovementRecord),
    );
  }

  /** `list`, each movement with its history and cancellation (two more queries for the whole page). */
  async listDetails(options: ListMovementsOptions): Promise<MovementPage<MovementDetails>> {
    const search = checkedSearch(options);
    return this.context.transactions.read(async (manager) => {
      const { items, nextCursor } = pageOf(await this.search.rows(manager, search), search, (row) => row);
      return { items: await withDetails(manager, items), nextCursor };
    });
  }

  /** How many movements are due (not final, nextQueryAt ≤ now), leased or not: the backlog of a sweep. */
  async countDue(now?: Date): Promise<number> {
    const nowMs = now === undefined ? this.context.nowMs() : checkDate(now, 'now');
    return this.context.transactions.read((manager) =>
      manager
        .createQueryBuilder(MovementEntity, 'm')
        .where('m.status NOT IN (:...finals)', { finals: FINAL_STATUSES })
        .andWhere('m.nextQueryAtMs <= :now', { now: nowMs })
        .getCount(),
    );
  }

  /** The oldest movement that is not final (by creation time), or null when none is open. */
  async oldestNonFinal(): Promise<{ originId: number; status: MovementStatus; createdAt: Date } | null> {
    return this.context.transactions.read(async (manager) => {
      // One status at a time: each is the first entry of its range of the (status, created_at_ms, origin_id)
      // index, where a NOT IN over the final statuses would read past every final movement. One after the
      // other: the queries share the transaction's one connection, which runs a single query at a time (pg
      // queues concurrent ones today, deprecated, and refuses them from pg 9).
      const oldest: MovementEntity[] = [];
      for (const status of NON_FINAL_STATUSES) {
        const row = await manager
          .createQueryBuilder(MovementEntity, 'm')
          .select(['m.originId', 'm.status', 'm.createdAtMs'])
          .where('m.status = :status', { status })
          .orderBy('m.createdAtMs', 'ASC')
          .addOrderBy('m.originId', 'ASC')
          .limit(1)
          .getOne();
        if (row !== null) oldest.push(row);
      }
      const first = oldest.sort((a, b) => a.createdAtMs - b.createdAtMs || a.originId - b.originId)[0];
      return first ? { originId: first.originId, status: first.status, createdAt: new Date(first.createdAtMs) } : null;
    });
  }

  /** When the oldest movement that is not final was created (its intent recorded), or null when none is open. */
  async oldestNonFinalCreatedAt(): Promise<Date | null> {
    return (await this.oldestNonFinal())?.createdAt ?? null;
  }

  /** The COMPLETED movements created in `[from, before)`: how many and how much, per currency. */
  completedTotals(from: Date, before: Date): Promise<CurrencyTotal[]> {
    return this.totalsByCurrency('COMPLETED', 'createdAtMs', from, before);
  }

  /** The SCHEDULED movements to be sent in `[from, before)`: how many and how much, per currency. */
  scheduledTotals(from: Date, before: Date): Promise<CurrencyTotal[]> {
    return this.totalsByCurrency('SCHEDULED', 'executeAtMs', from, before);
  }

  /**
   * The SCHEDULED movements to be sent in `[executeFrom, executeBefore)` (each bound optional), from one source
   * account or all: how many and how much per sending day (Buenos Aires), account and currency, earliest day
   * first; at most `limit` of these groups.
   */
  async scheduledTotalsByDay(filter: ScheduledTotalsOptions, limit: number): Promise<ScheduledDayTotal[]> {
    const checked: ScheduledTotalsFilter = {};
    if (filter.executeFrom !== undefined) checked.executeFromMs = checkDate(filter.executeFrom, 'executeFrom');
    if (filter.executeBefore !== undefined) checked.executeBeforeMs = checkDate(filter.executeBefore, 'executeBefore');
    if (filter.fromAddress !== undefined) checked.fromAddress = checkAddress(filter.fromAddress, 'fromAddress');
    const max = checkInteger(limit, 'limit', 1, MAX_TOTALS_GROUPS);
    return this.context.transactions.read((manager) =>
      selectScheduledTotals(manager, this.context.engine, checked, max),
    );
  }

  /** The movements in `status` whose `time` falls in `[from, before)`, counted and summed per currency. */
  private async totalsByCurrency(
    status: MovementStatus,
    time: 'createdAtMs' | 'executeAtMs',
    from: Date,
    before: Date,
  ): Promise<CurrencyTotal[]> {
    const fromMs = checkDate(from, 'from');
    const beforeMs = checkDate(before, 'before');
    return this.context.transactions.read(async (manager) => {
      const rows: { currencyId: string; count: string | number; cents: string | number | null }[] = await manager
        .createQueryBuilder(MovementEntity, 'm')
        .select('m.currencyId', 'currencyId')
        .addSelect('COUNT(*)', 'count')
        .addSelect('SUM(m.amountCents)', 'cents')
        .where('m.status = :status', { status })
        .andWhere(`m.${time} >= :fromMs AND m.${time} < :beforeMs`, { fromMs, beforeMs })
        .groupBy('m.currencyId')
        .orderBy('m.currencyId', 'ASC')
        .getRawMany();
      return rows.map((row) => ({
        currencyId: row.currencyId,
        count: Number(row.count),
        cents: BigInt(row.cents ?? 0),
      }));
    });
  }

  /** How many movements are in each status (every status present, 0 included). */
  async countByStatus(): Promise<Record<MovementStatus, number>> {
    return this.context.transactions.read(async (manager) => {
      const rows: { status: MovementStatus; count: string | number }[] = await manager
        .createQueryBuilder(MovementEntity, 'm')
        .select('m.status', 'status')
        .addSelect('COUNT(*)', 'count')
        .groupBy('m.status')
        .getRawMany();
      const counts = Object.fromEntries(MOVEMENT_STATUSES.map((status) => [status, 0])) as Record<
        MovementStatus,
        number
      >;
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    });
  }
}

/** The rows with their history (oldest first) and cancellations, in the rows' order. */
async function withDetails(manager: EntityManager, rows: MovementEntity[]): Promise<MovementDetails[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.originId);
  const history = await manager
    .createQueryBuilder(MovementHistoryEntity, 'h')
    .where('h.originId IN (:...ids)', { ids })
    .orderBy('h.id', 'ASC')
    .getMany();
  const cancellations = await manager
    .createQueryBuilder(CancellationEntity, 'c')
    .where('c.originId IN (:...ids)', { ids })
    .getMany();
  const historyOf = new Map<number, HistoryRecord[]>(ids.map((id) => [id, []]));
  for (const entity of history) historyOf.get(entity.originId)?.push(toHistoryRecord(entity));
  const cancellationOf = new Map(cancellations.map((entity) => [entity.originId, toCancellationRecord(entity)]));
  // Anomalies are rare: the resolutions are read only when the page has some (one query for the page).
  const anomalies = history.filter((entity) => entity.source === 'anomaly');
  const resolutions = await resolutionsOf(
    manager,
    anomalies.map((entity) => Number(entity.id)),
  );
  const originIdOf = new Map(anomalies.map((entity) => [Number(entity.id), entity.originId]));
  const confirmations = await statementConfirmationsOf(manager, ids);
  // Object.assign, not a spread then properties: see answerPatch (movement/movement-plan.ts).
  return rows.map((row) =>
    Object.assign(toMovementRecord(row), {
      history: historyOf.get(row.originId) ?? [],
      cancellation: cancellationOf.get(row.originId) ?? null,
      resolutions: resolutions.filter((resolution) => originIdOf.get(resolution.historyId) === row.originId),
      ...(confirmations.has(row.originId) && { statement: confirmations.get(row.originId) }),
    }),
  );
}
