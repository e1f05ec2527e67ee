import 'reflect-metadata';
import { setupAdminOpenApi } from '@giro/admin';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { hostConfigFromEnv } from './host-config';
import { PayoutsService } from './payouts/payouts.service';

/**
 * Serves giro's admin API on PORT (default 3000; bearer ADMIN_TOKEN; OpenAPI at /docs), pays one payout
 * (RECIPIENT_CBU, RECIPIENT_CUIT, AMOUNT, REFERENCE), prints it once it is paid or cancelled, and keeps serving
 * until Ctrl+C. Against the sandbox bank: `pnpm sandbox`, then the BANK_* variables of the sandbox's README.
 */
async function main(): Promise<void> {
  const env = process.env;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(hostConfigFromEnv(env)), {
    bodyParser: false,
  });
  app.enableShutdownHooks();
  // The application's body parser: a transfer request is well under 1 KiB.
  app.useBodyParser('json', { limit: '16kb' });
  setupAdminOpenApi(app, { title: 'example host app: giro admin API' });
  await app.listen(Number(env.PORT ?? 3000), '127.0.0.1');
  process.stdout.write(`giro admin API on ${await app.getUrl()}/admin/transfers (OpenAPI at /docs)\n`);

  const payouts = app.get(PayoutsService);
  let payout = await payouts.payOut({
    recipientCbu: env.RECIPIENT_CBU ?? '',
    recipientCuit: env.RECIPIENT_CUIT ?? '',
    amount: env.AMOUNT ?? '',
    reference: env.REFERENCE ?? 'payout',
  });
  while (payout.status === 'requested' || payout.status === 'in_flight') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    payout = await payouts.byOriginId(payout.originId);
  }
  process.stdout.write(`${JSON.stringify(payout)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
