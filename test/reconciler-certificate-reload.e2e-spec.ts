import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  issueCertificate,
  type PemKeyPair,
  type SandboxBank,
  startSandboxBank,
} from '@giro/sandbox-bank';
import { transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';

// A real reconciler process against the mutual-TLS sandbox bank: its client certificate replaced on disk, taken
// up on SIGHUP and on a file change without a restart, while transfers keep being created and completed.

const DAY_S = 86_400;

describe('bank certificates reloaded by a running reconciler', () => {
  let dir: string;
  let ca: CertificateAuthority;
  let bank: SandboxBank;
  let reconciler: ReconcilerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    ca = await createCertificateAuthority('giro reload test CA');
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-cert-reload-'));
    const server = await issueCertificate(ca, {
      commonName: 'localhost',
      usage: 'server',
      altNames: ['localhost', '127.0.0.1', '::1'],
    });
    const client = await issueCertificate(ca, { commonName: 'giro client one', usage: 'client', validDays: 301 });
    bank = await startSandboxBank({
      tls: { cert: server.cert, key: server.key, ca: ca.cert },
      config: {
        polling: { minIntervalMs: 200, delayedMinIntervalMs: 1_000 },
        timings: { createdMs: 200, inProgressMs: 300, delayedMs: 1_000 },
      },
    });
    env = {
      ...bankEnvironment(dir, { ca, server, client }, bank.url),
      POLL_MIN_INTERVAL_MS: '200',
      DELAYED_MIN_INTERVAL_MS: '1000',
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
    };
  });

  afterEach(async () => {
    await killIfRunning([reconciler]);
    reconciler = undefined;
    await bank.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const current = (): ReconcilerProcess => {
    if (reconciler === undefined) throw new Error('no reconciler running');
    return reconciler;
  };

  /** Replaces a file the way a secret mount or a renewal script does: written aside, then renamed over it. */
  const replaceFile = (path: string, content: string) => {
    writeFileSync(`${path}.new`, content, { mode: 0o600 });
    renameSync(`${path}.new`, path);
  };
  const installClient = (pair: PemKeyPair) => {
    replaceFile(env.BANK_KEY_FILE, pair.key);
    replaceFile(env.BANK_CERT_FILE, pair.cert);
  };

  const clientExpiry = async (): Promise<number> => {
    const text = await (await fetch(`${current().url}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('giro_certificate_expiry_timestamp_seconds{certificate="client"}'));
    if (line === undefined) throw new Error(`no client certificate metric in:\n${text}`);
    return Number(line.split(' ')[1]);
  };
  const readiness = async () => {
    const response = await fetch(`${current().url}/health/ready`);
    return {
      status: response.status,
      body: (await response.json()) as { details: Record<string, Record<string, unknown>> },
    };
  };

  /** Creates transfers one after another until `stop`, returning every originId created. */
  const keepCreating = (stop: AbortSignal) =>
    (async () => {
      const created: number[] = [];
      while (!stop.aborted) {
        const answer = await current().admin('POST', '/admin/transfers', transferRequest({ description: 'reload' }));
        expect(answer.status).toBe(201);
        created.push(answer.json.originId);
      }
      return created;
    })();

  const refusals = () => (current().running.output().split('NOT reloaded').length ?? 1) - 1;

  const allCompleted = async (originIds: number[]) => {
    // Every page: a busy machine makes more transfers during the swaps than one page holds.
    const completed = new Set<number>();
    let after: string | null = null;
    do {
      const query: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const answer = await current().admin('GET', `/admin/transfers?status=COMPLETED&limit=500${query}`);
      for (const item of answer.json.items as { originId: number }[]) completed.add(item.originId);
      after = answer.json.nextCursor;
    } while (after !== null);
    return originIds.every((id) => completed.has(id));
  };

  it('takes a new client certificate on SIGHUP and when the files change, keeps the old one on a bad file, and never drops a transfer', async () => {
    reconciler = await startReconcilerProcess(dir, env);
    expect(reconciler.running.output()).toMatch(/certificates +client valid until \S+, bank CA until \S+/);
    const first = await clientExpiry();
    expect(first).toBeGreaterThan(Date.now() / 1000 + 300 * DAY_S - 60);
    expect((await readiness()).status).toBe(200);

    const stop = new AbortController();
    const creating = keepCreating(stop.signal);

    // A renewal that expires in 3 days (certificates are issued valid from a day ago), taken up on SIGHUP: readiness warns (within 14 days) and stays up.
    const second = await issueCertificate(ca, { commonName: 'giro client two', usage: 'client', validDays: 4 });
    installClient(second);
    reconciler.running.child.kill('SIGHUP');
    await waitUntil(async () => (await clientExpiry()) < first, 10_000);
    expect(await clientExpiry()).toBeLessThan(Date.now() / 1000 + 3 * DAY_S + 60);
    expect(reconciler.running.output()).toContain('bank TLS material reloaded');
    await waitUntil(async () => (await readiness()).body.details.certificates?.warning !== undefined, 10_000);
    const warned = await readiness();
    expect(warned.status).toBe(200);
    expect(String(warned.body.details.certificates.warning)).toMatch(/client certificate expires at .* in 3 day/);

    // A key that does not belong to the certificate: the material in use stays, the log says why.
    const stranger = await issueCertificate(ca, { commonName: 'giro client three', usage: 'client', validDays: 100 });
    replaceFile(env.BANK_CERT_FILE, stranger.cert);
    reconciler.running.child.kill('SIGHUP');
    await waitUntil(() => refusals() === 1, 10_000, refusals);
    expect(reconciler.running.output()).toContain('bank.tls.key does not belong to bank.tls.cert');
    expect(await clientExpiry()).toBeLessThan(Date.now() / 1000 + 3 * DAY_S + 60);

    // A certificate file that is not PEM at all: kept too.
    replaceFile(env.BANK_CERT_FILE, 'not a certificate');
    reconciler.running.child.kill('SIGHUP');
    await waitUntil(() => refusals() === 2, 10_000, refusals);
    expect(await clientExpiry()).toBeLessThan(Date.now() / 1000 + 3 * DAY_S + 60);

    // The files changed, no signal: the watcher takes the new pair up.
    const fourth = await issueCertificate(ca, { commonName: 'giro client four', usage: 'client', validDays: 101 });
    installClient(fourth);
    await waitUntil(async () => Math.abs((await clientExpiry()) - (Date.now() / 1000 + 100 * DAY_S)) < 3_600, 15_000);

    stop.abort();
    const created = await creating;
    expect(created.length).toBeGreaterThan(0);
    await waitUntil(
      () => allCompleted(created),
      60_000,
      () => created.length,
    );
    expect(reconciler.running.child.exitCode).toBeNull();
  }, 120_000);

  it('fails readiness once the client certificate has expired, naming it', async () => {
    const expired = await issueCertificate(ca, {
      commonName: 'giro client expired',
      usage: 'client',
      notBefore: new Date(Date.now() - 10 * DAY_S * 1000),
      validDays: 2,
    });
    installClient(expired);
    reconciler = await startReconcilerProcess(dir, env);
    const ready = await readiness();
    expect(ready.status).toBe(503);
    expect(String(ready.body.details.certificates.message)).toMatch(/^the client certificate expired at /);
    expect(await clientExpiry()).toBeLessThan(Date.now() / 1000);
  });
});
