import { createHash } from 'node:crypto';
import {
  API_KEY_PREFIX,
  apiKeyHash,
  apiKeyMatches,
  explainApiKeyName,
  generateApiKey,
  parseApiKey,
  redactApiKeys,
} from './api-key';

const SAMPLE = `giro_0123456789abcdef_${'ab'.repeat(32)}`;

describe('API keys', () => {
  describe('generateApiKey', () => {
    it('makes giro_<16 hex id>_<64 hex secret>: 256 random bits after a public id, and its sha-256', () => {
      const { keyId, key, hash } = generateApiKey();
      expect(key).toMatch(/^giro_[0-9a-f]{16}_[0-9a-f]{64}$/);
      expect(key.startsWith(`${API_KEY_PREFIX}${keyId}_`)).toBe(true);
      expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(parseApiKey(key)).toEqual({ keyId, key });
    });

    it('takes its id and secret from the random source, 8 and 32 bytes', () => {
      const sizes: number[] = [];
      const random = (size: number) => {
        sizes.push(size);
        return Buffer.alloc(size, size);
      };
      expect(generateApiKey(random).key).toBe(`giro_${'08'.repeat(8)}_${'20'.repeat(32)}`);
      expect(sizes).toEqual([8, 32]);
    });

    it('refuses a random source that returns fewer bytes than asked', () => {
      expect(() => generateApiKey((size) => Buffer.alloc(size - 1))).toThrow(/fewer bytes/);
    });

    it('never makes the same key twice in 10 000', () => {
      const keys = new Set(Array.from({ length: 10_000 }, () => generateApiKey().key));
      expect(keys.size).toBe(10_000);
    });
  });

  describe('parseApiKey', () => {
    it('reads the id of a well-formed key', () => {
      expect(parseApiKey(SAMPLE)).toEqual({ keyId: '0123456789abcdef', key: SAMPLE });
    });

    it.each([
      ['another prefix', SAMPLE.replace('giro_', 'giri_')],
      ['upper case', SAMPLE.toUpperCase()],
      ['a short secret', SAMPLE.slice(0, -1)],
      ['a long secret', `${SAMPLE}0`],
      ['a short id', `giro_0123456789abcde_${'ab'.repeat(32)}`],
      ['a non-hex secret', `${SAMPLE.slice(0, -1)}g`],
      ['surrounding space', ` ${SAMPLE}`],
      ['a line break after it', `${SAMPLE}\n`],
      ['the admin token style', 'test-admin-token-0123456789'],
      ['nothing', ''],
    ])('refuses %s', (_case, text) => {
      expect(parseApiKey(text)).toBeUndefined();
    });
  });

  describe('apiKeyMatches', () => {
    const stored = apiKeyHash(SAMPLE);

    it('accepts the key whose hash is stored, and nothing else', () => {
      expect(apiKeyMatches(SAMPLE, stored)).toBe(true);
      expect(apiKeyMatches(`${SAMPLE.slice(0, -1)}c`, stored)).toBe(false);
      expect(apiKeyMatches('', stored)).toBe(false);
    });

    it('does not throw on a corrupt stored hash, nor match it', () => {
      expect(apiKeyMatches(SAMPLE, 'abcd')).toBe(false);
      expect(apiKeyMatches(SAMPLE, '')).toBe(false);
    });

    it('compares in constant time: timingSafeEqual over two 32-byte digests, whatever was presented', () => {
      // The module object itself (an `import * as` namespace is a copy under the test transform).
      const compare = jest.spyOn(require('node:crypto') as typeof import('node:crypto'), 'timingSafeEqual');
      try {
        for (const presented of [SAMPLE, 'x', 'y'.repeat(10_000)]) apiKeyMatches(presented, stored);
        expect(compare).toHaveBeenCalledTimes(3);
        for (const [a, b] of compare.mock.calls as [Buffer, Buffer][]) {
          expect([a.length, b.length]).toEqual([32, 32]);
        }
      } finally {
        compare.mockRestore();
      }
    });
  });

  describe('redactApiKeys', () => {
    it('replaces the secret of every key in a text, keeping the public id', () => {
      const other = generateApiKey();
      const text = `Bearer ${SAMPLE} and ${other.key}.`;
      expect(redactApiKeys(text)).toBe(`Bearer giro_0123456789abcdef_[redacted] and giro_${other.keyId}_[redacted].`);
    });

    it('leaves text without a key as it is', () => {
      expect(redactApiKeys('no key here: giro_123_abc')).toBe('no key here: giro_123_abc');
    });
  });

  describe('explainApiKeyName', () => {
    it.each([
      'ops',
      'ci-bot',
      'alice.smith',
      'a',
      '0',
      'x'.repeat(64),
      'team_1',
      'Ana Gómez',
      'María José Núñez',
      "O'Higgins",
      'Ops',
      'ñ'.repeat(64),
    ])('accepts %j', (name) => {
      expect(explainApiKeyName(name)).toBeUndefined();
    });

    it.each([
      ['missing', undefined, /is required/],
      ['empty', '', /is required/],
      ['not text', 42, /is required/],
      ['a leading space', ' ops', /single spaces between words/],
      ['a trailing space', 'ops ', /single spaces between words/],
      ['two spaces', 'Ana  Gómez', /single spaces between words/],
      ['a tab', 'Ana\tGómez', /single spaces between words/],
      ['a leading dash', '-ops', /starting with a letter or digit/],
      ['a symbol', 'ops@home', /letters, digits/],
      ['decomposed accents', 'Ana Go\u0301mez', /letters, digits/],
      ['too long', 'x'.repeat(65), /1 to 64 characters/],
      ['too long in letters', 'ñ'.repeat(65), /1 to 64 characters/],
      ['the bootstrap token', 'admin-token', /reserved.*ADMIN_TOKEN/],
      ['the command line', 'cli', /reserved.*command line/],
      ["a key's id", '0123456789abcdef', /looks like an API key's id/],
      ['a key', 'giro_ops', /looks like an API key's id/],
    ])('refuses %s, naming the field and the rule', (_case, name, message) => {
      const violation = explainApiKeyName(name);
      expect(violation).toMatchObject({ field: 'name', rule: 'key_name' });
      expect(violation?.message).toMatch(message);
    });

    it('says why a name is taken: an actor that is not a key, or the shape of a key id', () => {
      expect(explainApiKeyName('cli')?.params).toEqual({ reason: 'reserved', name: 'cli' });
      expect(explainApiKeyName('0123456789abcdef')?.params).toEqual({ reason: 'key_id', name: '0123456789abcdef' });
      expect(explainApiKeyName('0123456789abcde')).toBeUndefined();
      expect(explainApiKeyName('cli-bot')).toBeUndefined();
    });
  });
});
