import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { BankCallObserver } from './bank-call-observer';

/** Reports the bank exchanges to the metrics for as long as the application runs. */
@Injectable()
export class BankCallMetrics implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(BankCallObserver) private readonly observer: BankCallObserver) {}

  onApplicationBootstrap(): void {
    this.observer.start();
  }

  onModuleDestroy(): void {
    this.observer.stop();
  }
}
