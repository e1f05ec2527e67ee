import { setupAdminOpenApi } from '@giro/admin';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ReconcilerModule, type ReconcilerModuleOptions } from './reconciler.module';

/**
 * Largest request body: a transfer request is well under 1 KiB. The application's body parser, not the admin
 * module's: parsing happens before any module's code sees the request.
 */
export const BODY_LIMIT = '16kb';

/**
 * The reconciler as a Nest HTTP application, configured but not listening: `pnpm start` listens on PORT,
 * tests on a free port. Sweeps start with the application (unless `scheduleSweeps: false`).
 */
export async function createReconcilerApp(options: ReconcilerModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    ReconcilerModule.forRoot(options),
    new ExpressAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
      // Keep-alive connections would otherwise hold a graceful shutdown open until they time out.
      forceCloseConnections: true,
    },
  );
  app.useLogger(app.get(Logger));
  app.useBodyParser('json', { limit: BODY_LIMIT });
  // The admin routes bring their own validation pipe and error filter (TransferAdminModule).
  setupAdminOpenApi(app, {
    title: 'giro reconciler',
    description:
      'Admin API of the giro reconciler: create transfers, follow them to their final state, register cancellations. ' +
      'Every /admin route needs `Authorization: Bearer <ADMIN_TOKEN>`.',
  });
  return app;
}
