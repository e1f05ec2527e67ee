import type { ApiKeyCredential } from '../persistence';

/** How long a key read from the database is trusted: revocation must reach every replica within a second. */
export const API_KEY_CACHE_MS = 500;
/** Entries kept at most: ids are chosen by whoever sends a request, so the map must not grow with them. */
export const API_KEY_CACHE_ENTRIES = 1000;

interface Entry {
  readAt: number;
  lookup: Promise<ApiKeyCredential | null>;
}

/**
 * The stored keys by id, each trusted for `ttlMs` after it was read (absent ones too), so that a burst of requests
 * with one key reads the database once, and a key revoked through another replica is refused here at most `ttlMs`
 * later. Times are the process's monotonic clock, not giro's injectable Clock: a test's manual clock must not hold
 * a revoked key in the cache. Concurrent lookups of one id share one read.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly read: (keyId: string) => Promise<ApiKeyCredential | null>,
    private readonly ttlMs = API_KEY_CACHE_MS,
    private readonly maxEntries = API_KEY_CACHE_ENTRIES,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  get(keyId: string): Promise<ApiKeyCredential | null> {
    const now = this.monotonicMs();
    const cached = this.entries.get(keyId);
    if (cached !== undefined && now - cached.readAt < this.ttlMs) return cached.lookup;
    this.entries.delete(keyId);
    const lookup = this.read(keyId);
    // A failed read (the database down) is not remembered: the next request asks again.
    lookup.catch(() => {
      if (this.entries.get(keyId)?.lookup === lookup) this.entries.delete(keyId);
    });
    this.entries.set(keyId, { readAt: now, lookup });
    // Map keeps insertion order: the first entries are the oldest reads.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return lookup;
  }

  /** Forgets one key (revoked or created here): this process sees the change at once. */
  forget(keyId: string): void {
    this.entries.delete(keyId);
  }
}
