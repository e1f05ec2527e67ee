import { type DynamicModule, Module } from '@nestjs/common';
import { HOST_CONFIG, type HostConfig } from './host-config';

/** The configuration, for every module (as @nestjs/config's global ConfigModule would). */
@Module({})
export class HostConfigModule {
  static forRoot(config: HostConfig): DynamicModule {
    return {
      module: HostConfigModule,
      global: true,
      providers: [{ provide: HOST_CONFIG, useValue: config }],
      exports: [HOST_CONFIG],
    };
  }
}
