import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { BankClient } from '../bank';
import { TRANSFER_DATA_SOURCE, type TransferDataSource } from './transfer-data-source';

/** Closes what the module opened, once the services have stopped (after every onModuleDestroy). */
@Injectable()
export class TransferResources implements OnApplicationShutdown {
  constructor(
    @Inject(TRANSFER_DATA_SOURCE) private readonly database: TransferDataSource,
    @Inject(BankClient) private readonly bank: BankClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bank.close();
    if (this.database.owned && this.database.dataSource.isInitialized) await this.database.dataSource.destroy();
  }
}
