import { readEnvironment } from '../config/environment';
import { readSandboxAuditKey, sandboxAuditKey } from '../sandbox/sandbox-audit-key';

/** The environment gives no usable audit key where one is needed; the message names the variable. */
export class AuditKeyError extends Error {}

/**
 * The audit key of a command that appends to the trail or verifies it: AUDIT_HMAC_KEY (checked as the reconciler
 * checks it), or in sandbox mode (BANK_BASE_URL unset) the one the sandbox keeps — made now when `create` says so.
 * With a bank and no AUDIT_HMAC_KEY: undefined, or AuditKeyError when `required`.
 */
export function auditKeyOfCommand(
  env: Record<string, string | undefined>,
  { required, create }: { required: boolean; create: boolean },
): string | undefined {
  const text = env.AUDIT_HMAC_KEY;
  if (text !== undefined && text !== '') {
    const read = readEnvironment({ AUDIT_HMAC_KEY: text });
    if (!read.ok) throw new AuditKeyError(read.problems.join('; '));
    return text;
  }
  if (env.BANK_BASE_URL === undefined || env.BANK_BASE_URL === '')
    return create ? sandboxAuditKey().key : readSandboxAuditKey();
  if (required) throw new AuditKeyError('AUDIT_HMAC_KEY is required when BANK_BASE_URL is set');
  return undefined;
}
