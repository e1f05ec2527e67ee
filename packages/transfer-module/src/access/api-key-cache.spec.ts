import type { ApiKeyCredential } from '../persistence';
import { ApiKeyCache } from './api-key-cache';

const CREDENTIAL: ApiKeyCredential = {
  keyId: '0123456789abcdef',
  name: 'ops',
  role: 'operator',
  keyHash: 'h',
  createdAt: new Date(0),
  revokedAt: null,
  createdBy: 'cli',
};

function setup(ttlMs = 500, maxEntries = 1000) {
  let now = 0;
  const reads: string[] = [];
  let answer: ApiKeyCredential | null = CREDENTIAL;
  const cache = new ApiKeyCache(
    async (keyId) => {
      reads.push(keyId);
      return answer;
    },
    ttlMs,
    maxEntries,
    () => now,
  );
  return {
    cache,
    reads,
    advance: (ms: number) => {
      now += ms;
    },
    answer: (next: ApiKeyCredential | null) => {
      answer = next;
    },
  };
}

describe('ApiKeyCache', () => {
  it('reads a key once within its time to live, and again after it', async () => {
    const t = setup(500);
    await t.cache.get('a');
    t.advance(499);
    await t.cache.get('a');
    expect(t.reads).toEqual(['a']);
    t.answer({ ...CREDENTIAL, revokedAt: new Date(1) });
    t.advance(1);
    expect((await t.cache.get('a'))?.revokedAt).toEqual(new Date(1));
    expect(t.reads).toEqual(['a', 'a']);
  });

  it('shares one read between concurrent lookups of one id', async () => {
    const t = setup();
    await Promise.all([t.cache.get('a'), t.cache.get('a'), t.cache.get('a')]);
    expect(t.reads).toEqual(['a']);
  });

  it('forgets a key at once when told (a revocation on this replica)', async () => {
    const t = setup();
    await t.cache.get('a');
    t.cache.forget('a');
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'a']);
  });

  it('keeps at most maxEntries ids, dropping the oldest reads', async () => {
    const t = setup(500, 2);
    await t.cache.get('a');
    await t.cache.get('b');
    await t.cache.get('c');
    await t.cache.get('b');
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('does not remember a failed read', async () => {
    let fail = true;
    const reads: string[] = [];
    const cache = new ApiKeyCache(async (keyId) => {
      reads.push(keyId);
      if (fail) throw new Error('database down');
      return null;
    });
    await expect(cache.get('a')).rejects.toThrow('database down');
    fail = false;
    await expect(cache.get('a')).resolves.toBeNull();
    expect(reads).toEqual(['a', 'a']);
  });
});
