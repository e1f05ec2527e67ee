import type { Page } from 'playwright-core';
import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { ADMIN_TOKEN, FROM_CVU, transferRequest } from '../support/reconciler-harness';
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
import {
  brokenAccounts,
  cutIdentity,
  foreignWords,
  headerOnOneLine,
  legendsOnTheirFrame,
  monthFirstDays,
  overflowingTables,
} from './page-checks';

// Every page of the console in Spanish and in English, with the refusals each can show (a transfer that does not
// exist, a filter the API refuses, a form's field errors, a name taken, a page the role may not use): no word of
// the other language on any of them, every day written day first (dd/mm/yyyy in English too), no table wider than
// its box, no account number broken and the header on one line at a laptop's two widths (1366 and 1024 px wide,
// 768 tall). Each page's screenshot at each width is kept in test-artifacts/console/
// (languages-<lang>-<page>-<width>.png) for people to look at.

const WIDTHS = [1366, 1024] as const;
const LANGS = ['es', 'en'] as const;
type Lang = (typeof LANGS)[number];

const COMPLETED = 7001;
const FAILED = 7002;
const REFUSED_BY_BANK = 7003;
const AWAITING = 7004;
/** Asked for Christmas: sent on the next business day. */
const SCHEDULED = 7005;
const MISSING = 7999;
/** Today in Buenos Aires (UTC−03:00 all year), as the API writes days: the day the walk's transfers are in. */
const TODAY = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

/** A page of the walk: where it is, and what shows it has loaded (in each language). */
interface Stop {
  name: string;
  route: string;
  shows: Record<Lang, RegExp>;
  /** What to do on the page before it is checked (fill a form and send it, say). */
  act?(page: Page, lang: Lang): Promise<void>;
}

const STOPS: Stop[] = [
  // The one completed transfer: a count of one said in the singular.
  { name: 'dashboard', route: '', shows: { es: /en 1 transferencia$/, en: /in 1 transfer$/ } },
  { name: 'transfers', route: 'transfers', shows: { es: /en esta página/, en: /on this page/ } },
  {
    name: 'transfers-refused-filter',
    route: 'transfers?amountMin=abc',
    shows: { es: /Importe inválido/, en: /Not an amount/ },
  },
  {
    name: 'transfer-completed',
    route: `transfers/${COMPLETED}`,
    shows: { es: /Historia de estados/, en: /Status history/ },
  },
  { name: 'transfer-failed', route: `transfers/${FAILED}`, shows: { es: /Falló/, en: /Failed at/ } },
  {
    name: 'transfer-refused-by-bank',
    route: `transfers/${REFUSED_BY_BANK}`,
    shows: { es: /El banco rechazó el pedido/, en: /The bank refused the transfer request/ },
  },
  {
    name: 'transfer-awaiting',
    route: `transfers/${AWAITING}`,
    shows: { es: /Aprobar esta transferencia/, en: /Approve this transfer/ },
  },
  {
    name: 'transfer-missing',
    route: `transfers/${MISSING}`,
    shows: { es: /No hay una transferencia con originId 7999/, en: /No transfer has originId 7999/ },
  },
  {
    name: 'create-refused',
    route: 'new',
    shows: { es: /Revisá los campos marcados/, en: /Check the fields marked/ },
    async act(page) {
      // A destination whose check digit is wrong, and no amount: refused, each field said in the language.
      await page.locator('#create-from-address option', { hasText: FROM_CVU }).waitFor({ state: 'attached' });
      await page.locator('#create-to-address').fill('2850590994009004181357');
      await page.locator('#create-body-amount').fill('0');
      await page.locator('form button[type="submit"]').click();
    },
  },
  { name: 'batch', route: 'batch', shows: { es: /Lote/, en: /Batch/ } },
  { name: 'scheduled', route: 'scheduled', shows: { es: /pedida para el 25\/12\/2026/, en: /asked for 25\/12\/2026/ } },
  {
    name: 'scheduled-refused-filter',
    route: 'scheduled?day=abc',
    shows: { es: /No es un día válido/, en: /Not a valid day/ },
  },
  {
    name: 'transfer-scheduled',
    route: `transfers/${SCHEDULED}`,
    shows: { es: /Anular esta transferencia/, en: /Cancel this transfer/ },
  },
  { name: 'cancellations', route: 'cancellations', shows: { es: /Número de registro/, en: /Registration reference/ } },
  { name: 'anomalies', route: 'anomalies', shows: { es: /El banco respondió/, en: /The bank answered/ } },
  { name: 'approvals', route: 'approvals', shows: { es: /Vence/, en: /Expires/ } },
  {
    name: 'payees',
    route: 'payees',
    shows: { es: /Buscar por cuenta, CUIT, nombre o etiqueta/, en: /Search by account, CUIT, name or label/ },
  },
  {
    name: 'daily-close',
    route: `close?date=${TODAY}`,
    shows: { es: /Pendientes al cierre/, en: /Pending at the end/ },
  },
  { name: 'daily-close-refused', route: 'close?date=2026-02-30', shows: { es: /No es un día/, en: /Not a day/ } },
  { name: 'webhooks', route: 'webhooks', shows: { es: /Nuevo destino/, en: /New endpoint/ } },
  {
    name: 'webhook-endpoint',
    route: 'webhooks',
    shows: { es: /Entregas a/, en: /Deliveries to/ },
    async act(page) {
      await page.locator('table button').first().click();
    },
  },
  { name: 'audit', route: 'audit', shows: { es: /Crear una clave/, en: /Create a key/ } },
  {
    name: 'keys-refused',
    route: 'keys',
    shows: { es: /Ya hay una clave con ese nombre/, en: /A key has that name already/ },
    async act(page) {
      await page.locator('#key-name').fill('ops');
      await page.locator('form button[type="submit"]').click();
    },
  },
];

