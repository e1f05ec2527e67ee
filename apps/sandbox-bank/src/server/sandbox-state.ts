import type { Clock } from '@giro/transfer-module';
import { AccessTokens } from '../auth/access-tokens';
import { applyConfigPatch, type ConfigPatchResult, type SandboxConfig } from '../config/sandbox-config';
import type { SandboxCredentials } from '../config/sandbox-credentials';
import { seededRandom } from '../faults/seeded-random';
import { Counters } from '../ledger/counters';
import { Ledger } from '../ledger/ledger';
import { LedgerJournal } from '../ledger/ledger-journal';

/** Everything the request handlers share: configuration, credentials, ledger, counters, clock, PRNG. */
export class SandboxState {
  readonly counters = new Counters();
  readonly ledger: Ledger;
  readonly tokens: AccessTokens;
  private currentConfig: SandboxConfig;
  private nextRandom: () => number;

  constructor(
    readonly clock: Clock,
    readonly credentials: SandboxCredentials,
    config: SandboxConfig,
    readonly maxBodyBytes: number,
    ledgerFile?: string,
  ) {
    this.currentConfig = config;
    this.nextRandom = seededRandom(config.seed);
    this.ledger = new Ledger(
      this.counters,
      clock,
      ledgerFile === undefined ? undefined : new LedgerJournal(ledgerFile),
    );
    this.tokens = new AccessTokens(credentials.token, credentials.tokenTtlSeconds);
  }

  get config(): SandboxConfig {
    return this.currentConfig;
  }

  nowMs(): number {
    return this.clock.now().getTime();
  }

  random(): number {
    return this.nextRandom();
  }

  /** Applies a validated patch; an invalid one changes nothing. Setting `seed` restarts the fault sequence. */
  configure(patch: unknown): ConfigPatchResult {
    const result = applyConfigPatch(this.currentConfig, patch);
    if (result.ok) {
      this.currentConfig = result.config;
      if (typeof patch === 'object' && patch !== null && 'seed' in patch)
        this.nextRandom = seededRandom(result.config.seed);
    }
    return result;
  }

  /** Forgets every movement and zeroes the counters; the configuration and issued tokens stay. */
  reset(): void {
    this.ledger.reset();
    this.counters.reset();
    this.nextRandom = seededRandom(this.currentConfig.seed);
  }
}
