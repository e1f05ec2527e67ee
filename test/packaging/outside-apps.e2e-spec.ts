import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForEvent } from '@giro/sandbox-bank/testing/child-process';
import { sampleTransferRequest } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from '@test-support/engines';
import { ChildProcesses } from './child-processes';
import { installedBin, type OutsideAppSpec, writeOutsideApp } from './outside-app';
import { packWorkspacePackages } from './pack-workspace';
import { type CommandResult, runCommand } from './run-command';
import { POLLING_ENV, type SandboxProcess, startSandboxProcess } from './sandbox-process';
import { offerWorkspaceSqliteBuild, sqliteBuildOf } from './workspace-sqlite-prebuild';

// giro as a new user meets it: the packages packed as a release packs them, installed with plain
// `npm install` into apps in a temporary folder outside the workspace (no workspace links, no path mapping,
// no hoisted repository node_modules), then compiled and run as those apps would be.

const PUBLISHED = ['@giro/transfer-module', '@giro/sandbox-bank', '@giro/reconciler', '@giro/client'];

/** The account sampleTransferRequest sends from: the reconciler's source account. */
const SAMPLE_FROM = sampleTransferRequest().from;

const APPS = {
  // Nest 12 makes ES module apps by default: this one imports giro's CommonJS build from an ES module.
  nest12: {
    fixture: 'nest12-app',
    giro: ['@giro/transfer-module', '@giro/sandbox-bank', '@giro/reconciler'],
    transferApp: true,
  },
  // Nest 11 and TypeORM 0.3 (the lowest majors giro's peer ranges accept), CommonJS with node10 resolution.
  nest11: { fixture: 'nest11-app', giro: ['@giro/transfer-module', '@giro/sandbox-bank'], transferApp: true },
  // The service on its own, as its README installs it: `npm install @giro/reconciler`, no sandbox package.
  reconciler: { fixture: 'reconciler-app', giro: ['@giro/reconciler'], transferApp: false },
  // Another service, in no framework, calling giro's admin API through @giro/client and receiving its webhooks.
  client: { fixture: 'client-app', giro: ['@giro/client'], transferApp: false },
} satisfies Record<string, OutsideAppSpec>;
type AppName = keyof typeof APPS;

// On an idle 2-core machine packing takes about a minute and the installs two or three when each builds
// better-sqlite3 from source (a minute of CPU; see workspace-sqlite-prebuild.ts); a busy one has needed three times
// as long.
const SETUP_TIMEOUT_MS = 15 * 60_000;
const COMPILE_TIMEOUT_MS = 3 * 60_000;
const RUN_TIMEOUT_MS = 2 * 60_000;
const ADMIN_TOKEN = 'outside-app-admin-token-0123456789';

/** Must not compile: `bnak` is no option. It would if giro's declarations were missing or typed `any`. */
const MISSPELLED_OPTION = `import { TransferModule } from '@giro/transfer-module';

export const misspelled = TransferModule.forRoot({ bnak: { baseUrl: 'https://bank.example.com' } });
`;

/** Must not compile: `/admin/transfer` is no path of the admin API. It would if the client's types were `any`. */
const MISSPELLED_PATH = `import { createGiroClient } from '@giro/client';

export const misspelled = createGiroClient({ baseUrl: 'http://giro', token: 't' }).GET('/admin/transfer', {});
`;

function jsonLine(output: string, event: string): Record<string, unknown> {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.event === event) return parsed;
    } catch {
      // Not a JSON line; an error's output, say.
    }
  }
  throw new Error(`no ${event} line in the output:\n${output}`);
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