describeWithChromium('the console in each language, at a laptop’s widths (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let viewer: string;

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser({ APPROVAL_REQUIRED_ABOVE: '5000', WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const operator = await stack.createKey('ops', 'operator');
    viewer = await stack.createKey('auditor', 'viewer');
    // An endpoint nothing listens at: its deliveries fail, with giro's account of why.
    const endpoint = await stack.api('POST', '/admin/webhooks', { body: { url: 'https://127.0.0.1:9/hook' } });
    expect(endpoint.status).toBe(201);
    for (const [originId, description] of [
      [COMPLETED, 'alquiler noviembre'],
      [FAILED, 'honorarios [fail]'],
      [REFUSED_BY_BANK, 'expensas [reject]'],
    ] as const) {
      const created = await stack.api('POST', '/admin/transfers', { body: transferRequest({ originId, description }) });
      expect(created.status).toBe(201);
    }
    const awaiting = await stack.api('POST', '/admin/transfers', {
      key: operator,
      body: transferRequest({ originId: AWAITING, amount: '8000.00', description: 'proveedor factura 77' }),
    });
    expect(awaiting.status).toBe(201);
    const scheduled = await stack.api('POST', '/admin/transfers', {
      body: { ...transferRequest({ originId: SCHEDULED, description: 'sueldos diciembre' }), executeOn: '2026-12-25' },
    });
    expect(scheduled.json.status).toBe('SCHEDULED');
    await waitUntil(
      async () => {
        const statuses = await Promise.all(
          [COMPLETED, FAILED, REFUSED_BY_BANK].map(
            async (originId) => (await stack.api('GET', `/admin/transfers/${originId}`)).json.status,
          ),
        );
        return statuses.join() === 'COMPLETED,FAILED,FAILED';
      },
      25_000,
      () => 'the transfers to reach their final statuses',
    );
    // A later answer contradicting a final status: an anomaly to show.
    await stack.contradict(COMPLETED, 'FAILED', 'final status contradicted');
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  for (const lang of LANGS) {
    it(`speaks only ${lang === 'es' ? 'Spanish' : 'English'} on every page, whose tables fit at 1366 and 1024 px`, async () => {
      const page = await browser.context.newPage();
      const seen = watchPage(page);
      await page.setViewportSize({ width: WIDTHS[0], height: 768 });
      await page.goto(`${stack.url}/console`);
      await setLang(page, lang);
      // The detector itself: a sentence of the other language put on the page is found; marked as such, it is not.
      const planted = lang === 'es' ? 'the transfer failed' : 'la transferencia falló';
      await page.evaluate(`document.body.insertAdjacentHTML('beforeend', '<p id="planted">${planted}</p>')`);
      expect(await foreignWords(page, lang)).toHaveLength(1);
      await page.evaluate(`document.getElementById('planted').lang = '${lang === 'es' ? 'en' : 'es'}'`);
      expect(await foreignWords(page, lang)).toEqual([]);
      await page.evaluate(`document.getElementById('planted').remove()`);
      const problems = await check(page, lang, 'sign-in');
      await page.getByLabel(lang === 'es' ? 'Clave de API' : 'API key').fill(ADMIN_TOKEN);
      await page.locator('form button[type="submit"]').click();
      await waitShown(page.locator('main h1'));

      for (const stop of STOPS) {
        await goTo(page, stop.route);
        await stop.act?.(page, lang);
        await waitShown(page.locator('main').getByText(stop.shows[lang]).locator('visible=true').first());
        problems.push(...(await check(page, lang, stop.name)));
      }

      // A page the role may not use says which role it is for.
      await page.evaluate('sessionStorage.clear()');
      await page.reload();
      await page.getByLabel(lang === 'es' ? 'Clave de API' : 'API key').fill(viewer);
      await page.locator('form button[type="submit"]').click();
      await waitShown(page.locator('header.top'));
      await goTo(page, 'new');
      await waitShown(
        page.getByText(
          lang === 'es'
            ? 'Esta página es para el rol operador; tu clave tiene el rol lectura.'
            : 'This page is for the operator role; your key has the viewer role.',
        ),
      );
      problems.push(...(await check(page, lang, 'role-refused')));

      expect(problems).toEqual([]);
      expect(seen.errors).toEqual([]);
      await page.close();
    }, 180_000);
  }

  it('approves a transfer from its own page, for an approver who did not create it', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.url}/console`);
    await setLang(page, 'es');
    // Another person's key: minted by an admin key of their own, not by the operator's minter.
    const lead = await stack.createKey('checker-lead', 'admin');
    await signIn(page, stack.url, await stack.createKey('checker', 'approver', lead));
    await goTo(page, `transfers/${AWAITING}`);
    await page.getByRole('button', { name: 'Aprobar esta transferencia' }).click();
    await waitShown(page.getByText('Aprobada: se envía al banco.'));
    const approved = await stack.api('GET', `/admin/transfers/${AWAITING}`);
    expect(approved.json.approval.decision).toBe('approved');
    expect(approved.json.status).not.toBe('AWAITING_APPROVAL');
    await page.close();
  });

  it('ticks a cancellation when its registration number is typed, and asks before registering one without', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.url}/console`);
    await setLang(page, 'es');
    await signIn(page, stack.url, ADMIN_TOKEN);
    await goTo(page, 'cancellations');
    const failed = page.locator(`tr[data-origin-id="${FAILED}"]`);
    const refused = page.locator(`tr[data-origin-id="${REFUSED_BY_BANK}"]`);
    await waitShown(failed);
    await failed.getByRole('textbox').fill('REG-1');
    expect(await failed.getByRole('checkbox').isChecked()).toBe(true);
    await refused.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Marcar como registradas (2)' }).click();
    // Asked first, naming the one without a number; nothing registered yet.
    await waitShown(page.getByText(`Sin número de registro: ${REFUSED_BY_BANK}.`));
    expect((await stack.api('GET', `/admin/transfers/${FAILED}`)).json.cancellation.acknowledgedAt).toBeNull();
    await page.getByRole('button', { name: 'No, volver' }).click();
    await refused.getByRole('textbox').fill('REG-2');
    await page.getByRole('button', { name: 'Marcar como registradas (2)' }).click();
    await waitShown(page.getByText('Marcadas como registradas: 2.'));
    const registered = await stack.api('GET', `/admin/transfers/${REFUSED_BY_BANK}`);
    expect(registered.json.cancellation.reference).toBe('REG-2');
    await page.close();
  });
});

async function setLang(page: Page, lang: Lang): Promise<void> {
  await page.locator('#lang').selectOption(lang);
  await page.waitForFunction(`document.documentElement.lang.startsWith(${JSON.stringify(lang)})`);
}

/** What is wrong with the page shown, at each width: words of the other language, and what does not fit. */
async function check(page: Page, lang: Lang, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const word of await foreignWords(page, lang)) problems.push(`${name}: ${word}`);
  for (const day of await monthFirstDays(page)) problems.push(`${name}: a day not written day first: ${day}`);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 768 });
    for (const table of await overflowingTables(page)) problems.push(`${name} at ${width}: table too wide: ${table}`);
    for (const account of await brokenAccounts(page)) problems.push(`${name} at ${width}: account broken: ${account}`);
    for (const legend of await legendsOnTheirFrame(page))
      problems.push(`${name} at ${width}: legend on its frame: ${legend}`);
    if (!(await headerOnOneLine(page))) problems.push(`${name} at ${width}: the header wraps`);
    const cut = await cutIdentity(page);
    if (cut !== undefined) problems.push(`${name} at ${width}: who is signed in is cut: ${cut}`);
    await screenshot(page, `languages-${lang}-${name}-${width}`);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 768 });
  return problems;
}
