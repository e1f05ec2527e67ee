import {
  dataSourceOptionsFromUrl,
  OriginIdCounterEntity,
  runTransferMigrations,
  TransferModule,
  TransferService,
} from '@giro/transfer-module';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { giroBankOptions } from '../bank/bank-settings';
import { transferRequestBody } from '../workload/transfer-request';
import type { CreateSystemUnderTest, CreateTask } from './create-task';

/**
 * giro as a host application uses it: TransferModule on its own SQLite database (or the run's Postgres one),
 * TransferService.requestTransfer (validation, originId allocation, the durable intent, the signed mTLS request,
 * the answer recorded).
 */
export async function giroCreate(task: CreateTask): Promise<CreateSystemUnderTest> {
  if (task.giroFromFirstOriginId) {
    if (task.postgresUrl !== undefined) throw new Error('giroFromFirstOriginId is for a SQLite file of its own');
    await startOriginIdsAt(`sqlite:${task.databaseFile}`, task.firstOriginId);
  }
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

/**
 * The database migrated, its originId counter starting at `first`: giro's allocator hands out ids from the largest
 * of its counter and its time floor, so ids start there when `first` is above the floor.
 */
export async function startOriginIdsAt(databaseUrl: string, first: number): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  try {
    await runTransferMigrations(dataSource);
    // The allocator's one counter row (origin-id-allocator.ts names it).
    await dataSource.getRepository(OriginIdCounterEntity).insert({ name: 'originId', nextValue: first });
  } finally {
    await dataSource.destroy();
  }
}
