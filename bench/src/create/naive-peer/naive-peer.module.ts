import { Agent } from 'node:https';
import { HttpModule } from '@nestjs/axios';
import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BankSettings } from '../../bank/bank-settings';
import { NaiveTransfer } from './naive-transfer.entity';
import { NAIVE_CREDENTIALS, NAIVE_TRANSFERS, NaiveTransferService } from './naive-transfer.service';

/**
 * The naive peer as a Nest module: TypeORM on SQLite with the same durability as giro (WAL,
 * synchronous=FULL), and @nestjs/axios with a keep-alive https.Agent presenting the client certificate.
 */
@Module({})
export class NaivePeerModule {
  static forRoot(options: { databaseFile: string; bank: BankSettings }): DynamicModule {
    const { bank } = options;
    return {
      module: NaivePeerModule,
      imports: [
        HttpModule.register({
          baseURL: bank.url,
          httpsAgent: new Agent({ keepAlive: true, ca: bank.ca, cert: bank.cert, key: bank.key }),
        }),
      ],
      providers: [
        {
          provide: DataSource,
          useFactory: () =>
            new DataSource({
              type: 'better-sqlite3',
              database: options.databaseFile,
              entities: [NaiveTransfer],
              synchronize: true,
              prepareDatabase: (db: { pragma(source: string): unknown }) => {
                db.pragma('journal_mode = WAL');
                db.pragma('synchronous = FULL');
              },
            }).initialize(),
        },
        {
          provide: NAIVE_TRANSFERS,
          useFactory: (dataSource: DataSource) => dataSource.getRepository(NaiveTransfer),
          inject: [DataSource],
        },
        { provide: NAIVE_CREDENTIALS, useValue: { token: bank.token, hmacSecret: bank.hmacSecret, hmac: bank.hmac } },
        NaiveTransferService,
      ],
    };
  }
}
