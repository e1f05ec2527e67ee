import { encryptionKeyFrom, newEncryptionKey, SecretCipher, SecretUnreadableError } from './secret-cipher';

describe('SecretCipher', () => {
  const key = () => encryptionKeyFrom(newEncryptionKey()) as NonNullable<ReturnType<typeof encryptionKeyFrom>>;
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('seals a value tagged with its key id, a fresh IV each time, and opens it again', () => {
    const current = key();
    const cipher = new SecretCipher(current);
    const first = cipher.seal(secret);
    const second = cipher.seal(secret);
    expect(first).toMatch(new RegExp(`^v1:${current.id}:[\\w-]{16}:[\\w-]{22}:[\\w-]+$`));
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret.slice(6));
    expect(cipher.open(first)).toBe(secret);
    expect(cipher.isCurrent(first)).toBe(true);
  });

  it('reads a value stored in clear as it is, and counts it as not sealed yet', () => {
    const cipher = new SecretCipher(key());
    expect(cipher.open(secret)).toBe(secret);
    expect(cipher.isCurrent(secret)).toBe(false);
  });

  it('opens with a previous key, and names the key id it lacks', () => {
    const old = key();
    const sealedBefore = new SecretCipher(old).seal(secret);
    const rotated = new SecretCipher(key(), [old]);
    expect(rotated.open(sealedBefore)).toBe(secret);
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    const withoutOld = new SecretCipher(key());
    expect(() => withoutOld.open(sealedBefore)).toThrow(SecretUnreadableError);
    expect(() => withoutOld.open(sealedBefore)).toThrow(`key ${old.id}`);
  });

  it('refuses a value that was altered', () => {
    const cipher = new SecretCipher(key());
    const parts = cipher.seal(secret).split(':');
    parts[4] = `A${parts[4].slice(1)}` === parts[4] ? `B${parts[4].slice(1)}` : `A${parts[4].slice(1)}`;
    expect(() => cipher.open(parts.join(':'))).toThrow('does not authenticate');
  });

  it('takes only base64 of exactly 32 bytes as a key, and gives the same id to the same key', () => {
    expect(encryptionKeyFrom(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(encryptionKeyFrom('not base64 at all!')).toBeUndefined();
    const text = newEncryptionKey();
    expect(encryptionKeyFrom(text)?.id).toBe(encryptionKeyFrom(text)?.id);
    expect(encryptionKeyFrom(text)?.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('stores in clear without a key', () => {
    const clear = new SecretCipher(undefined);
    expect(clear.seal(secret)).toBe(secret);
    expect(clear.isCurrent(secret)).toBe(true);
  });
});
