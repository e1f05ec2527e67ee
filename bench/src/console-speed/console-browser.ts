import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FORM_FIELDS, type FormFill } from './console-searches';
import { CHROMIUM_PATH, launchQuietChromium, type QuietBrowser } from './quiet-chromium';

// Chromium driving the console as an operator does, with the page's own clock (performance.now()) for every
// figure; launched as the console's browser tests launch it (quiet-chromium.ts).

export { CHROMIUM_PATH };

export const chromiumPresent = (): boolean => existsSync(CHROMIUM_PATH);

export const launchBenchChromium = (): Promise<QuietBrowser> =>
  launchQuietChromium({ profilePrefix: 'giro-bench-chromium-' });

/** As the console tests' signIn (test/console/console-stack.ts): the key pasted, the dashboard shown. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel('Clave de API').fill(key);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: 'Resumen' }).waitFor();
}

/** The text of the transfers page's live line while a page loads (es-AR, the console's default language). */
const LOADING = 'Cargando';
const SECTION = 'section[aria-labelledby="transfers-title"]';
const LIVE = `${SECTION} p.muted[aria-live]`;

/**
 * Runs in every document of the measuring tab from its start: notes (in `window.__giroFirstPage`) when the
 * transfers page first shows its rows — the live line says how many, no longer loading — and when the frame
 * after that was produced. Times are the page's performance.now(): milliseconds since its navigation started.
 */
const FIRST_PAGE_SCRIPT = `(() => {
  const seen = {};
  window.__giroFirstPage = seen;
  const observer = new MutationObserver(() => {
    if (seen.rowsAt !== undefined || !location.hash.startsWith('#/transfers')) return;
    const live = document.querySelector(${JSON.stringify(LIVE)});
    if (!live || live.textContent.startsWith(${JSON.stringify(LOADING)})) return;
    seen.rowsAt = performance.now();
    seen.rows = document.querySelectorAll(${JSON.stringify(`${SECTION} tbody tr`)}).length;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { seen.paintedAt = performance.now(); }));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

export interface ResourceTiming {
  /** `app.js`, `admin/me`, `admin/transfers`… */
  name: string;
  startMs: number;
  /** Sent to first byte: the server's time plus a loopback round trip. */
  waitMs: number;
  endMs: number;
  /** 0 when served from the browser's cache. */
  transferBytes: number;
}

export interface FirstPageSample {
  /** Navigation start → the rows in the DOM. */
  rowsMs: number;
  /** Navigation start → the frame after that produced. */
  paintedMs: number;
  rows: number;
  /** The document's response end. */
  documentMs: number;
  resources: ResourceTiming[];
}

const RESOURCES_EXPRESSION = `performance.getEntriesByType('resource').map((entry) => ({
  name: entry.name.replace(location.origin, ''),
  startMs: entry.startTime,
  waitMs: entry.responseStart > 0 ? entry.responseStart - entry.requestStart : NaN,
  endMs: entry.responseEnd,
  transferBytes: entry.transferSize,
}))`;

/** `runs` loads of `/console#/transfers` (after one untimed, for a warm cache), each a fresh document. */
export async function measureFirstPage(page: Page, url: string, runs: number): Promise<FirstPageSample[]> {
  await page.addInitScript(FIRST_PAGE_SCRIPT);
  const samples: FirstPageSample[] = [];
  for (let run = 0; run <= runs; run++) {
    // From another document, so the console's address is a new load and not a change of its hash.
    await page.goto('about:blank');
    await page.goto(`${url}/console#/transfers`, { waitUntil: 'commit' });
    await waitInPage(page, 'window.__giroFirstPage !== undefined && window.__giroFirstPage.paintedAt !== undefined');
    const sample = (await page.evaluate(`(() => {
      const seen = window.__giroFirstPage;
      const navigation = performance.getEntriesByType('navigation')[0];
      return { rowsMs: seen.rowsAt, paintedMs: seen.paintedAt, rows: seen.rows,
        documentMs: navigation ? navigation.responseEnd : NaN, resources: ${RESOURCES_EXPRESSION} };
    })()`)) as FirstPageSample;
    if (sample.rows === 0) throw new Error('the transfers page showed no rows on a seeded history');
    if (run > 0) samples.push(sample);
  }
  return samples;
}

export interface SearchSample {
  /** The submit click → the result rows (or the empty state) in the DOM. */
  rowsMs: number;
  /** The submit click → the frame after that produced. */
  paintedMs: number;
  rows: number;
  /** The click → the page's fetch of GET /admin/transfers started: the page's work before asking. */
  beforeRequestMs: number;
  /** That fetch started → its answer fully received (the browser's resource timing). */
  apiMs: number;
  /** Of which the request sent → its first byte: the server's time plus a loopback round trip. */
  waitMs: number;
  /** The API's answer received → the rows in the DOM: the page's own work. */
  renderMs: number;
  /** The console showed an error instead (the API's message). */
  error?: string;
}

