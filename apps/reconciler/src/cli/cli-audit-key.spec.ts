import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditKeyError, auditKeyOfCommand } from './cli-audit-key';

// The commands' audit key: AUDIT_HMAC_KEY as the reconciler reads it; sandbox mode's kept key without one (made by
// a command that appends, only read by verify); required with a bank by a command that appends.

describe('auditKeyOfCommand', () => {
  let dir: string;
  let cwd: string;

  beforeEach(() => {
    cwd = process.cwd();
    dir = mkdtempSync(join(tmpdir(), 'giro-audit-key-'));
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  const KEY = 'a-key-of-at-least-thirty-two-characters';

  it('takes AUDIT_HMAC_KEY, checked as the reconciler checks it', () => {
    expect(
      auditKeyOfCommand({ AUDIT_HMAC_KEY: KEY, BANK_BASE_URL: 'https://bank' }, { required: true, create: true }),
    ).toBe(KEY);
    expect(() => auditKeyOfCommand({ AUDIT_HMAC_KEY: 'short' }, { required: false, create: false })).toThrow(
      new AuditKeyError('AUDIT_HMAC_KEY must be at least 32 characters long'),
    );
  });

  it('in sandbox mode, makes the kept key for a command that appends, and only reads it for verify', () => {
    expect(auditKeyOfCommand({}, { required: false, create: false })).toBeUndefined();
    const made = auditKeyOfCommand({}, { required: true, create: true });
    expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(dir, 'data', 'audit-hmac.key')).mode & 0o777).toBe(0o600);
    expect(auditKeyOfCommand({}, { required: false, create: false })).toBe(made);
    expect(auditKeyOfCommand({}, { required: true, create: true })).toBe(made);
  });

  it('with a bank and no AUDIT_HMAC_KEY: refused for a command that appends, nothing for verify', () => {
    const bank = { BANK_BASE_URL: 'https://bank.example.com' };
    expect(() => auditKeyOfCommand(bank, { required: true, create: true })).toThrow(
      'AUDIT_HMAC_KEY is required when BANK_BASE_URL is set',
    );
    expect(auditKeyOfCommand(bank, { required: false, create: false })).toBeUndefined();
  });
});
