import type { AuditCheckpoint } from '@giro/transfer-module';

export const AUDIT_USAGE = `usage: giro-reconciler audit verify [--checkpoint SEQ:HASH]...

  verify   walks the audit trail of DATABASE_URL's database (and ./.env) in order and says whether its hash chain
           is intact (exit 0) or where it breaks and why (exit 1). With AUDIT_HMAC_KEY (sandbox mode: the key it
           keeps), a row rewritten and re-hashed by anyone without the key is named.
  --checkpoint SEQ:HASH
           a row noted outside the database (the reconciler logs "audit checkpoint seq=SEQ hash=HASH" every minute
           and at shutdown): the trail must still hold it, with that hash — it fails when rows were deleted from
           the end, the trail truncated, or restored from an older copy. Repeatable.`;

/** The command line is malformed: the message says what, the usage follows. */
export class AuditUsageError extends Error {}

const CHECKPOINT = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/;

/** `verify` and its checkpoints, from the arguments after `audit`. */
export function parseAuditArgs(args: readonly string[]): { checkpoints: AuditCheckpoint[] } {
  const [command, ...rest] = args;
  if (command !== 'verify') throw new AuditUsageError('expected "verify"');
  const checkpoints: AuditCheckpoint[] = [];
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    const value = arg.startsWith('--checkpoint=')
      ? arg.slice('--checkpoint='.length)
      : arg === '--checkpoint'
        ? rest[++index]
        : undefined;
    if (value === undefined) throw new AuditUsageError(`unexpected ${JSON.stringify(arg)}`);
    const match = CHECKPOINT.exec(value);
    if (match === null || !Number.isSafeInteger(Number(match[1]))) {
      throw new AuditUsageError('--checkpoint must be SEQ:HASH, a row number and its 64 hex digits');
    }
    checkpoints.push({ seq: Number(match[1]), hash: match[2] as string });
  }
  return { checkpoints };
}