/** Types `fill` into the search form, as a person would (every other field emptied). */
async function fillForm(page: Page, fill: FormFill): Promise<void> {
  await page.selectOption('#filter-status', fill.status);
  // The less common filters are behind "Más filtros": opened, as a person would, to reach them.
  await page.evaluate(`document.querySelector('details.more-filters').open = true`);
  for (const field of FORM_FIELDS) await page.fill(`#filter-${field}`, fill.fields[field] ?? '');
}

/**
 * Clicks the form's submit button in the page and waits for the answer on screen. The console mounts the
 * transfers page afresh for each address (pages/current-page.tsx keys it by its query): the search's page is a
 * new section, whose live line appears with its count once the answer is in, with the rows in the same render
 * (or an error notice instead). Resolves `{ same: true }` when the click left the address unchanged (the same
 * search as shown: no new load).
 */
const SUBMIT_AND_WAIT = `new Promise((resolve) => {
  const before = document.querySelector(${JSON.stringify(SECTION)});
  const button = before.querySelector('form.filters button[type="submit"]');
  performance.clearResourceTimings();
  let done = false;
  const hashBefore = location.hash;
  const timer = setTimeout(() => finish({ timeout: true }), 60000);
  const finish = (result) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    observer.disconnect();
    resolve(result);
  };
  const observer = new MutationObserver(() => {
    if (done) return;
    const section = document.querySelector(${JSON.stringify(SECTION)});
    if (section === null || section === before) return;
    const live = section.querySelector('p.muted[aria-live]');
    const error = section.querySelector('.notice-error')?.textContent;
    if (!error && (live === null || live.textContent.startsWith(${JSON.stringify(LOADING)}))) return;
    const rowsAt = performance.now();
    const rows = section.querySelectorAll('tbody tr').length;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => {
      const paintedAt = performance.now();
      const api = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/admin/transfers?')).pop();
      finish({ clickAt, rowsAt, paintedAt, rows, error, apiStart: api ? api.startTime : NaN,
        apiEnd: api ? api.responseEnd : NaN, apiWait: api && api.responseStart > 0 ? api.responseStart - api.requestStart : NaN });
    }));
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  const clickAt = performance.now();
  button.click();
  if (location.hash === hashBefore) finish({ same: true });
})`;

interface SubmitResult {
  same?: boolean;
  timeout?: boolean;
  clickAt: number;
  rowsAt: number;
  paintedAt: number;
  rows: number;
  error?: string | null;
  apiStart: number;
  apiEnd: number;
  apiWait: number;
}

/** Fills and submits one search; times the click to the rows on screen. */
export async function timeSearch(page: Page, fill: FormFill): Promise<SearchSample> {
  await fillForm(page, fill);
  await waitUntilLoaded(page);
  let result = (await page.evaluate(SUBMIT_AND_WAIT)) as SubmitResult;
  if (result.same) {
    // The same search as the one shown: the page loads nothing. Cleared first (untimed), as a person would.
    await page.getByRole('link', { name: 'Limpiar' }).click();
    await waitInPage(page, `location.hash === '#/transfers'`);
    await waitUntilLoaded(page);
    await fillForm(page, fill);
    await waitUntilLoaded(page);
    result = (await page.evaluate(SUBMIT_AND_WAIT)) as SubmitResult;
  }
  if (result.same || result.timeout) throw new Error(`the search ${JSON.stringify(fill)} did not answer in 60 s`);
  return {
    rowsMs: result.rowsAt - result.clickAt,
    paintedMs: result.paintedAt - result.clickAt,
    rows: result.rows,
    beforeRequestMs: result.apiStart - result.clickAt,
    apiMs: result.apiEnd - result.apiStart,
    waitMs: result.apiWait,
    renderMs: result.rowsAt - result.apiEnd,
    ...(result.error && { error: result.error }),
  };
}

/** Waits until the transfers page is not loading (its live line shows a count). */
export async function waitUntilLoaded(page: Page): Promise<void> {
  await waitInPage(
    page,
    `(() => { const live = document.querySelector(${JSON.stringify(LIVE)}); return live !== null && !live.textContent.startsWith(${JSON.stringify(LOADING)}); })()`,
  );
}

/**
 * Polls `condition` (an expression) in the page every 10 ms until it holds, for up to a minute. Not Playwright's
 * waitForFunction: that evaluates its string with eval, which the console's Content-Security-Policy refuses.
 */
async function waitInPage(page: Page, condition: string): Promise<void> {
  const held = await page.evaluate(`new Promise((resolve) => {
    const deadline = performance.now() + 60000;
    const check = () => {
      if (${condition}) resolve(true);
      else if (performance.now() > deadline) resolve(false);
      else setTimeout(check, 10);
    };
    check();
  })`);
  if (held !== true) throw new Error(`the page did not reach ${condition} within 60 s`);
}
