import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// Debian's Chromium (`apt-get install -y chromium`), driven by playwright-core: Playwright's own browser downloads
// cannot be fetched here, so the installed browser is launched by its path. One launch for the console's browser
// tests (test/support/chromium.ts) and its speed bench: the bench is built from bench/src alone, so the tests take
// it from here.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags of a quiet browser: no sandbox (containers), no GPU, nothing fetched in the background. */
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

export interface QuietBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium as a person in Buenos Aires sees the console (es-AR, their time zone, a laptop's window), with a fresh
 * profile of its own (`--user-data-dir`), removed at close. Each page is a tab: the console keeps its key in
 * sessionStorage, which is per tab, so several people can be signed in side by side.
 */
export async function launchQuietChromium(options: {
  profilePrefix: string;
  acceptDownloads?: boolean;
}): Promise<QuietBrowser> {
  const profile = mkdtempSync(join(tmpdir(), options.profilePrefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
    acceptDownloads: options.acceptDownloads ?? false,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
