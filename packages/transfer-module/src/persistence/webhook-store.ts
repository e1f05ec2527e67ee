import type { DataSource } from 'typeorm';
import type { Clock } from '../domain';
import type { AuditTrail } from './audit-trail';
import type { OutboxEvent } from './outbox';
import { CLEAR_SECRETS, type SecretCipher } from './secret-cipher';
import { StoreContext } from './store-context';
import {
  type DeliveryResult,
  type ListDeliveriesOptions,
  WebhookDeliveries,
  type WebhookDeliveryCounts,
} from './webhook-deliveries';
import { type WebhookEndpointChanges, type WebhookEndpointRegistration, WebhookEndpoints } from './webhook-endpoints';
import type {
  ClaimedDelivery,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from './webhook-records';

/**
 * What a running dispatcher claims and records through (WebhookStore.openDeliveryLane): on Postgres a connection
 * of its own, which also hears of events other processes commit; on SQLite the store's own transactions.
 */
export interface WebhookDeliveryLane {
  claimDueDeliveries(options: { owner: string; limit: number; leaseMs: number }): Promise<ClaimedDelivery[]>;
  recordDeliveryResults(owner: string, results: readonly DeliveryResult[]): Promise<number[]>;
  /** Ends the lane's connection (the dispatcher stopped). */
  close(): Promise<void>;
}

/**
 * Everything persisted about webhooks besides the outbox's own writes (outbox.ts, in the movements'
 * transactions): endpoints, and the deliveries dispatchers lease, send and record. Every method is one
 * transaction, on the same data source and transactions as MovementStore.
 */
export class WebhookStore {
  private readonly endpoints: WebhookEndpoints;
  private readonly deliveries: WebhookDeliveries;
  private readonly context: StoreContext;

  private readonly onEventsCommitted: (() => void) | undefined;

  /**
   * `onEventsCommitted`: called once a test event is committed (to wake a dispatcher in this process); `audit`: the
   * trail the endpoints' changes append to inside an audit scope (none: not audited); `cipher`: how the endpoints'
   * secrets are stored (none: in clear).
   */
  constructor(
    dataSource: DataSource,
    clock: Clock,
    options: { onEventsCommitted?: () => void; audit?: AuditTrail; cipher?: SecretCipher } = {},
  ) {
    const context = new StoreContext(dataSource, clock, undefined, options.audit);
    this.context = context;
    const cipher = options.cipher ?? CLEAR_SECRETS;
    this.onEventsCommitted = options.onEventsCommitted;
    this.endpoints = new WebhookEndpoints(context, cipher);
    this.deliveries = new WebhookDeliveries(context, cipher);
  }

  // Endpoints (webhook-endpoints.ts)

  createEndpoint(registration: WebhookEndpointRegistration): Promise<WebhookEndpointRecord> {
    return this.endpoints.create(registration);
  }

  upsertEndpoint(registration: WebhookEndpointRegistration): Promise<WebhookEndpointRecord> {
    return this.endpoints.upsert(registration);
  }

  listEndpoints(): Promise<WebhookEndpointRecord[]> {
    return this.endpoints.list();
  }

  findEndpoint(id: string): Promise<WebhookEndpointRecord | null> {
    return this.endpoints.find(id);
  }

  updateEndpoint(id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointRecord> {
    return this.endpoints.update(id, changes);
  }

  rotateEndpointSecret(id: string, secret: string, previousExpiresAt: Date): Promise<WebhookEndpointRecord> {
    return this.endpoints.rotateSecret(id, secret, previousExpiresAt);
  }

  /** Seals every endpoint secret not sealed with the current key yet (see WebhookEndpoints); the rows rewritten. */
  sealStoredSecrets(): Promise<number> {
    return this.endpoints.sealStoredSecrets();
  }

  disableEndpoint(id: string, reason: string): Promise<WebhookEndpointRecord> {
    return this.endpoints.disable(id, reason);
  }

  deleteEndpoint(id: string): Promise<void> {
    return this.endpoints.delete(id);
  }

  // Deliveries (webhook-deliveries.ts)

  claimDueDeliveries(options: { owner: string; limit: number; leaseMs: number }): Promise<ClaimedDelivery[]> {
    return this.deliveries.claimDue(options);
  }

  recordDeliveryResults(owner: string, results: readonly DeliveryResult[]): Promise<number[]> {
    return this.deliveries.recordResults(owner, results);
  }

  /**
   * The lane a running dispatcher claims and records through; `onNews`: called when another process announces
   * events committed (Postgres), and after the lane's connection is (re)opened. close() it when stopping.
   */
  openDeliveryLane(onNews: () => void): WebhookDeliveryLane {
    const connection = this.context.engine.openDeliveryConnection(onNews);
    return {
      claimDueDeliveries: (options) => this.deliveries.claimDue(options, connection),
      recordDeliveryResults: (owner, results) => this.deliveries.recordResults(owner, results, connection),
      close: async () => {
        await connection?.close();
      },
    };
  }

  releaseDeliveryLeases(owner: string): Promise<number> {
    return this.deliveries.releaseLeases(owner);
  }

  listDeliveries(
    options: ListDeliveriesOptions,
  ): Promise<{ items: WebhookDeliveryRecord[]; nextCursor: string | null }> {
    return this.deliveries.list(options);
  }

  getDelivery(deliveryId: number): Promise<WebhookDeliveryRecord & { payload: string }> {
    return this.deliveries.get(deliveryId);
  }

  listAttempts(deliveryId: number): Promise<WebhookAttemptRecord[]> {
    return this.deliveries.attempts(deliveryId);
  }

  redeliver(deliveryId: number): Promise<void> {
    return this.deliveries.redeliver(deliveryId);
  }

  redeliverDead(endpointId: string): Promise<number> {
    return this.deliveries.redeliverDead(endpointId);
  }

  async addTestEvent(endpointId: string, event: OutboxEvent): Promise<WebhookDeliveryRecord> {
    const delivery = await this.deliveries.addTestEvent(endpointId, event);
    this.onEventsCommitted?.();
    this.context.engine.announceEventsCommitted();
    return delivery;
  }

  pruneEvents(beforeMs: number, limit: number): Promise<number> {
    return this.deliveries.pruneEvents(beforeMs, limit);
  }

  countDeliveries(): Promise<WebhookDeliveryCounts> {
    return this.deliveries.counts();
  }
}
