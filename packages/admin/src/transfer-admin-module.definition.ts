import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { TransferAdminModuleOptions } from './transfer-admin.options';

export const {
  ConfigurableModuleClass: ConfigurableTransferAdminModule,
  MODULE_OPTIONS_TOKEN: TRANSFER_ADMIN_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<TransferAdminModuleOptions>({ moduleName: 'TransferAdmin' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createTransferAdminModuleOptions')
  .build();
