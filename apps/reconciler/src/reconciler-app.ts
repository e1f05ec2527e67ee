import { AdminRefusalAudit, setupAdminOpenApi } from '@giro/admin';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { readAdminTls } from './config/server-environment';
import { HttpErrorsFilter } from './http/http-errors.filter';
import { securityHeaders } from './http/security-headers';
import { applyServerTimeouts } from './http/server-timeouts';
import { ReconcilerModule, type ReconcilerModuleOptions } from './reconciler.module';

/**
 * The reconciler as a Nest HTTP(S) application, configured but not listening: `pnpm start` listens on HOST:PORT,
 * tests on a free port. Sweeps start with the application (unless `scheduleSweeps: false`). Bodies are read by
 * ReconcilerHttpModule, after the token is checked (hence `bodyParser: false`).
 */
export async function createReconcilerApp(options: ReconcilerModuleOptions): Promise<NestExpressApplication> {
  const { server } = options.config;
  const app = await NestFactory.create<NestExpressApplication>(
    ReconcilerModule.forRoot(options),
    new ExpressAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
      // A failure to start reaches main(), which says it (and exits), instead of Nest exiting on its own; the logs
      // buffered meanwhile are dropped, so that a start problem is said in one line and any other error once.
      abortOnError: false,
      autoFlushLogs: false,
      // Keep-alive connections would otherwise hold a graceful shutdown open until they time out.
      forceCloseConnections: true,
      ...(server.tls && { httpsOptions: readAdminTls(server.tls) }),
    },
  );
  app.useLogger(app.get(Logger));
  app.flushLogs();
  applyServerTimeouts(app.getHttpServer(), server.uploads);
  app.set('trust proxy', server.trustProxy);
  app.disable('x-powered-by');
  // Before /docs is mounted, so that its answers carry the headers too.
  app.use(securityHeaders());
  app.useGlobalFilters(new HttpErrorsFilter(app.getHttpAdapter(), app.get(AdminRefusalAudit)));
  setupAdminOpenApi(app, {
    title: 'giro reconciler',
    description:
      'Admin API of the giro reconciler: create transfers, follow them to their final state, register cancellations. ' +
      'Every /admin route needs `Authorization: Bearer <API key or ADMIN_TOKEN>` with the role its operation names ' +
      '(`x-giro-role`): 401 without a valid one, 403 naming the role needed. Keys: /admin/keys (admin role).',
  });
  return app;
}
