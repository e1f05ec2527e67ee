import type { LoggerService } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { BankCallBudget } from '../../bank';
import { PollingPolicy } from '../../domain';
import type { ResolvedTransferOptions } from '../../options';
import { MovementStore, type MovementStoreOptions } from '../../persistence';
import type { BankPort } from '../bank-port';
import { FailureCounts } from '../failure-counts';
import { InFlightWork } from '../in-flight-work';
import { createLeaseOwner } from '../lease-owner';
import { MovementEvents } from '../movement-events';
import { MovementSender } from '../movement-sender';
import { QuerySchedule } from '../query-schedule';

export const silentLogger: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

export interface SenderFixture {
  options: ResolvedTransferOptions;
  store: MovementStore;
  schedule: QuerySchedule;
  budget: BankCallBudget;
  owner: string;
  work: InFlightWork;
  sender: MovementSender;
  events: MovementEvents;
  logger: LoggerService;
}

/**
 * The parts TransferService and SweepService are given, built as the module's providers build them
 * (`module/transfer-module.providers.ts`) but on the spec's data source and bank, with a silent logger and
 * no event sink; `storeOptions` beside the limits (an outbox).
 */
export function senderFixture(
  options: ResolvedTransferOptions,
  dataSource: DataSource,
  bank: BankPort,
  storeOptions: MovementStoreOptions = {},
): SenderFixture {
  const store = new MovementStore(dataSource, options.clock, { limits: options.limits, ...storeOptions });
  const schedule = new QuerySchedule(new PollingPolicy(options.polling));
  const owner = createLeaseOwner();
  const events = new MovementEvents(undefined, store, silentLogger);
  const budget = new BankCallBudget(options.budget);
  const sender = new MovementSender(
    options,
    store,
    bank,
    budget,
    schedule,
    new FailureCounts(),
    events,
    owner,
    silentLogger,
  );
  return { options, store, schedule, budget, owner, work: new InFlightWork(), sender, events, logger: silentLogger };
}
