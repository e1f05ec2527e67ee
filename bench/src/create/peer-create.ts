import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { transferRequest } from '../workload/transfer-request';
import type { CreateSystemUnderTest, CreateTask } from './create-task';
import { NaivePeerModule } from './naive-peer/naive-peer.module';
import { NaiveTransferService } from './naive-peer/naive-transfer.service';

/** The naive peer (see NaiveTransferService) in a Nest application context. */
export async function peerCreate(task: CreateTask): Promise<CreateSystemUnderTest> {
  const app = await NestFactory.createApplicationContext(
    NaivePeerModule.forRoot({ databaseFile: task.databaseFile, bank: task.bank }),
    { logger: ['error', 'warn'] },
  );
  const service = app.get(NaiveTransferService);
  return {
    async transfer(index) {
      await service.send(transferRequest(task.firstOriginId + index));
    },
    async close() {
      await app.get(DataSource).destroy();
      await app.close();
    },
  };
}