describe('giro packed and installed with npm into apps outside the workspace', () => {
  const abort = new AbortController();
  const processes = new ChildProcesses();
  const durations = new Map<string, number>();
  const installs = new Map<AppName, CommandResult>();
  const sandboxes = new Map<AppName, Promise<SandboxProcess>>();
  const suiteStarted = Date.now();
  let root = '';

  const appDir = (name: AppName) => join(root, name);
  const inApp = (
    name: AppName,
    command: string,
    args: string[],
    options: { lowPriority?: boolean; env?: Record<string, string> } = {},
  ) => runCommand(command, args, { cwd: appDir(name), signal: abort.signal, ...options });
  /** One sandbox process per app that needs one, started from that app's installed package. */
  const sandboxOf = (name: AppName): Promise<SandboxProcess> => {
    const sandbox = sandboxes.get(name) ?? startSandboxProcess(appDir(name), processes);
    sandboxes.set(name, sandbox);
    return sandbox;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'giro-packaging-'));
    const packStarted = Date.now();
    const tarballs = await packWorkspacePackages(PUBLISHED, join(root, 'tarballs'), abort.signal);
    durations.set('pack', Date.now() - packStarted);
    const prebuild = offerWorkspaceSqliteBuild(join(root, 'prebuilds'));
    // In parallel: most of an install is waiting for the registry, or compiling better-sqlite3 on one core.
    await Promise.all(
      (Object.keys(APPS) as AppName[]).map(async (name) => {
        writeOutsideApp(appDir(name), APPS[name], tarballs);
        const install = await inApp(name, 'npm', ['install'], { lowPriority: true, env: prebuild });
        installs.set(name, install);
        durations.set(`npm install ${name} (better-sqlite3 ${sqliteBuildOf(appDir(name))})`, install.durationMs);
      }),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    abort.abort();
    await processes.stopAll();
    if (root) rmSync(root, { recursive: true, force: true });
    durations.set('total', Date.now() - suiteStarted);
    console.log(`packaging: ${[...durations].map(([what, ms]) => `${what} ${seconds(ms)}`).join(', ')}`);
  });

  const itInstalls = (name: AppName) =>
    it('installs with plain `npm install` (no ERESOLVE, no --legacy-peer-deps or --force)', () => {
      expect(installs.get(name)).toMatchObject({ code: 0 });
      expect(installs.get(name)?.output).not.toContain('ERESOLVE');
      // The apps approve the install scripts the READMEs name (`allowScripts`): npm 11.16 and later list no other.
      expect(installs.get(name)?.output).not.toContain('not yet covered by allowScripts');
    });

  describe.each(['nest12', 'nest11'] as const)('the %s app', (name) => {
    itInstalls(name);

    it(
      'compiles with `tsc -p .` (strict) with zero errors',
      async () => {
        const compiled = await inApp(name, 'npx', ['--no', '--', 'tsc', '-p', '.']);
        expect(compiled).toMatchObject({ code: 0 });
        expect(compiled.output).not.toContain('error TS');
        expect(existsSync(join(appDir(name), 'dist', 'main.js'))).toBe(true);
      },
      COMPILE_TIMEOUT_MS,
    );

    it(
      'refuses a misspelled TransferModule option at compile time: the declarations are real types',
      async () => {
        mkdirSync(join(appDir(name), 'type-errors'));
        writeFileSync(join(appDir(name), 'type-errors', 'misspelled-option.ts'), MISSPELLED_OPTION);
        // The app's own compiler options over that one folder (the libraries' declarations were checked above).
        const compilerOptions = { noEmit: true, skipLibCheck: true };
        const config = { extends: './tsconfig.json', compilerOptions, include: ['type-errors'] };
        writeFileSync(join(appDir(name), 'tsconfig.type-errors.json'), JSON.stringify(config));
        const compiled = await inApp(name, 'npx', ['--no', '--', 'tsc', '-p', 'tsconfig.type-errors.json']);
        expect(compiled.code).not.toBe(0);
        expect(compiled.output).toMatch(/error TS\d+: .*'bnak'/);
      },
      COMPILE_TIMEOUT_MS,
    );

    it('makes the development certificates with `npx giro-sandbox-bank certs`', async () => {
      const certs = await inApp(name, 'npx', ['--no', '--', 'giro-sandbox-bank', 'certs']);
      expect(certs).toMatchObject({ code: 0 });
      for (const file of ['ca.pem', 'server.pem', 'server-key.pem', 'client.pem', 'client-key.pem']) {
        expect(existsSync(join(appDir(name), 'certs', file))).toBe(true);
      }
    });

    describeOnEachEngine('its build, run with node', (engine) => {
      it(
        'takes a plain transfer to COMPLETED, and a `[fail]` one to FAILED with one cancellation and its event, through the sandbox process',
        async () => {
          const sandbox = await sandboxOf(name);
          const env = { ...sandbox.bankEnvironment, ...POLLING_ENV, DATABASE_URL: await engine.createDatabaseUrl() };
          const app = await runCommand(process.execPath, [join('dist', 'main.js')], {
            cwd: appDir(name),
            env,
            signal: abort.signal,
          });
          const result = jsonLine(app.output, 'transfers-final');
          const failing = result.failing as { originId: number };
          expect(result).toMatchObject({ plain: { status: 'COMPLETED' }, failing: { status: 'FAILED' } });
          expect(result.cancellations).toEqual([failing.originId]);
          expect(result.failedEvents).toEqual([failing.originId]);
          expect(result.subpaths).toEqual({ bank: 'function', persistence: 'function' });
          expect(app.code).toBe(0);
          expect(await sandbox.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });
        },
        RUN_TIMEOUT_MS,
      );
    });
  });

  /** The installed reconciler against the sandbox process of the nest12 app, on a free port. */
  const startInstalledReconciler = async (env: Record<string, string> = {}) => {
    const sandbox = await sandboxOf('nest12');
    const running = processes.start(installedBin(appDir('reconciler'), '@giro/reconciler', 'giro-reconciler'), {
      cwd: appDir('reconciler'),
      env: {
        ...sandbox.bankEnvironment,
        ...POLLING_ENV,
        ADMIN_TOKEN,
        SOURCE_ACCOUNTS: `${SAMPLE_FROM.address}:${SAMPLE_FROM.owner.personId}`,
        DATABASE_URL: `sqlite:${join(appDir('reconciler'), 'giro.sqlite')}`,
        PORT: '0',
        SWEEP_INTERVAL_MS: '200',
        ...env,
      },
    });
    const { url } = await waitForEvent(running, 'reconciler-ready', 60_000);
    return { sandbox, running, url: String(url) };
  };

  describe('the reconciler, installed without @giro/sandbox-bank', () => {
    const bin = () => installedBin(appDir('reconciler'), '@giro/reconciler', 'giro-reconciler');

    itInstalls('reconciler');

    it('answers `npx giro-reconciler --help` with its usage and exit code 0', async () => {
      const help = await inApp('reconciler', 'npx', ['--no', '--', 'giro-reconciler', '--help']);
      expect(help).toMatchObject({ code: 0 });
      expect(help.output).toContain('usage: giro-reconciler');
    });

    it('exits 1 without BANK_BASE_URL, naming BANK_BASE_URL and @giro/sandbox-bank', async () => {
      const running = processes.start(bin(), { cwd: appDir('reconciler'), env: { PORT: '0' } });
      expect((await running.exit).code).toBe(1);
      expect(running.output()).toContain('BANK_BASE_URL');
      expect(running.output()).toContain('@giro/sandbox-bank');
    });

    it(
      'against the sandbox process: serves /admin and /health, takes a transfer to COMPLETED, exits 0 on SIGTERM',
      async () => {
        const { sandbox, running, url } = await startInstalledReconciler();
        const admin = (path: string, init: RequestInit = {}) =>
          fetch(`${url}${path}`, {
            ...init,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          });

        expect((await admin('/admin/transfers')).status).toBe(200);
        expect((await fetch(`${url}/health`)).status).toBe(200);
        // The console comes built inside the packed @giro/admin: its page and the files the page names.
        const page = await fetch(`${url}/console`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
        const html = await page.text();
        for (const file of html.match(/(app\.js|app\.css)\?v=[^"]+/g) ?? []) {
          expect((await fetch(`${url}/console/${file}`)).status).toBe(200);
        }
        expect(html.match(/(app\.js|app\.css)\?v=/g)).toHaveLength(2);
        const request = sampleTransferRequest({ description: 'outside reconciler' });
        const created = await admin('/admin/transfers', { method: 'POST', body: JSON.stringify(request) });
        expect(created.status).toBe(201);
        const { originId } = (await created.json()) as { originId: number };
        const deadline = Date.now() + 30_000;
        let status = '';
        while (status !== 'COMPLETED' && Date.now() < deadline) {
          await sleep(200);
          status = ((await (await admin(`/admin/transfers/${originId}`)).json()) as { status: string }).status;
        }
        expect(status).toBe('COMPLETED');
        expect(await sandbox.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });

        running.child.kill('SIGTERM');
        expect(await running.exit).toEqual({ code: 0, signal: null });
      },
      RUN_TIMEOUT_MS,
    );
  });

  describe('the client app: another service using @giro/client', () => {
    itInstalls('client');

    it(
      'compiles with `tsc -p .` (strict, nodenext) with zero errors, and refuses a path the admin API does not have',
      async () => {
        const compiled = await inApp('client', 'npx', ['--no', '--', 'tsc', '-p', '.']);
        expect(compiled).toMatchObject({ code: 0 });
        expect(existsSync(join(appDir('client'), 'dist', 'main.js'))).toBe(true);
        mkdirSync(join(appDir('client'), 'type-errors'));
        writeFileSync(join(appDir('client'), 'type-errors', 'misspelled-path.ts'), MISSPELLED_PATH);
        const config = { extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['type-errors'] };
        writeFileSync(join(appDir('client'), 'tsconfig.type-errors.json'), JSON.stringify(config));
        const refused = await inApp('client', 'npx', ['--no', '--', 'tsc', '-p', 'tsconfig.type-errors.json']);
        expect(refused.code).not.toBe(0);
        expect(refused.output).toMatch(/error TS\d+: .*'"\/admin\/transfer"'/);
      },
      COMPILE_TIMEOUT_MS,
    );

    it(
      'creates and reads a transfer through a running reconciler, and verifies the webhook it delivers',
      async () => {
        const { running, url } = await startInstalledReconciler({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
        const request = sampleTransferRequest({ description: 'outside client' });
        const client = await inApp('client', process.execPath, ['dist/main.js'], {
          env: { GIRO_URL: url, GIRO_TOKEN: ADMIN_TOKEN, TRANSFER_REQUEST: JSON.stringify(request) },
        });
        expect(client).toMatchObject({ code: 0 });
        const finished = jsonLine(client.output, 'client-finished');
        expect(finished).toMatchObject({
          createdStatus: 201,
          readDescription: 'outside client',
          webhookType: 'transfer.created',
          webhookOriginId: finished.originId,
          tamperedRefused: true,
        });
        running.child.kill('SIGTERM');
        expect(await running.exit).toEqual({ code: 0, signal: null });
      },
      RUN_TIMEOUT_MS,
    );
  });
});
