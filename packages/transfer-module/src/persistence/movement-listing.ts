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
import { StoreArgumentError } from './persistence.errors';
import { checkDate, checkInteger, checkNetworkId, checkOriginId, checkStatus, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import type { ListMovementsOptions, MovementPage } from './store-types';

const CURSOR = /^[1-9][0-9]{0,15}$/;

/** MovementStore's reads of movements: one with its details, pages of them, and counts. */
export class MovementListing {
  constructor(private readonly context: StoreContext) {}

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

  /** A page of movements by originId, optionally of one status or one network id. */
  async list(options: ListMovementsOptions): Promise<MovementPage> {
    const query = pageQuery(options);
    return this.context.transactions.read(async (manager) => query.page(await query.rows(manager), toMovementRecord));
  }

  /** `list`, each movement with its history and cancellation (two more queries for the whole page). */
  async listDetails(options: ListMovementsOptions): Promise<MovementPage<MovementDetails>> {
    const query = pageQuery(options);
    return this.context.transactions.read(async (manager) => {
      const { items, nextCursor } = query.page(await query.rows(manager), (row) => row);
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

  /** When the oldest movement that is not final was created (its intent recorded), or null when none is open. */
  async oldestNonFinalCreatedAt(): Promise<Date | null> {
    return this.context.transactions.read(async (manager) => {
      const row: { oldest: string | number | null } | undefined = await manager
        .createQueryBuilder(MovementEntity, 'm')
        .select('MIN(m.createdAtMs)', 'oldest')
        .where('m.status NOT IN (:...finals)', { finals: FINAL_STATUSES })
        .getRawOne();
      return row?.oldest === null || row?.oldest === undefined ? null : new Date(Number(row.oldest));
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

/** Checks the options of a page now (before any transaction) and builds its query. */
function pageQuery(options: ListMovementsOptions) {
  const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
  if (options.status !== undefined) checkStatus(options.status, 'status');
  if (options.networkId !== undefined) checkNetworkId(options.networkId);
  if (options.debinId !== undefined) checkNetworkId(options.debinId, 'debinId');
  const after = options.after === undefined ? undefined : parseCursor(options.after);
  return {
    rows(manager: EntityManager): Promise<MovementEntity[]> {
      const query = manager
        .createQueryBuilder(MovementEntity, 'm')
        .orderBy('m.originId', 'ASC')
        .limit(limit + 1);
      if (options.status !== undefined) query.andWhere('m.status = :status', { status: options.status });
      if (options.networkId !== undefined) query.andWhere('m.networkId = :networkId', { networkId: options.networkId });
      if (options.debinId !== undefined) query.andWhere('m.debinId = :debinId', { debinId: options.debinId });
      if (after !== undefined) query.andWhere('m.originId > :after', { after });
      return query.getMany();
    },
    page<T>(rows: MovementEntity[], map: (row: MovementEntity) => T): MovementPage<T> {
      const kept = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? String(kept[kept.length - 1].originId) : null;
      return { items: kept.map(map), nextCursor };
    },
  };
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
  // Object.assign, not a spread then properties: see answerPatch (movement/movement-plan.ts).
  return rows.map((row) =>
    Object.assign(toMovementRecord(row), {
      history: historyOf.get(row.originId) ?? [],
      cancellation: cancellationOf.get(row.originId) ?? null,
      resolutions: resolutions.filter((resolution) => originIdOf.get(resolution.historyId) === row.originId),
    }),
  );
}

function parseCursor(after: unknown): number {
  if (typeof after !== 'string' || !CURSOR.test(after) || !Number.isSafeInteger(Number(after))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return Number(after);
}
