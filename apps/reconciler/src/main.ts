#!/usr/bin/env node
import { DatabaseStartError } from '@giro/transfer-module';
import { SecretUnreadableError } from '@giro/transfer-module/persistence';
import { audit } from './cli/audit';
import { keys } from './cli/keys';
import { migrate } from './cli/migrate';
import { assertOneNestCopy } from './cli/one-nest';
import { run } from './cli/run';
import { secrets } from './cli/secrets';
import { sweepOnce } from './cli/sweep';
import { ConfigError } from './config/reconciler-config';
import { SandboxStartError } from './sandbox/sandbox-mode';

const USAGE = `usage: giro-reconciler [command]

  giro-reconciler                the reconciler: sweeps non-final transfers on a schedule and serves the admin
                                 API, /health, /metrics and /docs on PORT. With BANK_BASE_URL unset it runs in
                                 sandbox mode (needs @giro/sandbox-bank) with a demo batch
  giro-reconciler sweep --once   one sweep over the due movements, then exit (cron-style deployments)
  giro-reconciler migrate        apply the database migrations of DATABASE_URL, then exit
  giro-reconciler keys create --name NAME --role ROLE
                                 a new API key for the admin API (ROLE: viewer, operator, approver, admin),
                                 printed once, alone on the last line
  giro-reconciler keys list      the API keys, revoked ones included (no secrets)
  giro-reconciler keys revoke NAME
                                 refuse that key from now on, on every replica within a second
  giro-reconciler audit verify [--checkpoint SEQ:HASH]...
                                 check the audit trail's hash chain (keyed with AUDIT_HMAC_KEY) and that it still
                                 holds each checkpoint logged: intact (exit 0), or where it breaks (exit 1)
  giro-reconciler secrets rotate --new-key KEY
                                 re-encrypt the stored secrets (webhook signing secrets) under KEY, opening them
                                 with ENCRYPTION_KEY; then set ENCRYPTION_KEY to KEY and restart
  giro-reconciler --help | --version

Configuration: environment variables (and ./.env), listed in the package's README.`;

/** The `giro-reconciler` command. */
async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  const words = args.join(' ');
  if (command === '--help' || command === '-h') return console.log(USAGE);
  if (command === '--version' || command === '-v') return console.log(packageVersion());
  if (words === '') {
    assertOneNestCopy();
    return run();
  }
  if (words === 'sweep --once') {
    assertOneNestCopy();
    return sweepOnce();
  }
  if (command === 'migrate' && rest.length === 0) return migrate();
  if (command === 'keys') return keys(rest);
  if (command === 'audit') return audit(rest);
  if (command === 'secrets') return secrets(rest);
  console.error(USAGE);
  process.exitCode = 2;
}

function packageVersion(): string {
  // dist/main.js → the package's own package.json, installed or in the repository.
  return (require('../package.json') as { version: string }).version;
}

/** Errors whose message tells the operator what to change: printed alone, without a stack. */
function isStartProblem(error: unknown): error is Error {
  return (
    error instanceof ConfigError ||
    error instanceof SandboxStartError ||
    error instanceof DatabaseStartError ||
    // Thrown by @giro/sandbox-bank, which is loaded only in sandbox mode.
    (error instanceof Error && error.name === 'SandboxEnvError') ||
    // ENCRYPTION_KEY is not the key the stored secrets were sealed with: the message names the key id needed.
    error instanceof SecretUnreadableError
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(isStartProblem(error) ? `giro-reconciler cannot start: ${error.message}` : error);
  process.exit(1);
});
