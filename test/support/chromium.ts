import { existsSync } from 'node:fs';
import { CHROMIUM_PATH, launchQuietChromium, type QuietBrowser } from '../../bench/src/console-speed/quiet-chromium';

// The browser suites drive Debian's Chromium (launched as bench/src/console-speed/quiet-chromium.ts says). They
// need it: without it they fail, naming what to install (a skipped browser test would prove nothing).

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

export type TestBrowser = QuietBrowser;

/**
 * A wait in a browser test gives up after this long, well inside Jest's 30 s for a test, so a step that never
 * comes fails naming its locator and what Playwright saw (not visible, covered, disabled) instead of a bare timeout.
 */
const BROWSER_STEP_TIMEOUT_MS = 15_000;

/** Chromium for a test, downloads accepted (the console's CSV export). */
export async function launchChromium(): Promise<TestBrowser> {
  const browser = await launchQuietChromium({ profilePrefix: 'giro-chromium-', acceptDownloads: true });
  browser.context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  return browser;
}
