import type { Clock } from '@giro/transfer-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SWEEP_CLOCK, SWEEP_INTERVAL, SWEEP_RUNNER, SweepLifecycle, sweepRunnerProvider } from './sweep.providers';

export interface ReconcilerSweepModuleOptions {
  /** The module that provides ReconcilerMetrics (the runner records every sweep in it). */
  metrics: DynamicModule;
  /** The longest pause between scheduled sweeps, or null: sweeps only on demand. */
  intervalMs: number | null;
  /** The transfer module's clock. */
  clock: Clock;
}

/**
 * The reconciler's schedule: one sweep runner for the schedule, `POST /admin/reconcile` and the CLI (sweeps
 * never overlap), and the recurring sweep started with the application and stopped first at shutdown.
 * Exports SWEEP_RUNNER.
 */
@Module({})
export class ReconcilerSweepModule {
  static forRoot(options: ReconcilerSweepModuleOptions): DynamicModule {
    return {
      module: ReconcilerSweepModule,
      imports: [options.metrics],
      providers: [
        { provide: SWEEP_INTERVAL, useValue: options.intervalMs },
        { provide: SWEEP_CLOCK, useValue: options.clock },
        sweepRunnerProvider,
        SweepLifecycle,
      ],
      exports: [SWEEP_RUNNER],
    };
  }
}
