import { type BankClientOptions, type Clock, secret, type TransferModuleOptions } from '@giro/transfer-module';
import type { ReconcilerConfig } from './reconciler-config';

/**
 * The TransferModule options of the reconciler: the bank, migrations at start, and the polling, budget, sweep,
 * transfer-rule and webhook settings of the configuration. A setting the configuration leaves out is left to the module's default.
 */
export function transferModuleOptions(
  config: ReconcilerConfig,
  bank: BankClientOptions,
  clock?: Clock,
): TransferModuleOptions {
  const { polling, bankCalls, sweep } = config;
  return {
    bank,
    runMigrations: true,
    polling: {
      minIntervalMs: polling.minIntervalMs,
      delayedMinIntervalMs: polling.delayedMinIntervalMs,
      ...(polling.maxJitterMs !== undefined && { maxJitterMs: polling.maxJitterMs }),
      ...(polling.allowBelowSpec && { allowBelowSpec: true }),
    },
    ...(bankCalls && {
      budget: {
        maxInFlight: bankCalls.maxInFlight,
        ...(bankCalls.ratePerSecond !== undefined && { ratePerSecond: bankCalls.ratePerSecond }),
      },
    }),
    ...(sweep && {
      sweep: {
        batchSize: sweep.batchSize,
        concurrency: sweep.concurrency,
        ...(sweep.accountWeights && { accountWeights: sweep.accountWeights }),
      },
    }),
    ...(config.sourceAccounts && { sourceAccounts: config.sourceAccounts }),
    ...(config.psp && { psp: true }),
    ...(config.transferRules && { transferRules: config.transferRules }),
    ...(config.limits && { limits: config.limits }),
    ...(config.approvals && { approvals: config.approvals }),
    ...(config.auditHmacKey !== undefined && { auditHmacKey: config.auditHmacKey }),
    ...(config.newPayeeRequiresApproval && { newPayeeRequiresApproval: true }),
    ...(config.statementGraceDays !== undefined && { statementGraceDays: config.statementGraceDays }),
    ...(config.schedule && { schedule: config.schedule }),
    // Always: every change writes its events to the outbox, delivered to the endpoints registered then.
    webhooks: config.webhooks?.options ?? {},
    ...(config.encryptionKey !== undefined && { encryptionKey: secret(config.encryptionKey) }),
    ...(clock && { clock }),
  };
}
