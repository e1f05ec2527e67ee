import { SetMetadata } from '@nestjs/common';

/** Metadata key of the action an admin route is audited as. */
export const AUDITED_ACTION = 'giro:auditedAction';

/**
 * The action the audit trail records a mutating admin route as (`transfer.create`, `key.revoke`…): its rows, the
 * store's and the refusals', carry it. A mutating route without one is still audited, as `<METHOD> <route path>`.
 */
export function Audited(action: string): MethodDecorator {
  return SetMetadata(AUDITED_ACTION, action);
}
