import { join } from 'node:path';
import type { BankClientOptions, TransferModuleOptions } from '@giro/transfer-module';

/** How this application is configured (from the environment in main.ts, directly in tests). */
export interface HostConfig {
  /** Folder of the SQLite files: the application's own (host.sqlite) and giro's (giro.sqlite). */
  dataDir: string;
  /** The account payouts are sent from. */
  payer: { cbu: string; cuit: string };
  bank: BankClientOptions;
  /** Sweep every this many ms (0: never — e.g. when the giro reconciler sweeps this database). */
  sweepEveryMs: number;
  /** The bearer token of giro's admin API, which this application serves under /admin (at least 16 characters). */
  adminToken: string;
  /** More giro options (polling, clock…): for tests and demos. */
  giro?: Partial<TransferModuleOptions>;
}

export const HOST_CONFIG = Symbol('HostConfig');

/** The configuration from environment variables; a missing one stops the start with its name. */
export function hostConfigFromEnv(env: NodeJS.ProcessEnv): HostConfig {
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`environment variable ${name} is required`);
    return value;
  };
  return {
    dataDir: env.DATA_DIR ?? join('.', 'data'),
    payer: { cbu: required('PAYER_CBU'), cuit: required('PAYER_CUIT') },
    bank: {
      baseUrl: required('BANK_BASE_URL'),
      tls: {
        caFile: required('BANK_CA_FILE'),
        certFile: required('BANK_CERT_FILE'),
        keyFile: required('BANK_KEY_FILE'),
      },
      auth: { token: required('BANK_TOKEN') },
      ...(env.BANK_HMAC_SECRET && { hmac: { secret: env.BANK_HMAC_SECRET } }),
    },
    sweepEveryMs: Number(env.SWEEP_EVERY_MS ?? 1000),
    adminToken: required('ADMIN_TOKEN'),
  };
}
