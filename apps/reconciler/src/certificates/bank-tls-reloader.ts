import { type Stats, unwatchFile, watchFile } from 'node:fs';
import { BankClient } from '@giro/transfer-module/bank';
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { certificateExpiries } from './certificate-expiry';

/** How often the files are looked at: polling (stat) follows a file replaced by a rename, as secret mounts do. */
const WATCH_INTERVAL_MS = 1_000;

/**
 * How long after the last change seen the material is read: longer than the watch interval, so that a key and a
 * certificate replaced together (each file polled on its own timer) are read together.
 */
export const RELOAD_DEBOUNCE_MS = 1_500;

/**
 * Reads the bank's TLS material again on SIGHUP and when one of its files changes, so that a renewed certificate
 * is used without a restart: new bank calls use it, calls in flight finish on the previous connections. Material
 * that does not load keeps the current one in use, and the log says why.
 */
export class BankTlsReloader implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BankTlsReloader');
  private pending: NodeJS.Timeout | undefined;
  private readonly reasons = new Set<string>();

  constructor(
    private readonly bank: BankClient,
    private readonly files: readonly string[],
    private readonly debounceMs = RELOAD_DEBOUNCE_MS,
  ) {}

  onApplicationBootstrap(): void {
    process.on('SIGHUP', this.onSignal);
    for (const file of this.files)
      watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, this.onChange(file));
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.onSignal);
    for (const file of this.files) unwatchFile(file);
    clearTimeout(this.pending);
  }

  /** Reads the material now; true when it is in use. */
  reload(reason: string): boolean {
    try {
      const tls = this.bank.reloadTls();
      const expiries = certificateExpiries(tls);
      this.logger.log(
        `bank TLS material reloaded (${reason}): new bank calls use the client certificate valid until ${expiries.client.toISOString()}`,
      );
      return true;
    } catch (error) {
      this.logger.error(
        `bank TLS material NOT reloaded (${reason}), the previous one stays in use: ${(error as Error).message}`,
      );
      return false;
    }
  }

  private readonly onSignal = (): void => {
    this.schedule('SIGHUP');
  };

  private onChange(file: string) {
    return (current: Stats, previous: Stats): void => {
      if (current.mtimeMs === previous.mtimeMs && current.ino === previous.ino && current.size === previous.size)
        return;
      this.schedule(`${file} changed`);
    };
  }

  private schedule(reason: string): void {
    this.reasons.add(reason);
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      const reasons = [...this.reasons].join(', ');
      this.reasons.clear();
      this.reload(reasons);
    }, this.debounceMs);
    this.pending.unref();
  }
}
