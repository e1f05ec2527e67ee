import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where sandbox mode keeps the audit key it generated, beside the sandbox's database. */
export const SANDBOX_AUDIT_KEY_FILE = 'data/audit-hmac.key';

/**
 * Sandbox mode's AUDIT_HMAC_KEY: the one kept in `data/audit-hmac.key`, made (readable by its owner only) at the
 * first start that needs it. Kept, not made anew at each start: the trail's rows written at an earlier start stay
 * verifiable by `giro-reconciler audit verify`, which reads the same file.
 */
export function sandboxAuditKey(file: string = resolve(SANDBOX_AUDIT_KEY_FILE)): { key: string; generated: boolean } {
  const kept = readSandboxAuditKey(file);
  if (kept !== undefined) return { key: kept, generated: false };
  const key = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  try {
    // `wx`: another process that made it meanwhile wins, and its key is the one used.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return { key: readSandboxAuditKey(file) as string, generated: false };
  }
  return { key, generated: true };
}

/** The audit key sandbox mode kept, if it made one. */
export function readSandboxAuditKey(file: string = resolve(SANDBOX_AUDIT_KEY_FILE)): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}
