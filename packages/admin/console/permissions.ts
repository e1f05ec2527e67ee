import type { Me, Role } from './api/types';
import type { MessageKey } from './i18n/messages-es';

/** What the console offers, and the role each needs (the admin API's `@RequiresRole` of the route it calls). */
const NEEDS = {
  create: 'operator',
  batch: 'operator',
  cancelScheduled: 'operator',
  refresh: 'operator',
  raw: 'operator',
  acknowledge: 'operator',
  resolve: 'operator',
  approve: 'approver',
  label: 'operator',
  block: 'approver',
  keys: 'admin',
  redeliver: 'admin',
  webhookEndpoints: 'admin',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof NEEDS;

/**
 * As the API decides (`roleAllows`): not a ladder — operators and approvers read, but neither does the other's
 * work (maker–checker); admin does all. The console only hides what would be refused: the API refuses it anyway.
 */
export function can(role: Role, action: Action): boolean {
  return role === 'admin' || role === NEEDS[action];
}

/** The role an action is made for (admin may do it too). */
export const roleNeeded = (action: Action): Role => NEEDS[action];

/**
 * Why the API refuses an action its role allows to the signed-in credential, whatever the transfer: the bootstrap
 * admin token mints keys, so it never approves (BOOTSTRAP_CANNOT_APPROVE). Undefined when nothing bars it. The
 * console shows such an action disabled, with this reason, so that an admin learns to use an approver key.
 */
export function barredBecause(me: Me, action: Action): MessageKey | undefined {
  return me.bootstrap && action === 'approve' ? 'approvals.bootstrapCannotApprove' : undefined;
}
