import type { Violation } from '../domain';

/** A webhook endpoint's input was refused; `violations` names each bad field and its rule. Nothing was changed. */
export class WebhookValidationError extends Error {
  override readonly name = 'WebhookValidationError';

  constructor(readonly violations: Violation[]) {
    super(`invalid webhook endpoint: ${violations.map((v) => `${v.field} ${v.message} [${v.rule}]`).join('; ')}`);
  }
}

/** The module was configured without `webhooks`: there is no outbox and nothing is delivered. */
export class WebhooksDisabledError extends Error {
  override readonly name = 'WebhooksDisabledError';

  constructor() {
    super('webhooks are not enabled (the TransferModule option `webhooks`)');
  }
}
