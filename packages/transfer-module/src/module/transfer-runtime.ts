import { Logger, type LoggerService } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { PollingPolicy } from '../domain';
import { MovementStore } from '../persistence';
import { BankCallBudget } from '../reconcile/bank-call-budget';
import { FailureCounts } from '../reconcile/failure-counts';
import { InFlightWork } from '../reconcile/in-flight-work';
import { createLeaseOwner } from '../reconcile/lease-owner';
import { type BankPort, MovementReconciler } from '../reconcile/movement-reconciler';
import { QuerySchedule } from '../reconcile/query-schedule';
import { type EventSink, TransferEvents } from '../transfer/transfer-events';
import type { ResolvedTransferOptions } from './transfer-module.options';

/** Everything TransferService and ReconcileService share: one store, one budget, one lease owner. */
export interface TransferRuntime {
  options: ResolvedTransferOptions;
  store: MovementStore;
  schedule: QuerySchedule;
  reconciler: MovementReconciler;
  work: InFlightWork;
  owner: string;
  logger: LoggerService;
}

export interface TransferRuntimeParts {
  options: ResolvedTransferOptions;
  dataSource: DataSource;
  bank: BankPort;
  /** EventEmitter2 when the host imported EventEmitterModule; without it no events are emitted. */
  events?: EventSink;
  logger?: LoggerService;
}

export function createTransferRuntime(parts: TransferRuntimeParts): TransferRuntime {
  const { options } = parts;
  const logger = parts.logger ?? new Logger('giro');
  const store = new MovementStore(parts.dataSource, options.clock);
  const schedule = new QuerySchedule(new PollingPolicy(options.polling));
  const owner = createLeaseOwner();
  const reconciler = new MovementReconciler({
    store,
    bank: parts.bank,
    budget: new BankCallBudget(options.budget),
    schedule,
    failures: new FailureCounts(),
    events: new TransferEvents(parts.events, store, logger),
    clock: options.clock,
    owner,
    leaseMs: options.sweep.leaseMs,
    callGuardMs: options.callGuardMs,
    logger,
  });
  return { options, store, schedule, reconciler, work: new InFlightWork(), owner, logger };
}

/** Injection token of the TransferRuntime. */
export const TRANSFER_RUNTIME = Symbol('giro:TransferRuntime');
