import type { DataSource, EntityManager } from 'typeorm';
import type { Clock, Role } from '../domain';
import { ApiKeyNameTakenError, ApiKeyNotFoundError } from './api-key.errors';
import type { AuditTrail } from './audit-trail';
import { transactionsFor } from './engine/engine-adapter';
import type { Transactions } from './engine/transactions';
import { ApiKeyEntity } from './entities';

/** A stored API key, as the store returns it: never its hash outside `findCredential`. */
export interface ApiKeyRecord {
  keyId: string;
  name: string;
  role: Role;
  createdAt: Date;
  /** When it was revoked; null while it is accepted. */
  revokedAt: Date | null;
  /** The key id of the credential that minted it (`admin-token`, `cli`, another key's); null when unknown. */
  createdBy: string | null;
}

/** What authenticating a presented key needs: the record and the stored hash. */
export interface ApiKeyCredential extends ApiKeyRecord {
  keyHash: string;
}

export interface NewApiKey {
  keyId: string;
  name: string;
  role: Role;
  keyHash: string;
  createdBy: string | null;
}

/**
 * The admin API's keys in giro's database (`giro_api_keys`): created, listed, found by id, revoked. The caller
 * (ApiKeyService) checks names and roles and makes the key: the store keeps its hash. One transaction per method;
 * inside an audit scope, a creation or revocation appends its audit row in it (never the key nor its hash).
 */
export class ApiKeyStore {
  private readonly transactions: Transactions;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    private readonly audit?: AuditTrail,
  ) {
    this.transactions = transactionsFor(dataSource);
  }

  /** Stores a new key. ApiKeyNameTakenError when the name is used, by a revoked key too. */
  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    const { createdBy, ...identity } = key;
    const row: ApiKeyEntity = {
      ...identity,
      createdAtMs: this.clock.now().getTime(),
      revokedAtMs: null,
      createdByKeyId: createdBy,
    };
    try {
      await this.transactions.write(async (manager) => {
        if (await findByName(manager, key.name)) throw new ApiKeyNameTakenError(key.name);
        // A query builder, not `save`, which opens a transaction of its own inside giro's.
        await manager.createQueryBuilder().insert().into(ApiKeyEntity).values(row).execute();
        await this.audit?.recordChange(manager, { target: key.name, before: null, after: toRecord(row) });
      });
    } catch (error) {
      // Two replicas creating the same name at once: the first check passed in both, the unique constraint did not.
      if (isUniqueViolation(error)) throw new ApiKeyNameTakenError(key.name);
      throw error;
    }
    return toRecord(row);
  }

  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]> {
    return this.transactions.read(async (manager) =>
      (await manager.find(ApiKeyEntity, { order: { createdAtMs: 'ASC', name: 'ASC' } })).map(toRecord),
    );
  }

  /** The key with this public id and its hash, revoked or not; null when none. */
  findCredential(keyId: string): Promise<ApiKeyCredential | null> {
    return this.transactions.read(async (manager) => {
      const row = await manager.findOneBy(ApiKeyEntity, { keyId });
      return row === null ? null : { ...toRecord(row), keyHash: row.keyHash };
    });
  }

  /** Revokes the key named `name`. Idempotent: the first revocation's time stays. ApiKeyNotFoundError. */
  revoke(name: string): Promise<ApiKeyRecord> {
    const now = this.clock.now().getTime();
    return this.transactions.write(async (manager) => {
      const row = await findByName(manager, name);
      if (row === null) throw new ApiKeyNotFoundError(name);
      if (row.revokedAtMs === null) {
        row.revokedAtMs = now;
        await manager
          .createQueryBuilder()
          .update(ApiKeyEntity)
          .set({ revokedAtMs: now })
          .where('"key_id" = :keyId AND "revoked_at_ms" IS NULL', { keyId: row.keyId })
          .execute();
        await this.audit?.recordChange(manager, {
          target: name,
          before: { revokedAt: null },
          after: { revokedAt: new Date(now) },
        });
      }
      return toRecord(row);
    });
  }
}

function findByName(manager: EntityManager, name: string): Promise<ApiKeyEntity | null> {
  return manager.findOneBy(ApiKeyEntity, { name });
}

/** Postgres `unique_violation`, or SQLite's UNIQUE constraint failure. */
function isUniqueViolation(error: unknown): boolean {
  const { code, driverError } = error as { code?: string; driverError?: { code?: string } };
  const codes = [code, driverError?.code];
  return codes.includes('23505') || codes.includes('SQLITE_CONSTRAINT_UNIQUE');
}

function toRecord(row: ApiKeyEntity): ApiKeyRecord {
  return {
    keyId: row.keyId,
    name: row.name,
    role: row.role,
    createdAt: new Date(row.createdAtMs),
    revokedAt: row.revokedAtMs === null ? null : new Date(row.revokedAtMs),
    createdBy: row.createdByKeyId,
  };
}
