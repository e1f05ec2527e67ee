'use strict';
// The reconciler exactly as `pnpm start` runs it (apps/reconciler/dist/main.js, after `pnpm build`), plus
// one variable its environment does not offer yet: BANK_TIMEOUT_MS, the bank client's connect, headers and
// body timeouts. The chaos suite needs them short: its sandbox bank hangs requests, and after a SIGKILL the
// movements the dead process had leased wait for the lease to run out, which lasts twice the longest bank
// call (30 s headers and body by default). Everything else — configuration, Nest application, sweeps,
// admin API, signals, the ready line — is main.js's own code: only the configuration function is wrapped,
// through Node's module cache, before main.js loads it.

const { join } = require('node:path');

const dist = join(__dirname, '..', '..', 'apps', 'reconciler', 'dist');
const configModule = require.resolve(join(dist, 'config', 'reconciler-config.js'));
const original = require(configModule);
const timeoutMs = Number(process.env.BANK_TIMEOUT_MS);
if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
  console.error('BANK_TIMEOUT_MS must be a whole number of milliseconds ≥ 1');
  process.exit(1);
}

require.cache[configModule].exports = {
  ...original,
  reconcilerConfigFromEnv(env, options) {
    const config = original.reconcilerConfigFromEnv(env, options);
    if (config.bank === undefined) return config;
    const timeouts = { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs };
    return { ...config, bank: { ...config.bank, timeouts } };
  },
};

require(join(dist, 'main.js'));
