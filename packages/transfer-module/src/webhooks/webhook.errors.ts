import { GiroError, type Violation } from '../domain';

/** A webhook endpoint's input was refused; `violations` names each bad field and its rule. Nothing was changed. */
export class WebhookValidationError extends GiroError {
  override readonly name = 'WebhookValidationError';

  constructor(override readonly violations: Violation[]) {
    super(
      'VALIDATION_FAILED',
      `invalid webhook endpoint: ${violations.map((v) => `${v.field} ${v.message} [${v.rule}]`).join('; ')}`,
    );
  }
}

/** The module was configured without `webhooks`: there is no outbox and nothing is delivered. */
export class WebhooksDisabledError extends GiroError {
  override readonly name = 'WebhooksDisabledError';

  constructor() {
    super('WEBHOOKS_DISABLED', 'webhooks are not enabled (the TransferModule option `webhooks`)');
  }
}
