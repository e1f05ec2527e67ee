import { SweepService } from '@giro/transfer-module';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HOST_CONFIG, type HostConfig } from './host-config';

/** Runs giro's sweep every `sweepEveryMs`, one at a time, so this application follows its own transfers. */
@Injectable()
export class SweepTimer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SweepTimer.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly reconcile: SweepService,
    @Inject(HOST_CONFIG) private readonly config: HostConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.sweepEveryMs <= 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.reconcile
        .sweep()
        .then((report) => this.logger.debug(`sweep: ${JSON.stringify(report)}`))
        .catch((error: unknown) => this.logger.error(`sweep failed: ${String(error)}`))
        .finally(() => {
          this.running = undefined;
        });
    }, this.config.sweepEveryMs);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
