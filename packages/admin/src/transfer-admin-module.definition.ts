import { ConfigurableModuleBuilder } from '@nestjs/common';
import { ConsoleController } from './console-server/console.controller';
import { ConsoleAssets } from './console-server/console-assets';
import type { TransferAdminModuleOptions } from './transfer-admin.options';

/**
 * What shapes the module itself rather than its providers, given beside the options (`forRoot({ adminToken,
 * console: false })`, `forRootAsync({ useFactory, console: false })`): known before any factory runs.
 */
export interface TransferAdminModuleExtras {
  /** Serve the operator console at `GET /console` (default true). */
  console?: boolean;
}

export const {
  ConfigurableModuleClass: ConfigurableTransferAdminModule,
  MODULE_OPTIONS_TOKEN: TRANSFER_ADMIN_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<TransferAdminModuleOptions>({ moduleName: 'TransferAdmin' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createTransferAdminModuleOptions')
  .setExtras<TransferAdminModuleExtras>({ console: true }, (definition, extras) =>
    extras.console === false
      ? definition
      : {
          ...definition,
          controllers: [...(definition.controllers ?? []), ConsoleController],
          providers: [
            ...(definition.providers ?? []),
            { provide: ConsoleAssets, useFactory: () => new ConsoleAssets() },
          ],
        },
  )
  .build();
