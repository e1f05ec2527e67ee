import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { hostConfigFromEnv } from './host-config';
import { PayoutsService } from './payouts/payouts.service';

/**
 * Pays one payout (RECIPIENT_CBU, RECIPIENT_CUIT, AMOUNT, REFERENCE) and waits until it is paid or cancelled.
 * Against the sandbox bank: `pnpm sandbox`, then the BANK_* variables of the sandbox's README.
 */
async function main(): Promise<void> {
  const env = process.env;
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(hostConfigFromEnv(env)));
  app.enableShutdownHooks();
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
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
