import { ConfigurableModuleBuilder, type Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TransferModuleExtras, TransferModuleOptions } from '../options';
import type { HostDataSource } from './transfer-data-source';

/** Injection token of the host's data source as TransferModule sees it (possibly none). */
export const HOST_DATA_SOURCE = Symbol('giro:HostDataSource');

/**
 * The host's TypeORM data source, injected optionally: an application without TypeORM (the module then opens
 * its own from `databaseUrl`) has none. Which one is decided when the module is defined, hence an extra.
 */
function hostDataSourceProvider(name: string | undefined): Provider {
  return {
    provide: HOST_DATA_SOURCE,
    useFactory: (dataSource?: DataSource): HostDataSource => ({ dataSource, name }),
    inject: [{ token: getDataSourceToken(name), optional: true }],
  };
}

export const {
  ConfigurableModuleClass: ConfigurableTransferModule,
  MODULE_OPTIONS_TOKEN: TRANSFER_MODULE_OPTIONS,
  OPTIONS_TYPE: TRANSFER_MODULE_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: TRANSFER_MODULE_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<TransferModuleOptions>({ moduleName: 'Transfer' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createTransferModuleOptions')
  .setExtras<TransferModuleExtras>({ dataSourceName: undefined, isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    providers: [...(definition.providers ?? []), hostDataSourceProvider(extras.dataSourceName)],
  }))
  .build();
