import { type ApprovalOptions, ApprovalPolicy } from '@giro/transfer-module';
import { parseDuration } from './durations';
import type { ReconcilerEnvironment } from './environment';

// Maker–checker from the environment: APPROVAL_REQUIRED_ABOVE (an amount; 0: every transfer) turns approvals on,
// APPROVAL_EXPIRES_AFTER (a duration, default 24h) is how long a transfer waits for one. Each value is checked by
// the module's own rules (ApprovalPolicy), and each problem names its variable.

const VARIABLE_OF: Record<string, string> = {
  requiredAbove: 'APPROVAL_REQUIRED_ABOVE',
  expiresAfterMs: 'APPROVAL_EXPIRES_AFTER',
};

/** The module's `approvals` option; undefined when APPROVAL_REQUIRED_ABOVE is not set. Problems go to `problems`. */
export function approvalsFromEnvironment(vars: ReconcilerEnvironment, problems: string[]): ApprovalOptions | undefined {
  const threshold = vars.APPROVAL_REQUIRED_ABOVE?.trim();
  const expiry = vars.APPROVAL_EXPIRES_AFTER?.trim();
  if (threshold === undefined) {
    if (expiry !== undefined) problems.push('APPROVAL_EXPIRES_AFTER is set but APPROVAL_REQUIRED_ABOVE is not');
    return undefined;
  }
  const options: ApprovalOptions = { requiredAbove: threshold };
  if (expiry !== undefined) {
    const ms = parseDuration(expiry);
    if (ms === undefined) {
      problems.push('APPROVAL_EXPIRES_AFTER must be a duration like 30m, 24h or 2d');
      return undefined;
    }
    options.expiresAfterMs = ms;
  }
  try {
    ApprovalPolicy.from(options);
  } catch (error) {
    // "requiredAbove must be an amount ≥ 0 …" → "APPROVAL_REQUIRED_ABOVE must be an amount ≥ 0 …"
    const message = (error as Error).message;
    const [field] = message.split(' ');
    problems.push(`${VARIABLE_OF[field] ?? field}${message.slice(field.length)}`);
    return undefined;
  }
  return options;
}
