import type { DeliveryResult } from './engine/delivery-results';
import type { DeliveryConnection, EngineAdapter } from './engine/engine-adapter';
import { queryWithCount } from './engine/query-with-count';
import { WebhookAttemptEntity, WebhookDeliveryEntity, type WebhookDeliveryState, WebhookEventEntity } from './entities';
import { type OutboxEvent, writeOutboxEvents } from './outbox';
import { StoreArgumentError, WebhookDeliveryNotFoundError, WebhookEndpointNotFoundError } from './persistence.errors';
import type { SecretCipher } from './secret-cipher';
import { checkInteger, checkLeaseMs, checkLeaseOwner, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import {
  type ClaimedDelivery,
  toAttemptRecord,
  toDeliveryRecord,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
} from './webhook-records';

export type { DeliveryResult } from './engine/delivery-results';

export interface ListDeliveriesOptions {
  endpointId?: string;
  originId?: number;
  state?: WebhookDeliveryState;
  limit: number;
  /** The `nextCursor` of the previous page (newest first). */
  before?: string;
}

export interface WebhookDeliveryCounts {
  pending: number;
  /** Pending after at least one failed attempt. */
  failing: number;
  dead: number;
  /** When the oldest pending event was written; null when none waits. */
  oldestPendingAt: Date | null;
}

// A claim takes due pending deliveries of enabled endpoints, oldest due first, skipping any whose transfer has
// an earlier event still pending for the same endpoint (in order per transfer: the later one waits until the
// earlier is delivered or dead). An earlier one in flight elsewhere is pending too, so it waits for that as well.
// A leased delivery is taken once its lease expired, or where replicas beat once its owner has gone silent
// (EngineAdapter.unleased: a crashed replica's deliveries go out again within seconds, not at the lease's end).
const claimable = (engine: EngineAdapter) => `SELECT d."id", d."next_attempt_at_ms", d."attempts", d."origin_id",
    d."endpoint_id", ev."id" AS "event_id", ev."type" AS "event_type", ev."payload",
    ev."created_at_ms" AS "event_created_at_ms", ev."trace_parent", e."url", e."secret", e."previous_secret",
    e."previous_secret_expires_at_ms"
  FROM "giro_webhook_deliveries" d
  JOIN "giro_webhook_endpoints" e ON e."id" = d."endpoint_id" AND e."disabled_at_ms" IS NULL
  JOIN "giro_webhook_events" ev ON ev."seq" = d."event_seq"
  WHERE d."state" = 'pending' AND d."next_attempt_at_ms" <= ? AND ${engine.unleased('d')}
    AND (d."origin_id" IS NULL OR NOT EXISTS (SELECT 1 FROM "giro_webhook_deliveries" p
      WHERE p."state" = 'pending' AND p."endpoint_id" = d."endpoint_id" AND p."origin_id" = d."origin_id"
        AND p."event_seq" < d."event_seq"))
  ORDER BY d."next_attempt_at_ms" LIMIT ?`;

/** WebhookStore's deliveries: claimed by dispatchers under a lease, their results, and an operator's views. */
export class WebhookDeliveries {
  /** `cipher`: opens the endpoints' secrets a claimed delivery is signed with. */
  constructor(
    private readonly context: StoreContext,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Leases up to `limit` due deliveries (EngineAdapter.claimDeliveries; on Postgres FOR UPDATE SKIP LOCKED, so
   * replicas take different ones).
   */
  async claimDue(
    options: { owner: string; limit: number; leaseMs: number },
    connection?: DeliveryConnection,
  ): Promise<ClaimedDelivery[]> {
    const owner = checkLeaseOwner(options.owner);
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const leaseMs = checkLeaseMs(options.leaseMs);
    const now = this.context.nowMs();
    const { engine } = this.context;
    const select = { sql: claimable(engine), parameters: [now, ...engine.unleasedParameters(now, owner), limit] };
    const rows = await engine.claimDeliveries(select, owner, now + leaseMs, connection);
    return rows.map((row) => toClaimedDelivery(row, now, (stored) => this.cipher.open(stored)));
  }

  /**
   * Records the results of attempts, each only if the delivery is still leased to `owner` (a dispatcher that
   * stalled past its lease may have been overtaken: its result is then dropped, the attempt repeated). Returns
   * the ids recorded. One transaction for the whole batch (EngineAdapter.recordDeliveryResults).
   */
  async recordResults(
    owner: string,
    results: readonly DeliveryResult[],
    connection?: DeliveryConnection,
  ): Promise<number[]> {
    checkLeaseOwner(owner);
    if (results.length === 0) return [];
    const batches: DeliveryResult[][] = [];
    for (let start = 0; start < results.length; start += MAX_BATCH_SIZE) {
      batches.push(results.slice(start, start + MAX_BATCH_SIZE));
    }
    return this.context.engine.recordDeliveryResults(owner, batches, connection);
  }

  /** Gives up this owner's leases (a dispatcher stopping): its deliveries are due again at once for the others. */
  async releaseLeases(owner: string): Promise<number> {
    checkLeaseOwner(owner);
    return this.context.transactions.write(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set({ leaseOwner: null, leaseExpiresAtMs: null })
        .where('"lease_owner" = :owner', { owner })
        .execute();
      return result.affected ?? 0;
    });
  }

  /** A page of deliveries, newest first, with their events' ids and types. */
  async list(options: ListDeliveriesOptions): Promise<{ items: WebhookDeliveryRecord[]; nextCursor: string | null }> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const before = options.before === undefined ? undefined : parseCursor(options.before);
    return this.context.transactions.read(async (manager) => {
      const query = manager
        .createQueryBuilder(WebhookDeliveryEntity, 'd')
        .innerJoinAndMapOne('d.event', WebhookEventEntity, 'ev', 'ev.seq = d.eventSeq')
        .orderBy('d.id', 'DESC')
        .limit(limit + 1);
      if (options.endpointId !== undefined)
        query.andWhere('d.endpointId = :endpointId', { endpointId: options.endpointId });
      if (options.originId !== undefined) query.andWhere('d.originId = :originId', { originId: options.originId });
      if (options.state !== undefined) query.andWhere('d.state = :state', { state: options.state });
      if (before !== undefined) query.andWhere('d.id < :before', { before });
      const rows = (await query.getMany()) as (WebhookDeliveryEntity & { event: WebhookEventEntity })[];
      const items = rows.slice(0, limit).map((row) => toDeliveryRecord(row, row.event));
      return { items, nextCursor: rows.length > limit ? String(items[items.length - 1].id) : null };
    });
  }

  /** The delivery with its event's payload. WebhookDeliveryNotFoundError. */
  async get(deliveryId: number): Promise<WebhookDeliveryRecord & { payload: string }> {
    return this.context.transactions.read(async (manager) => {
      const row = (await manager
        .createQueryBuilder(WebhookDeliveryEntity, 'd')
        .innerJoinAndMapOne('d.event', WebhookEventEntity, 'ev', 'ev.seq = d.eventSeq')
        .where('d.id = :deliveryId', { deliveryId })
        .getOne()) as (WebhookDeliveryEntity & { event: WebhookEventEntity }) | null;
      if (row === null) throw new WebhookDeliveryNotFoundError(deliveryId);
      return { ...toDeliveryRecord(row, row.event), payload: row.event.payload };
    });
  }

  /** Every attempt of a delivery, oldest first. WebhookDeliveryNotFoundError. */
  async attempts(deliveryId: number): Promise<WebhookAttemptRecord[]> {
    return this.context.transactions.read(async (manager) => {
      if (!(await manager.existsBy(WebhookDeliveryEntity, { id: deliveryId }))) {
        throw new WebhookDeliveryNotFoundError(deliveryId);
      }
      const rows = await manager.find(WebhookAttemptEntity, { where: { deliveryId }, order: { id: 'ASC' } });
      return rows.map(toAttemptRecord);
    });
  }

  /**
   * Delivers it again: pending and due now, its schedule started over (the attempts so far stay listed). A
   * delivered one is sent again too (the receiver asked for it; the same id). WebhookDeliveryNotFoundError.
   */
  async redeliver(deliveryId: number): Promise<void> {
    await this.context.transactions.write(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set(this.dueAgain())
        .where('"id" = :deliveryId', { deliveryId })
        .execute();
      if (!result.affected) throw new WebhookDeliveryNotFoundError(deliveryId);
    });
  }

  /** Every dead delivery of the endpoint, pending again; how many. */
  async redeliverDead(endpointId: string): Promise<number> {
    return this.context.transactions.write(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set(this.dueAgain())
        .where('"endpoint_id" = :endpointId AND "state" = :dead', { endpointId, dead: 'dead' })
        .execute();
      return result.affected ?? 0;
    });
  }

  /** A test event for one endpoint only: the event and its one delivery. WebhookEndpointNotFoundError. */
  async addTestEvent(endpointId: string, event: OutboxEvent): Promise<WebhookDeliveryRecord> {
    const now = this.context.nowMs();
    const { engine } = this.context;
    const created = await this.context.transactions.write(async (manager) => {
      const endpoint = await manager.query(engine.sql('SELECT 1 FROM "giro_webhook_endpoints" WHERE "id" = ?'), [
        endpointId,
      ]);
      if (endpoint.length === 0) throw new WebhookEndpointNotFoundError(endpointId);
      await writeOutboxEvents(manager, engine, [event], now, { endpointId });
      const rows: { id: string | number }[] = await manager.query(
        engine.sql(
          `SELECT d."id" FROM "giro_webhook_deliveries" d JOIN "giro_webhook_events" ev ON ev."seq" = d."event_seq"
            WHERE ev."id" = ?`,
        ),
        [event.id],
      );
      return Number(rows[0].id);
    });
    return this.get(created);
  }

  async counts(): Promise<WebhookDeliveryCounts> {
    return this.context.transactions.read(async (manager) => {
      const [row]: Record<string, string | number | null>[] = await manager.query(
        `SELECT
          (SELECT COUNT(*) FROM "giro_webhook_deliveries" WHERE "state" = 'pending') AS "pending",
          (SELECT COUNT(*) FROM "giro_webhook_deliveries" WHERE "state" = 'pending' AND "attempts" > 0) AS "failing",
          (SELECT COUNT(*) FROM "giro_webhook_deliveries" WHERE "state" = 'dead') AS "dead",
          (SELECT MIN("created_at_ms") FROM "giro_webhook_deliveries" WHERE "state" = 'pending') AS "oldest"`,
      );
      return {
        pending: Number(row.pending),
        failing: Number(row.failing),
        dead: Number(row.dead),
        oldestPendingAt: row.oldest === null ? null : new Date(Number(row.oldest)),
      };
    });
  }

  /**
   * Deletes up to `limit` of the oldest events written before `beforeMs` that have no delivery pending, with
   * their deliveries and attempts (cascade); how many.
   */
  async pruneEvents(beforeMs: number, limit: number): Promise<number> {
    const { engine } = this.context;
    return this.context.transactions.write(async (manager) => {
      const deleted = await queryWithCount(
        manager,
        engine.sql(
          `DELETE FROM "giro_webhook_events" WHERE "seq" IN (SELECT ev."seq" FROM "giro_webhook_events" ev
            WHERE ev."created_at_ms" < ? AND NOT EXISTS (SELECT 1 FROM "giro_webhook_deliveries" d
              WHERE d."event_seq" = ev."seq" AND d."state" = 'pending')
            ORDER BY ev."seq" LIMIT ?)`,
        ),
        [beforeMs, limit],
      );
      return deleted.affected ?? 0;
    });
  }

  private dueAgain(): Partial<WebhookDeliveryEntity> {
    return {
      state: 'pending',
      attempts: 0,
      nextAttemptAtMs: this.context.nowMs(),
      leaseOwner: null,
      leaseExpiresAtMs: null,
    };
  }
}

function toClaimedDelivery(
  row: Record<string, unknown>,
  nowMs: number,
  open: (stored: string) => string,
): ClaimedDelivery {
  const previousExpiresAt = row.previous_secret_expires_at_ms === null ? 0 : Number(row.previous_secret_expires_at_ms);
  const secrets = [open(row.secret as string)];
  if (row.previous_secret !== null && previousExpiresAt > nowMs) secrets.push(open(row.previous_secret as string));
  return {
    id: Number(row.id),
    endpointId: row.endpoint_id as string,
    url: row.url as string,
    secrets,
    eventId: row.event_id as string,
    eventType: row.event_type as string,
    originId: row.origin_id === null ? null : Number(row.origin_id),
    payload: row.payload as string,
    attempts: Number(row.attempts),
    eventCreatedAt: new Date(Number(row.event_created_at_ms)),
    traceParent: (row.trace_parent as string | null) ?? null,
  };
}

const CURSOR = /^[1-9][0-9]{0,15}$/;

function parseCursor(value: unknown): number {
  if (typeof value !== 'string' || !CURSOR.test(value)) {
    throw new StoreArgumentError('before', 'cursor', 'must be the nextCursor of a previous page');
  }
  return Number(value);
}
