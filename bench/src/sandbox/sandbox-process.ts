import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BankSettings } from '../bank/bank-settings';
import { type BenchHmac, DEFAULT_BENCH_HMAC } from '../bank/raw-signing';
import { startReadyProcess } from '../ready-process';
import { SandboxControl } from './sandbox-control';

/** The sandbox bank as a process of its own, so its work never shares an event loop with a system under test. */
export interface SandboxProcess {
  pid: number;
  bank: BankSettings;
  control: SandboxControl;
  stop(): Promise<void>;
}

/**
 * Starts `apps/sandbox-bank/dist/main.js` (the `pnpm sandbox` entry) on a free port in `workDir`, where it
 * writes its development certificates, with the sandbox's default credentials, requiring the HMAC scheme `hmac`
 * (its key id too, when set). `single-header` is read from the `Signature` header, giro's default name for it.
 */
export async function startSandboxProcess(
  workDir: string,
  hmac: BenchHmac = DEFAULT_BENCH_HMAC,
): Promise<SandboxProcess> {
  const script = join(dirname(require.resolve('@giro/sandbox-bank/package.json')), 'dist', 'main.js');
  const sandbox = await startReadyProcess(script, {
    cwd: workDir,
    env: {
      SANDBOX_PORT: '0',
      SANDBOX_HMAC_PRESET: hmac.preset,
      ...(hmac.preset === 'single-header' && { SANDBOX_HMAC_SIGNATURE_HEADER: 'Signature' }),
      ...(hmac.keyId && { SANDBOX_HMAC_KEY_ID: hmac.keyId }),
    },
    readyEvent: 'sandbox-bank-ready',
  });
  const certs = join(workDir, 'certs');
  const files = { ca: join(certs, 'ca.pem'), cert: join(certs, 'client.pem'), key: join(certs, 'client-key.pem') };
  const bank: BankSettings = {
    url: String(sandbox.ready.url),
    ca: readFileSync(files.ca, 'utf8'),
    cert: readFileSync(files.cert, 'utf8'),
    key: readFileSync(files.key, 'utf8'),
    files,
    // The sandbox's defaults (apps/sandbox-bank/README.md): the process runs without SANDBOX_TOKEN and friends.
    token: 'sandbox-token',
    hmacSecret: 'sandbox-hmac-secret',
    hmac,
  };
  const control = new SandboxControl(bank);
  return {
    pid: sandbox.child.pid as number,
    bank,
    control,
    async stop() {
      await control.close();
      await sandbox.stop();
    },
  };
}
