import { SetMetadata } from '@nestjs/common';

/** Metadata key of the action an admin route is audited as. */
export const AUDITED_ACTION = 'giro:auditedAction';

/**
 * The action the audit trail records an admin route as (`transfer.create`, `key.revoke`…): its rows, the store's
 * and the refusals', carry it. A mutating route without one is still audited, as `<METHOD> <route path>`; a read
 * with one (it asks the bank, or exports) is audited like a mutating route, its success included.
 */
export function Audited(action: string): MethodDecorator {
  return SetMetadata(AUDITED_ACTION, action);
}
