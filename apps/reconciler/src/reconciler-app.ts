import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { adminValidationPipe } from './admin/validation';
import { ReconcilerModule, type ReconcilerModuleOptions } from './reconciler.module';

/** Largest admin request body: a transfer request is well under 1 KiB. */
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
  app.useGlobalPipes(adminValidationPipe());
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('giro reconciler')
      .setDescription(
        'Admin API of the giro reconciler: create transfers, follow them to their final state, register cancellations. ' +
          'Every /admin route needs `Authorization: Bearer <ADMIN_TOKEN>`.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}
