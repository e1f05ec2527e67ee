import { type ApprovalOptions, ApprovalPolicy } from '@giro/transfer-module';
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
  const threshold = vars.APPROVAL_REQUIRED_ABOVE;
  const expiry = vars.APPROVAL_EXPIRES_AFTER;
  if (threshold === undefined) {
    if (expiry !== undefined) problems.push('APPROVAL_EXPIRES_AFTER is set but APPROVAL_REQUIRED_ABOVE is not');
    return undefined;
  }
  const options: ApprovalOptions = {
    requiredAbove: threshold,
    ...(expiry !== undefined && { expiresAfterMs: expiry }),
  };
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
