#!/usr/bin/env node
import { writeCertificates } from './cli/certs';
import { serve } from './cli/serve';
import { SandboxEnvError } from './config/options-from-env';

const USAGE = `usage: giro-sandbox-bank [certs]

  giro-sandbox-bank          serve the sandbox bank on https://127.0.0.1:8443 (SANDBOX_PORT, SANDBOX_HOST) with
                             the development certificates of ./certs (made first when missing or expiring);
                             prints {"event":"sandbox-bank-ready","url":…} once it accepts requests
  giro-sandbox-bank certs    write a development CA, server and client certificates to ./certs (made again
                             when missing or expiring)
  giro-sandbox-bank --help | --version

Credentials and behaviour: SANDBOX_TOKEN, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SANDBOX_HMAC_SECRET and the
other SANDBOX_* variables of the README.`;

/** The `giro-sandbox-bank` command: serve (no argument) or `certs`. */
async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h') return console.log(USAGE);
  if (command === '--version' || command === '-v') return console.log(packageVersion());
  if (rest.length > 0 || (command !== undefined && command !== 'certs')) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await (command === 'certs' ? writeCertificates() : serve());
}

function packageVersion(): string {
  // dist/main.js → the package's own package.json, installed or in the repository.
  return (require('../package.json') as { version: string }).version;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof SandboxEnvError ? error.message : error);
  process.exit(1);
});
