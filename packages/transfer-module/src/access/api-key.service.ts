import type { DataSource } from 'typeorm';
import {
  type Actor,
  apiKeyMatches,
  type Clock,
  explainApiKeyName,
  generateApiKey,
  isRole,
  parseApiKey,
  ROLES,
  type Role,
  systemClock,
  typeProblem,
  type Violation,
} from '../domain';
import { type ApiKeyRecord, ApiKeyStore, type AuditTrail } from '../persistence';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyValidationError } from './api-key-validation.error';

/** A stored key as the admin API and the CLI show it: never its secret, nor its hash. */
export interface ApiKeyView {
  keyId: string;
  name: string;
  role: Role;
  /** False once revoked. */
  active: boolean;
  createdAt: string;
  revokedAt: string | null;
  /** The key id of the credential that minted it (`admin-token`, `cli`, another key's); null when unknown. */
  createdBy: string | null;
}

/** A key just created: the view, and the key itself — shown this once, never stored, never shown again. */
export interface CreatedApiKey extends ApiKeyView {
  key: string;
}

export interface ApiKeyServiceOptions {
  clock?: Clock;
  /** How long a key read from the database is trusted (default API_KEY_CACHE_MS, 500 ms); 0 reads every time. */
  cacheMs?: number;
  /** The audit trail a creation or revocation made inside an audit scope appends to (none: not audited). */
  audit?: AuditTrail;
}

const REQUEST_FIELDS = ['name', 'role'];

/**
 * The admin API's keys: created (`giro_<keyId>_<secret>`, only its sha-256 stored), listed, revoked, and checked
 * when a request presents one. Works on giro's data source, in the module (injectable) or on its own — the
 * `giro-reconciler keys` command builds one on DATABASE_URL.
 *
 * A key revoked on any replica is refused by this one at most `cacheMs` later (every replica reads the same
 * table), without a restart.
 */
export class ApiKeyService {
  private readonly store: ApiKeyStore;
  private readonly cache: ApiKeyCache;

  constructor(dataSource: DataSource, options: ApiKeyServiceOptions = {}) {
    this.store = new ApiKeyStore(dataSource, options.clock ?? systemClock, options.audit);
    this.cache = new ApiKeyCache((keyId) => this.store.findCredential(keyId), options.cacheMs);
  }

  /**
   * Creates a key from `{ name, role }`, minted by the credential whose key id is `createdBy` (the caller's key,
   * `admin-token`, `cli`): the approval rule tells people apart by it, so a host names it whenever it knows.
   * ApiKeyValidationError names each bad field (nothing stored); ApiKeyNameTakenError when the name is used, by a
   * revoked key too.
   */
  async createKey(input: unknown, createdBy: string | null = null): Promise<CreatedApiKey> {
    const { name, role } = readKeyRequest(input);
    const { keyId, key, hash } = generateApiKey();
    const record = await this.store.create({ keyId, name, role, keyHash: hash, createdBy });
    this.cache.forget(keyId);
    return { ...toApiKeyView(record), key };
  }

  /** Every key, revoked ones included, oldest first. */
  async listKeys(): Promise<ApiKeyView[]> {
    return (await this.store.list()).map(toApiKeyView);
  }

  /** Revokes the key named `name` (idempotent). ApiKeyNotFoundError when no key has this name. */
  async revokeKey(name: string): Promise<ApiKeyView> {
    const problem = explainApiKeyName(name);
    if (problem !== undefined) throw new ApiKeyValidationError([problem]);
    const record = await this.store.revoke(name);
    this.cache.forget(record.keyId);
    return toApiKeyView(record);
  }

  /**
   * The actor of a presented key: a stored, unrevoked key whose hash matches (compared in constant time), or
   * undefined. Text without a key's shape is refused without reading the database.
   */
  async authenticate(presented: string): Promise<Actor | undefined> {
    const parsed = parseApiKey(presented);
    if (parsed === undefined) return undefined;
    const credential = await this.cache.get(parsed.keyId);
    if (credential === null || !apiKeyMatches(parsed.key, credential.keyHash) || credential.revokedAt !== null) {
      return undefined;
    }
    return { keyId: credential.keyId, name: credential.name, role: credential.role };
  }
}

function readKeyRequest(input: unknown): { name: string; role: Role } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ApiKeyValidationError([
      { field: '', rule: 'type', ...typeProblem('object', input), message: 'must be an object { name, role }' },
    ]);
  }
  const fields = input as Record<string, unknown>;
  const violations: Violation[] = Object.keys(fields)
    .filter((key) => !REQUEST_FIELDS.includes(key))
    .map((key) => ({
      field: key,
      rule: 'unknown_field',
      params: { allowed: REQUEST_FIELDS },
      message: `is not a field (known: ${REQUEST_FIELDS.join(', ')})`,
    }));
  const name = explainApiKeyName(fields.name);
  if (name !== undefined) violations.push(name);
  if (!isRole(fields.role)) {
    violations.push({
      field: 'role',
      rule: 'role',
      params: { allowed: ROLES },
      message: `must be one of ${ROLES.join(', ')}`,
    });
  }
  if (violations.length > 0) throw new ApiKeyValidationError(violations);
  return { name: fields.name as string, role: fields.role as Role };
}

export function toApiKeyView(record: ApiKeyRecord): ApiKeyView {
  return {
    keyId: record.keyId,
    name: record.name,
    role: record.role,
    active: record.revokedAt === null,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt === null ? null : record.revokedAt.toISOString(),
    createdBy: record.createdBy,
  };
}
