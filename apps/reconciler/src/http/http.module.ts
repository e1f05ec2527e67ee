import { AdminAuthentication } from '@giro/admin';
import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { type AdminRateLimits, adminThrottlerOptions } from './admin-throttling';
import { JsonBodyMiddleware } from './json-body.middleware';

export interface ReconcilerHttpOptions {
  /** The TransferAdminModule the reconciler mounts (the same object), whose AdminAuthentication is used here. */
  admin: DynamicModule;
  limits: AdminRateLimits;
}

/**
 * What the reconciler does with a request before its route sees it: the credential checked (AdminAuthentication),
 * then the rate limit of its credential or of its address (a global guard), and the JSON body read only for
 * an authenticated request (JsonBodyMiddleware). `/health` and `/metrics` skip the rate limit. A batch of transfers
 * (`POST /admin/transfers/batch`: a CSV file, or a JSON array of up to 1 000 requests) is read by its route, after
 * the role guard, within the route's own bounds (2 MiB, UTF-8); so is a bank statement (`POST /admin/statements`, CSV
 * or .xlsx), streamed by its route to a temporary file.
 */
@Module({})
export class ReconcilerHttpModule implements NestModule {
  static forRoot({ admin, limits }: ReconcilerHttpOptions): DynamicModule {
    return {
      module: ReconcilerHttpModule,
      imports: [
        admin,
        ThrottlerModule.forRootAsync({
          imports: [admin],
          inject: [AdminAuthentication],
          useFactory: (authentication: AdminAuthentication) => adminThrottlerOptions(authentication, limits),
        }),
      ],
      providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(JsonBodyMiddleware)
      .exclude(
        { path: 'admin/transfers/batch', method: RequestMethod.POST },
        { path: 'admin/statements', method: RequestMethod.POST },
      )
      .forRoutes('{*path}');
  }
}
