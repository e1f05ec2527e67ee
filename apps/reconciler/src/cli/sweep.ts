import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { WebhookDispatcher } from '@giro/transfer-module';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { pollingFloorWarning } from '../config/polling-floor';
import { ConfigError, reconcilerConfigFromEnv } from '../config/reconciler-config';
import { startTracing } from '../ops/tracing';
import { ReconcilerModule } from '../reconciler.module';
import { type ReconcilerSweepRunner, SWEEP_RUNNER } from '../sweep/sweep.providers';

/**
 * `giro-reconciler sweep --once` (`pnpm sweep --once`), for cron-style deployments: migrates the database if
 * needed, runs one sweep, then delivers the webhooks due (no process delivers them between two runs otherwise:
 * what falls due later, a retry, waits for the next run), prints the counts as one JSON line
 * (`{"event":"sweep-finished",…,"webhookAttempts":n}`), releases its leases and exits (0, or 1 when the sweep
 * failed). It needs a real bank: sandbox mode is `giro-reconciler`'s.
 */
export async function sweepOnce(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = reconcilerConfigFromEnv(process.env, { adminApi: false });
  if (config.bank === undefined) {
    throw new ConfigError([
      'BANK_BASE_URL is required by `sweep --once`: sandbox mode (the sandbox bank and the demo) runs in `giro-reconciler` (`pnpm start`)',
    ]);
  }
  const belowSpec = pollingFloorWarning(config.polling);
  if (belowSpec !== undefined) console.warn(belowSpec);
  const stopTracing = await startTracing(process.env);
  const app = await NestFactory.createApplicationContext(
    ReconcilerModule.forRoot({
      config,
      bank: config.bank,
      // No HTTP server here: the admin guard is built with the module but never reached.
      adminToken: randomBytes(24).toString('base64url'),
      scheduleSweeps: false,
    }),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  try {
    const report = await app.get<ReconcilerSweepRunner>(SWEEP_RUNNER).runOnce();
    const dispatcher = app.get(WebhookDispatcher);
    const webhookAttempts = await dispatcher.deliverDue().finally(() => dispatcher.stop());
    console.log(JSON.stringify({ event: 'sweep-finished', ...report, webhookAttempts }));
  } finally {
    await app.close();
    await stopTracing?.();
  }
}
