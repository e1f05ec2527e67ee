import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import { MovementStore } from '@giro/transfer-module/persistence';
import type { Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { launchChromium, type TestBrowser } from '../support/chromium';
import { ADMIN_TOKEN, testCertificates } from '../support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from '../support/reconciler-process';

// What the console's browser tests run against: the reconciler as `pnpm start` runs it (the build in dist, with
// the console bundled: `pnpm build:js` first), against a sandbox bank in this process, on an SQLite file of its
// own, with the polling rule scaled down so transfers settle in seconds while a test watches.

/** Where the screenshots go (gitignored): CI keeps them as artifacts; people look at them. */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'console');

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  json: any;
  text: string;
}

export interface ConsoleStack {
  url: string;
  bank: SandboxBank;
  reconciler: ReconcilerProcess;
  /** An admin API request with `key` (default: the admin token). */
  api(method: string, path: string, options?: { key?: string; body?: unknown; csv?: string }): Promise<ApiAnswer>;
  /** A new API key with this role, made with the admin token. */
  /** A key minted with `mintedWith` (default the admin token). */
  createKey(name: string, role: 'viewer' | 'operator' | 'approver' | 'admin', mintedWith?: string): Promise<string>;
  /**
   * Records a bank answer claiming `claimed` for the final movement `originId`, as the sender records one: an
   * anomaly, never applied. The sandbox never contradicts a final status on its own.
   */
  contradict(originId: number, claimed: 'COMPLETED' | 'FAILED', reason: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The stack and a browser, started side by side. When either fails the other is closed: a reconciler left
 * running by a suite whose browser could not start would outlive the test run.
 */
export async function startStackAndBrowser(
  extraEnv: Record<string, string> = {},
): Promise<[ConsoleStack, TestBrowser]> {
  const [stack, browser] = await Promise.allSettled([startConsoleStack(extraEnv), launchChromium()]);
  if (stack.status === 'fulfilled' && browser.status === 'fulfilled') return [stack.value, browser.value];
  if (stack.status === 'fulfilled') await stack.value.close();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw stack.status === 'rejected' ? stack.reason : (browser as PromiseRejectedResult).reason;
}

export async function startConsoleStack(extraEnv: Record<string, string> = {}): Promise<ConsoleStack> {
  const dir = mkdtempSync(join(tmpdir(), 'giro-console-e2e-'));
  const databaseUrl = `sqlite:${join(dir, 'giro.sqlite')}`;
  const certs = await testCertificates();
  // Slow enough to watch a transfer move (CREATED → IN_PROGRESS → COMPLETED in about 4 s), fast enough to wait for.
  const bank = await startSandboxBank({
    tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
    config: {
      polling: { minIntervalMs: 500, delayedMinIntervalMs: 2_000 },
      timings: { createdMs: 1_500, inProgressMs: 2_000, delayedMs: 3_000 },
    },
  });
  let reconciler: ReconcilerProcess | undefined;
  try {
    reconciler = await startReconcilerProcess(dir, {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: databaseUrl,
      POLL_MIN_INTERVAL_MS: '500',
      DELAYED_MIN_INTERVAL_MS: '2000',
      SWEEP_INTERVAL_MS: '500',
      // A browser loads the page and its two files at every visit, without a key: the per-address budget for
      // requests without a credential is sized for people, not for a test opening page after page.
      ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '10000',
      ...extraEnv,
    });
  } catch (error) {
    await bank.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = reconciler;
  const url = running.url;

  const api: ConsoleStack['api'] = async (method, path, { key = ADMIN_TOKEN, body, csv } = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(csv !== undefined && { 'content-type': 'text/csv' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(csv !== undefined && { body: csv }),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  };

  return {
    url,
    bank,
    reconciler: running,
    api,
    async createKey(name, role, mintedWith = ADMIN_TOKEN) {
      const created = await api('POST', '/admin/keys', { body: { name, role }, key: mintedWith });
      if (created.status !== 201) throw new Error(`key ${name} not created: ${created.status} ${created.text}`);
      return created.json.key as string;
    },
    async contradict(originId, claimed, reason) {
      // The reconciler's own file, opened beside it; the movement is final, so no worker holds its lease.
      const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
      try {
        const store = new MovementStore(dataSource, systemClock);
        if ((await store.claim(originId, 'console-e2e-anomaly', 30_000)) === null) {
          throw new Error(`movement ${originId} is held by a worker`);
        }
        const written = await store.applyUpdate(originId, 'console-e2e-anomaly', {
          patch: {},
          history: [{ to: claimed, source: 'anomaly', detail: { reason } }],
          releaseLease: true,
        });
        if (!written.applied) throw new Error(`the anomaly of ${originId} was not written`);
      } finally {
        await dataSource.destroy();
      }
    },
    async close() {
      await killIfRunning([running]);
      await bank.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens the console in a new tab and signs in with `key`; resolves once the dashboard shows. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel('Clave de API').fill(key);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await waitShown(page.getByRole('heading', { name: 'Resumen' }));
}

/**
 * Waits for `locator` to be shown. When it never is, the error also says where the page was and what its main part
 * showed (an error notice, an empty list, another page), which Playwright's own message does not.
 */
export async function waitShown(locator: Locator): Promise<void> {
  try {
    await locator.waitFor();
  } catch (error) {
    const page = locator.page();
    const shown = await page
      .locator('main')
      .textContent({ timeout: 1_000 })
      .catch(() => '(no main element)');
    throw new Error(`${(error as Error).message}\nThe page was at ${page.url()} and showed:\n${shown}`);
  }
}

/** Goes to a page of the console (`transfers/1001`) without reloading it, as its links do. */
export async function goTo(page: Page, route: string): Promise<void> {
  // A string: this runs in the page, whose globals the tests' type check does not know.
  await page.evaluate(`location.hash = ${JSON.stringify(`#/${route}`)}`);
}

/** A full-page screenshot in test-artifacts/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** What would show a script ran where it must not, or the console broke: dialogs, uncaught errors, CSP refusals. */
export function watchPage(page: Page): { dialogs: string[]; errors: string[] } {
  const seen = { dialogs: [] as string[], errors: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  // What the console's Content-Security-Policy refused (an inline style, a foreign request): Chromium says it here.
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) seen.errors.push(message.text());
  });
  return seen;
}
