import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// Debian's Chromium (`apt-get install -y chromium`), driven by playwright-core: Playwright's own browser downloads
// cannot be fetched here, so the installed browser is launched by its path. The browser suites need it: without it
// they fail, naming what to install (a skipped browser test would prove nothing).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `describe` for suites that need Chromium: when it is absent, every test fails with the way to install it. */
export const describeWithChromium = ((name: string, suite: () => void) =>
  describe(name, () => {
    beforeAll(() => {
      if (!existsSync(CHROMIUM_PATH)) {
        throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
      }
    });
    suite();
  })) as (name: string, suite: () => void) => void;

/** The flags of a quiet test browser: no sandbox (containers), no GPU, nothing fetched in the background. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile of its own (`--user-data-dir`), removed at close. Each page is a tab: the console
 * keeps its key in sessionStorage, which is per tab, so several people can be signed in side by side.
 */
export async function launchChromium(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'giro-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
