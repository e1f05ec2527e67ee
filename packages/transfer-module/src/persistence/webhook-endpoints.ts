import type { EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from './entities';
import { WebhookEndpointNotFoundError } from './persistence.errors';
import type { SecretCipher } from './secret-cipher';
import type { StoreContext } from './store-context';
import { eventTypesColumn, toEndpointRecord, type WebhookEndpointRecord } from './webhook-records';

export interface WebhookEndpointRegistration {
  id: string;
  url: string;
  description: string | null;
  /** Empty: every type. */
  eventTypes: string[];
  secret: string;
}

export interface WebhookEndpointChanges {
  url?: string;
  description?: string | null;
  eventTypes?: string[];
  /** False disables it (by an operator); true enables it again, whoever disabled it. */
  enabled?: boolean;
}

/**
 * WebhookStore's endpoints. The callers check the values (a safe URL, known event types, a secret of the
 * right form): the registry keeps them. Query builders, not `save`, which would open a transaction of its own.
 */
export class WebhookEndpoints {
  /** `cipher`: seals the secrets before they are written and opens them as they are read. */
  constructor(
    private readonly context: StoreContext,
    private readonly cipher: SecretCipher,
  ) {}

  async create(registration: WebhookEndpointRegistration): Promise<WebhookEndpointRecord> {
    const now = this.context.nowMs();
    const row: WebhookEndpointEntity = {
      id: registration.id,
      url: registration.url,
      description: registration.description,
      eventTypes: eventTypesColumn(registration.eventTypes),
      secret: this.cipher.seal(registration.secret),
      previousSecret: null,
      previousSecretExpiresAtMs: null,
      disabledAtMs: null,
      disabledReason: null,
      createdAtMs: now,
      updatedAtMs: now,
    };
    await this.context.transactions.write(async (manager) => {
      await manager.createQueryBuilder().insert().into(WebhookEndpointEntity).values(row).execute();
      await this.context.audit?.recordChange(manager, { target: row.id, before: null, after: auditedEndpoint(row) });
    });
    return this.record(row);
  }

  /**
   * Creates the endpoint, or replaces its URL, types and secret when it exists (enabled again): the one
   * endpoint a deployment configures in its environment, the same at every start.
   */
  async upsert(registration: WebhookEndpointRegistration): Promise<WebhookEndpointRecord> {
    const existing = await this.find(registration.id);
    if (existing === null) return this.create(registration);
    return this.write(registration.id, (row) => {
      row.url = registration.url;
      row.description = registration.description;
      row.eventTypes = eventTypesColumn(registration.eventTypes);
      if (this.cipher.open(row.secret) !== registration.secret) {
        row.secret = this.cipher.seal(registration.secret);
        row.previousSecret = null;
        row.previousSecretExpiresAtMs = null;
      }
      row.disabledAtMs = null;
      row.disabledReason = null;
    });
  }

  list(): Promise<WebhookEndpointRecord[]> {
    return this.context.transactions.read(async (manager) =>
      (await manager.find(WebhookEndpointEntity, { order: { createdAtMs: 'ASC', id: 'ASC' } })).map((row) =>
        this.record(row),
      ),
    );
  }

  find(id: string): Promise<WebhookEndpointRecord | null> {
    return this.context.transactions.read(async (manager) => {
      const row = await manager.findOneBy(WebhookEndpointEntity, { id });
      return row === null ? null : this.record(row);
    });
  }

  update(id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointRecord> {
    const now = this.context.nowMs();
    return this.write(id, (row) => {
      if (changes.url !== undefined) row.url = changes.url;
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.eventTypes !== undefined) row.eventTypes = eventTypesColumn(changes.eventTypes);
      if (changes.enabled === true) {
        row.disabledAtMs = null;
        row.disabledReason = null;
      } else if (changes.enabled === false && row.disabledAtMs === null) {
        row.disabledAtMs = now;
        row.disabledReason = 'disabled by an operator';
      }
    });
  }

  /** A new secret signs from now on; the current one keeps signing beside it until `previousExpiresAt`. */
  rotateSecret(id: string, secret: string, previousExpiresAt: Date): Promise<WebhookEndpointRecord> {
    return this.write(id, (row) => {
      row.previousSecret = row.secret;
      row.previousSecretExpiresAtMs = previousExpiresAt.getTime();
      row.secret = this.cipher.seal(secret);
    });
  }

  /** Disabled by the receiver (410 Gone) or by a rule; the first reason stays. */
  disable(id: string, reason: string): Promise<WebhookEndpointRecord> {
    const now = this.context.nowMs();
    return this.write(id, (row) => {
      if (row.disabledAtMs !== null) return;
      row.disabledAtMs = now;
      row.disabledReason = reason;
    });
  }

  /** Deletes the endpoint with its deliveries and their attempts. WebhookEndpointNotFoundError. */
  async delete(id: string): Promise<void> {
    await this.context.transactions.write(async (manager) => {
      const row = await this.get(manager, id);
      await manager.createQueryBuilder().delete().from(WebhookEndpointEntity).where('"id" = :id', { id }).execute();
      await this.context.audit?.recordChange(manager, { target: id, before: auditedEndpoint(row), after: null });
    });
  }

  private write(id: string, change: (row: WebhookEndpointEntity) => void): Promise<WebhookEndpointRecord> {
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const row = await this.get(manager, id, { lock: true });
      const before = auditedEndpoint(row);
      change(row);
      row.updatedAtMs = now;
      const { id: _id, createdAtMs: _created, ...values } = row;
      await manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set(values)
        .where('"id" = :id', { id })
        .execute();
      await this.context.audit?.recordChange(manager, { target: id, before, after: auditedEndpoint(row) });
      return this.record(row);
    });
  }

  /**
   * Seals with the current key every secret that is not sealed with it yet: those stored in clear (before a key
   * was configured), and, in a rotation, those sealed with a previous key. Each row is rewritten only if it still
   * holds what was read, so replicas doing it at once do not undo each other. The number of rows rewritten.
   */
  async sealStoredSecrets(): Promise<number> {
    const sealed = await this.context.transactions.write(async (manager) => {
      const rows = await manager.find(WebhookEndpointEntity);
      let sealed = 0;
      for (const row of rows) {
        const stale = (value: string | null): value is string => value !== null && !this.cipher.isCurrent(value);
        if (!stale(row.secret) && !stale(row.previousSecret)) continue;
        const reseal = (value: string | null) => (value === null ? null : this.cipher.seal(this.cipher.open(value)));
        await manager
          .createQueryBuilder()
          .update(WebhookEndpointEntity)
          .set({ secret: reseal(row.secret) as string, previousSecret: reseal(row.previousSecret) })
          .where('"id" = :id AND "secret" = :secret', { id: row.id, secret: row.secret })
          .execute();
        sealed += 1;
      }
      return sealed;
    });
    if (sealed > 0) await this.context.engine.forgetRewrittenValues();
    return sealed;
  }

  /** The row as callers see it: its secrets opened. */
  private record(row: WebhookEndpointEntity): WebhookEndpointRecord {
    return {
      ...toEndpointRecord(row),
      secret: this.cipher.open(row.secret),
      previousSecret: row.previousSecret === null ? null : this.cipher.open(row.previousSecret),
    };
  }

  private async get(
    manager: EntityManager,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<WebhookEndpointEntity> {
    let query = manager.createQueryBuilder(WebhookEndpointEntity, 'e').where('e.id = :id', { id });
    if (options.lock) query = this.context.engine.lockRows(query);
    const row = await query.getOne();
    if (row === null) throw new WebhookEndpointNotFoundError(id);
    return row;
  }
}

/**
 * An endpoint as the audit trail records it: never a secret (only when the previous one stops signing), and its
 * URL without credentials or query (a receiver may take a token there).
 */
function auditedEndpoint(row: WebhookEndpointEntity) {
  return {
    url: withoutCredentials(row.url),
    description: row.description,
    eventTypes: row.eventTypes,
    previousSecretExpiresAt: row.previousSecretExpiresAtMs === null ? null : new Date(row.previousSecretExpiresAtMs),
    disabledAt: row.disabledAtMs === null ? null : new Date(row.disabledAtMs),
    disabledReason: row.disabledReason,
  };
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
