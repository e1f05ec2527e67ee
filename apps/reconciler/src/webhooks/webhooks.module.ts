import { type DynamicModule, Module } from '@nestjs/common';
import type { EnvironmentWebhookEndpoint } from '../config/webhook-environment';
import { ENVIRONMENT_WEBHOOK, EnvironmentWebhookEndpointSync } from './environment-endpoint';

/**
 * The reconciler's webhooks beyond the transfer module's own: the environment's endpoint (WEBHOOK_URL) kept in
 * step at start. The dispatcher runs with the sweep schedule (ReconcilerSweepModule); its metrics are in
 * ReconcilerOpsModule.
 */
@Module({})
export class ReconcilerWebhooksModule {
  static forRoot(options: { environmentEndpoint: EnvironmentWebhookEndpoint | undefined }): DynamicModule {
    return {
      module: ReconcilerWebhooksModule,
      providers: [
        { provide: ENVIRONMENT_WEBHOOK, useValue: options.environmentEndpoint },
        EnvironmentWebhookEndpointSync,
      ],
    };
  }
}
