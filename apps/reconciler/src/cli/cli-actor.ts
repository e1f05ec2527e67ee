import type { Actor } from '@giro/transfer-module';

/** Who the audit trail records for a change made on the command line (`giro-reconciler keys create|revoke`). */
export const CLI_ACTOR: Readonly<Actor> = Object.freeze({ keyId: 'cli', name: 'cli', role: 'admin' });
