import { readFile } from 'node:fs/promises';
import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { FROM_CVU, transferRequest } from '../support/reconciler-harness';
import { RECONCILER_HOOK_MS } from '../support/reconciler-process';
import { waitUntil } from '../support/wait-until';
import {
  type ConsoleStack,
  goTo,
  screenshot,
  signIn,
  startStackAndBrowser,
  waitShown,
  watchPage,
} from './console-stack';

// "Cierre del día" in the console, in Chromium, against a reconciler process: a viewer opens it (yesterday by
// default), picks today, sees the account's column and the totals as the API counts them, downloads the CSV and the
// .xlsx, and reads it in English too.

/** Today in Buenos Aires (UTC−03:00 all year), as the API writes days. */
const todayInBuenosAires = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
/** A day as the console's fields show it, day first. */
const typed = (day: string) => day.split('-').reverse().join('/');

describeWithChromium('the daily close in the console (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let viewer: string;

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser();
    viewer = await stack.createKey('tesoreria', 'viewer');
    for (const [originId, description] of [
      [9101, 'alquiler diciembre'],
      [9102, 'honorarios [fail]'],
      [9103, 'expensas'],
    ] as const) {
      const created = await stack.api('POST', '/admin/transfers', { body: transferRequest({ originId, description }) });
      expect(created.status).toBe(201);
    }
    await waitUntil(
      async () => {
        const statuses = await Promise.all(
          [9101, 9102, 9103].map(
            async (originId) => (await stack.api('GET', `/admin/transfers/${originId}`)).json.status,
          ),
        );
        return statuses.join() === 'COMPLETED,FAILED,COMPLETED';
      },
      30_000,
      () => 'the transfers to reach their final statuses',
    );
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows a day's close per account with its totals, and downloads it as CSV and .xlsx", async () => {
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, stack.url, viewer);
    await page.getByRole('link', { name: 'Cierre', exact: true }).click();
    await waitShown(page.getByRole('heading', { name: 'Cierre del día' }));
    // Yesterday by default.
    const yesterday = new Date(Date.now() - 27 * 3_600_000).toISOString().slice(0, 10);
    const dayField = page.getByRole('textbox', { name: 'Día del cierre' });
    expect(await dayField.inputValue()).toBe(typed(yesterday));

    const today = todayInBuenosAires();
    await dayField.fill(typed(today));
    await page.getByRole('button', { name: 'Ver', exact: true }).click();
    const cell = (figure: string, account: string) =>
      page.locator(`tr[data-figure="${figure}"] td[data-account="${account}"]`);
    await waitShown(cell('created', FROM_CVU));
    const { json: close } = await stack.api('GET', `/admin/reports/daily?date=${today}`);
    expect(close.totals.created.count).toBe(3);
    expect(close.totals.completed.count).toBe(2);
    expect(close.totals.failed.count).toBe(1);
    await waitShown(cell('created', FROM_CVU).getByText('cantidad: 3'));
    await waitShown(cell('failed', FROM_CVU).getByText('0 registradas, 1 sin registrar'));
    await waitShown(cell('completed', 'total').getByText('cantidad: 2'));
    await screenshot(page, 'daily-close');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`giro-close-${today}.csv`);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith(`${today},${FROM_CVU},3,${close.totals.created.amount},`)).toBe(true);
    const [workbook] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar .xlsx' }).click(),
    ]);
    // An .xlsx is a zip: it starts with PK.
    expect((await readFile(await workbook.path())).subarray(0, 2).toString('latin1')).toBe('PK');

    // The account is chosen among the configured source accounts, as on "Programadas", not typed.
    const accountField = page.getByRole('combobox', { name: 'Cuenta de origen' });
    await accountField.locator('option', { hasText: FROM_CVU }).waitFor({ state: 'attached' });
    expect(await accountField.locator('option').allTextContents()).toEqual(['Todas', FROM_CVU]);
    await accountField.selectOption(FROM_CVU);
    await page.getByRole('button', { name: 'Ver', exact: true }).click();
    await page.waitForURL(new RegExp(`account=${FROM_CVU}`));
    await waitShown(cell('created', FROM_CVU).getByText('cantidad: 3'));
    // An account in the address that is not one stays chosen, and the field says what the API answered.
    await goTo(page, `close?date=${today}&account=123`);
    await waitShown(page.locator('#close-account-error'));
    expect(await accountField.inputValue()).toBe('123');

    await page.getByLabel('Idioma').selectOption('en');
    await goTo(page, `close?date=${today}`);
    await waitShown(page.getByRole('heading', { name: 'Daily close' }));
    await waitShown(cell('created', FROM_CVU).getByText('count: 3'));
    await screenshot(page, 'daily-close-en');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
