import { TransferModule, TransferService } from '@giro/transfer-module';
import { NestFactory } from '@nestjs/core';
import { giroBankOptions } from '../bank/bank-settings';
import { transferRequestBody } from '../workload/transfer-request';
import type { CreateSystemUnderTest, CreateTask } from './create-task';

/**
 * giro as a host application uses it: TransferModule on its own SQLite database (or the run's Postgres one),
 * TransferService.requestTransfer (validation, originId allocation, the durable intent, the signed mTLS request,
 * the answer recorded).
 */
export async function giroCreate(task: CreateTask): Promise<CreateSystemUnderTest> {
  const app = await NestFactory.createApplicationContext(
    TransferModule.forRoot({
      bank: giroBankOptions(task.bank, task.maxConnections),
      databaseUrl: task.postgresUrl ?? `sqlite:${task.databaseFile}`,
      runMigrations: true,
      budget: { maxInFlight: task.deploymentInFlight ?? task.maxConnections },
    }),
    { logger: ['error', 'warn'] },
  );
  const transfers = app.get(TransferService);
  const request = transferRequestBody();
  return {
    async transfer() {
      const { movement } = await transfers.requestTransfer(request);
      if (movement.status === 'PENDING') throw new Error(`no answer recorded: ${movement.lastError}`);
    },
    close: () => app.close(),
  };
}
