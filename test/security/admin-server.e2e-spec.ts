import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startNode, waitForEvent } from '@giro/sandbox-bank/testing/child-process';
import {
  ADMIN_TOKEN,
  FROM_CVU,
  startTestReconciler,
  type TestReconciler,
  testCertificates,
} from '@test-support/reconciler-harness';
import { reconcilerScript } from '@test-support/reconciler-process';
import { Agent, request } from 'undici';
import { SERVER_TIMEOUTS } from '../../apps/reconciler/src/http/server-timeouts';
import { READINESS_CACHE_MS } from '../../apps/reconciler/src/ops/health.controller';

// The HTTP server the admin API, /health, /metrics and /docs share: security headers everywhere (a CSP the
// Swagger UI works under), /metrics behind METRICS_TOKEN when set, slow clients cut off in seconds, readiness
// cached and liveness apart, HTTPS with ADMIN_TLS_*, and loopback only unless HOST says otherwise.

describe('the admin server', () => {
  describe('headers, metrics, timeouts and health', () => {
    const metricsToken = 'metrics-token-0123456789abcdef';
    let r: TestReconciler;
    beforeAll(async () => {
      r = await startTestReconciler({
        server: { metricsToken, uploads: { timeoutMs: 60_000, minBytesPerSecond: 1_024 } },
      });
    });
    afterAll(() => r?.close());

    it('sends security headers and no X-Powered-By, on the admin routes, errors and /docs', async () => {
      for (const [path, token] of [
        ['/admin/transfers', ADMIN_TOKEN],
        ['/admin/transfers', null],
        ['/docs', null],
        ['/docs-json', null],
        ['/health/live', null],
      ] as const) {
        const { headers, status } = await r.request('GET', path, { token });
        expect({ path, status: status < 500, poweredBy: headers.get('x-powered-by') }).toEqual({
          path,
          status: true,
          poweredBy: null,
        });
        expect(headers.get('x-content-type-options')).toBe('nosniff');
        expect(headers.get('x-frame-options')).toBe('DENY');
        expect(headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      }
    });

    it('serves the Swagger UI under its CSP: scripts from its own origin only, each one served as JavaScript', async () => {
      const docs = await r.request('GET', '/docs', { token: null });
      const csp = String(docs.headers.get('content-security-policy'));
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/upgrade-insecure-requests/);
      const scripts = [...docs.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1] as string);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) {
        // No inline script, no other origin: what script-src 'self' allows.
        const src = /src="([^"]+)"/.exec(attributes)?.[1];
        expect(src).toMatch(/^(\.\/|\/)[\w./-]+\.js$/);
        const script = await r.request('GET', new URL(src as string, `${r.url}/docs`).pathname, { token: null });
        expect({ src, status: script.status, type: script.headers.get('content-type') }).toEqual({
          src,
          status: 200,
          type: expect.stringMatching(/javascript/),
        });
      }
      const init = await r.request('GET', '/docs/swagger-ui-init.js', { token: null });
      expect(init.text).toContain('SwaggerUIBundle');
    });

    it('answers /metrics only with METRICS_TOKEN when it is set', async () => {
      expect((await r.request('GET', '/metrics', { token: null })).status).toBe(401);
      const wrong = await r.request('GET', '/metrics', { token: ADMIN_TOKEN });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual({
        statusCode: 401,
        code: 'UNAUTHORIZED',
        error: 'Unauthorized',
        message: expect.any(String),
      });
      const scrape = await r.request('GET', '/metrics', { token: metricsToken });
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('giro_movements');
    });

    it('cuts off a client trickling its body, or its headers, within seconds (408, connection closed)', async () => {
      const { port } = new URL(r.url);
      const trickle = (head: string, drip: string) =>
        new Promise<{ answer: string; ms: number }>((resolve, reject) => {
          const started = Date.now();
          const socket = connect(Number(port), '127.0.0.1');
          let answer = '';
          const timer = setInterval(() => socket.write(drip), 500);
          socket.on('data', (chunk) => {
            answer += chunk.toString('utf8');
          });
          socket.on('close', () => {
            clearInterval(timer);
            resolve({ answer, ms: Date.now() - started });
          });
          socket.on('error', reject);
          socket.write(head);
          setTimeout(() => {
            clearInterval(timer);
            socket.destroy();
            reject(new Error('the server still held the connection after 30 s'));
          }, 30_000).unref();
        });
      const body = await trickle(
        `POST /admin/transfers HTTP/1.1\r\nHost: giro\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        ' ',
      );
      // The server's 10 s and 5 s (checked every second), far from Node's defaults (300 s and 60 s); the margin is
      // for a loaded machine, where the check and this test's timers may come seconds late.
      expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(body.ms).toBeLessThan(25_000);
      const headers = await trickle('GET /admin/transfers HTTP/1.1\r\nHost: giro\r\n', 'X-Slow: 1\r\n');
      expect(headers.ms).toBeLessThan(20_000);
      console.log(`slow clients: body cut off after ${body.ms} ms, headers after ${headers.ms} ms`);
    }, 75_000);

    it('lets an upload arrive slowly but steadily past the 10 s of a request, and still cuts a trickle', async () => {
      const { port } = new URL(r.url);
      const day = '2026-11-23';
      /** Sends `head`, then `chunks` one every `everyMs`; the server's answer, and when the connection closed. */
      const upload = (chunks: string[], everyMs: number) =>
        new Promise<{ answer: string; ms: number }>((resolve, reject) => {
          const started = Date.now();
          const socket = connect(Number(port), '127.0.0.1');
          let answer = '';
          let sent = 0;
          const length = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
          const timer = setInterval(() => {
            if (sent < chunks.length) socket.write(chunks[sent++]);
          }, everyMs);
          socket.on('data', (chunk) => {
            answer += chunk.toString('utf8');
          });
          socket.on('close', () => {
            clearInterval(timer);
            resolve({ answer, ms: Date.now() - started });
          });
          socket.on('error', reject);
          socket.write(
            `POST /admin/statements?account=${FROM_CVU} HTTP/1.1\r\nHost: giro\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
              `Content-Type: text/csv\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
          );
          setTimeout(() => {
            clearInterval(timer);
            socket.destroy();
            reject(new Error('the server still held the connection after 40 s'));
          }, 40_000).unref();
        });
      // 2 KiB a second for 14 s: above the allowance's 1 KiB a second (this server's), however long it takes.
      const lines = (from: number) =>
        Array.from({ length: 32 }, (_, at) => `${day},-1.00,SLOW-${from + at},"${'x'.repeat(40)}"\n`).join('');
      const steady = ['date,amount,reference,description\n', ...Array.from({ length: 28 }, (_, at) => lines(at * 32))];
      // One byte a second: never enough.
      const trickle = Array.from({ length: 30 }, () => ' ');
      const [slow, trickled] = await Promise.all([upload(steady, 500), upload(trickle, 1_000)]);
      expect(slow.ms).toBeGreaterThan(SERVER_TIMEOUTS.requestTimeoutMs);
      expect(slow.answer).toMatch(/^HTTP\/1\.1 200/);
      expect(slow.answer).toContain('"lines":896');
      expect(trickled.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(trickled.ms).toBeLessThan(SERVER_TIMEOUTS.requestTimeoutMs + 3_000);
      console.log(`uploads: a steady one answered after ${slow.ms} ms, a trickle cut off after ${trickled.ms} ms`);
    }, 60_000);

    it('keeps liveness apart, and answers readiness from a check at most 5 s old: no handshake per call', async () => {
      expect((await r.request('GET', '/health/ready', { token: null })).json).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' }, bank: { status: 'up' } },
      });
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const started = performance.now();
        expect((await r.request('GET', '/health', { token: null })).status).toBe(200);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(`/health: 300 calls, median ${(times[150] as number).toFixed(2)} ms`);
      // With the bank gone, the cached answer stands (no new handshake), and liveness does not depend on it. The
      // calls above may have taken longer than the cache on a loaded machine, so that its last check is nearly
      // expired: once it surely is, one call checks again, and the bank stops right after.
      await sleep(READINESS_CACHE_MS);
      expect((await r.request('GET', '/health/ready', { token: null })).status).toBe(200);
      await r.stopBank();
      expect((await r.request('GET', '/health/ready', { token: null })).status).toBe(200);
      expect((await r.request('GET', '/health', { token: null })).status).toBe(200);
      expect((await r.request('GET', '/health/live', { token: null })).json).toMatchObject({ status: 'ok' });
    }, 60_000);
  });

  describe('HTTPS', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'giro-admin-tls-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('serves the admin API over TLS with ADMIN_TLS_CERT_FILE and ADMIN_TLS_KEY_FILE', async () => {
      const certs = await testCertificates();
      const files = { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server-key.pem') };
      writeFileSync(files.certFile, certs.server.cert);
      writeFileSync(files.keyFile, certs.server.key, { mode: 0o600 });
      const r = await startTestReconciler({ server: { tls: files } });
      const agent = new Agent({ connect: { ca: certs.ca.cert } });
      try {
        expect(r.url).toMatch(/^https:/);
        const answer = await request(`${r.url}/admin/transfers`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(answer.statusCode).toBe(200);
        expect(await answer.body.json()).toEqual({ items: [], nextCursor: null });
        // Plain HTTP on the same port gets no answer.
        await expect(fetch(r.url.replace('https:', 'http:'))).rejects.toThrow();
      } finally {
        await agent.close();
        await r.close();
      }
    });

    it('refuses to start with one TLS file only, naming the missing variable', async () => {
      const certs = await testCertificates();
      writeFileSync(join(dir, 'only.pem'), certs.server.cert);
      const running = startNode(reconcilerScript('main.js'), {
        cwd: dir,
        env: { PORT: '0', ADMIN_TLS_CERT_FILE: join(dir, 'only.pem'), DATABASE_URL: `sqlite:${join(dir, 'a.sqlite')}` },
      });
      expect(await running.exit).toEqual({ code: 1, signal: null });
      expect(running.output()).toContain(
        "ADMIN_TLS_KEY_FILE is required with ADMIN_TLS_CERT_FILE: the admin server's TLS needs both files, or neither",
      );
    });
  });

  describe('HOST', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'giro-admin-host-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** Starts the reconciler (sandbox mode) with `env`; true when 127.0.0.2 (another local address) reaches it. */
    const reachableFromAnotherAddress = async (env: Record<string, string>) => {
      const running = startNode(reconcilerScript('main.js'), {
        cwd: dir,
        env: { PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: `sqlite:${join(dir, `${Date.now()}.sqlite`)}`, ...env },
      });
      try {
        const ready = String((await waitForEvent(running, 'reconciler-ready', 30_000)).url);
        const port = new URL(ready).port;
        expect((await fetch(`${ready}/docs-json`)).status).toBe(200);
        return await fetch(`http://127.0.0.2:${port}/docs-json`).then(
          () => true,
          () => false,
        );
      } finally {
        running.child.kill('SIGTERM');
        await running.exit;
      }
    };

    it('listens on 127.0.0.1 only by default, and on every interface with HOST=0.0.0.0', async () => {
      expect(await reachableFromAnotherAddress({})).toBe(false);
      expect(await reachableFromAnotherAddress({ HOST: '0.0.0.0' })).toBe(true);
    }, 90_000);
  });
});
