import { ENVIRONMENT_ENDPOINT_ID, WebhookEndpointNotFoundError, WebhookService } from '@giro/transfer-module';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EnvironmentWebhookEndpoint } from '../config/webhook-environment';

/** WEBHOOK_URL, WEBHOOK_SECRET and WEBHOOK_EVENT_TYPES, or undefined when they are unset. */
export const ENVIRONMENT_WEBHOOK = Symbol('ENVIRONMENT_WEBHOOK');

/**
 * The endpoint of the environment, `ep_environment`, made to match WEBHOOK_URL, WEBHOOK_SECRET and
 * WEBHOOK_EVENT_TYPES at every start (created, or updated and enabled), before anything is swept or delivered.
 * Without WEBHOOK_URL, one a previous start registered is disabled (its deliveries kept, listed, nothing sent):
 * removing the variable stops the deliveries. Endpoints registered through the admin API are not touched.
 */
@Injectable()
export class EnvironmentWebhookEndpointSync implements OnModuleInit {
  private readonly logger = new Logger('giro');

  constructor(
    private readonly webhooks: WebhookService,
    @Inject(ENVIRONMENT_WEBHOOK) private readonly endpoint: EnvironmentWebhookEndpoint | undefined,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.endpoint !== undefined) {
      await this.webhooks.configureEnvironmentEndpoint(this.endpoint);
      // The id only: the URL may carry a token, the secret is one.
      this.logger.log({ webhookEndpointId: ENVIRONMENT_ENDPOINT_ID }, 'webhook endpoint of WEBHOOK_URL configured');
      return;
    }
    const registered = await this.webhooks.getEndpoint(ENVIRONMENT_ENDPOINT_ID).catch((error: unknown) => {
      if (error instanceof WebhookEndpointNotFoundError) return undefined;
      throw error;
    });
    if (registered?.enabled) {
      await this.webhooks.updateEndpoint(ENVIRONMENT_ENDPOINT_ID, { enabled: false });
      this.logger.warn(
        { webhookEndpointId: ENVIRONMENT_ENDPOINT_ID },
        'WEBHOOK_URL is not set: the endpoint it registered before is disabled',
      );
    }
  }
}
