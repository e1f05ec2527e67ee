import { AuditService } from '@giro/transfer-module';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';

/** How often the trail's last row is logged: an auditor's note of it is at most this old. */
export const AUDIT_CHECKPOINT_INTERVAL_MS = 60_000;

/** Injection token of the interval (tests shorten it). */
export const AUDIT_CHECKPOINT_INTERVAL = Symbol('giro:AuditCheckpointInterval');

/**
 * Notes the audit trail's last row outside the database: `audit checkpoint seq=<n> hash=<h>` in the logs at start,
 * every minute and at shutdown. The logs go elsewhere than the database (a collector, a file), so a row deleted from
 * the end, a truncation or an older copy restored is found by `giro-reconciler audit verify --checkpoint n:h`, which
 * the chain alone cannot show. Every replica logs its own: any of them will do.
 */
@Injectable()
export class AuditCheckpoints implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly audit: AuditService,
    @InjectPinoLogger('audit') private readonly logger: PinoLogger,
    @Optional() @Inject(AUDIT_CHECKPOINT_INTERVAL) private readonly intervalMs: number = AUDIT_CHECKPOINT_INTERVAL_MS,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.log();
    this.timer = setInterval(() => void this.log(), this.intervalMs);
    // Never what keeps the process alive.
    this.timer.unref();
  }

  /** Before the database closes (TypeORM closes it on shutdown, after this). */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.log();
  }

  /** Logs the last row; a database that does not answer is said, and the next minute tries again. */
  async log(): Promise<void> {
    try {
      const checkpoint = await this.audit.checkpoint();
      if (checkpoint === null) return;
      this.logger.info(
        { auditSeq: checkpoint.seq, auditHash: checkpoint.hash },
        `audit checkpoint seq=${checkpoint.seq} hash=${checkpoint.hash}`,
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'audit checkpoint not taken: the database did not answer');
    }
  }
}
