import { businessDayBounds, businessDayOf, completeCbuCvu } from '@giro/transfer-module';
import type { Page } from 'playwright-core';
import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { ADMIN_TOKEN, FROM_CVU, TO_CBU, transferRequest } from '../support/reconciler-harness';
import { RECONCILER_HOOK_MS } from '../support/reconciler-process';
import {
  type ConsoleStack,
  goTo,
  screenshot,
  signIn,
  startStackAndBrowser,
  waitShown,
  watchPage,
} from './console-stack';
import { foreignWords, overflowingTables } from './page-checks';

// Scheduled transfers in the console, in Chromium: the "Programadas" page (by moment, by day and account, its totals
// per day and account for every transfer the filter takes beyond the page, several canceled at once after a dialog), the dashboard's figures for today and tomorrow, a transfer's schedule and its
// cancel, the create form's sending day, the batch preview's day and payee flags (a first payment, a blocked
// account) with the CUIT right under its account, and the approvals' money preview and per-row decisions.
// Screenshots at 1366 and 1024 px in test-artifacts/console/scheduled-*.png.

const NBSP = '\u00a0';
const sample = transferRequest();
/** An account the payee book blocks: a transfer to it is refused, in a batch row too. */
const BLOCKED = completeCbuCvu('2850590', '9400900418199');
/** Christmas: a holiday, moved to the next business day (Monday) by the default policy, sent at 09:00. */
const CHRISTMAS = '2026-12-25';
const CHRISTMAS_SENT = '2026-12-28T12:00:00.000Z';

function scheduledRequest(originId: number, schedule: { executeOn: string } | { executeAt: string }, amount: string) {
  return { ...transferRequest({ originId, amount, description: `programada ${originId}` }), ...schedule };
}

/** Noon of tomorrow in Buenos Aires, and a moment later today there (when today has one left a while ahead). */
function todayAndTomorrow(): { today: string; tomorrow: string; todayAt: string; tomorrowAt: string } {
  const now = Date.now();
  const today = businessDayOf(new Date(now));
  const tomorrow = businessDayOf(businessDayBounds(today).end);
  return {
    today,
    tomorrow,
    todayAt: new Date(now + 60 * 60_000).toISOString(),
    tomorrowAt: `${tomorrow}T12:00:00-03:00`,
  };
}

describeWithChromium('scheduled transfers in the console (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let operator: string;
  let approver: string;
  const days = todayAndTomorrow();

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser({ APPROVAL_REQUIRED_ABOVE: '5000' });
    operator = await stack.createKey('ops', 'operator');
    // Another person's key: minted by an admin key of their own, so that it may approve the operator's transfers.
    approver = await stack.createKey('checker', 'approver', await stack.createKey('lead', 'admin'));
    for (const [originId, schedule, amount] of [
      [8101, { executeOn: CHRISTMAS }, '1500.00'],
      [8102, { executeOn: CHRISTMAS }, '2500.50'],
      [8103, { executeOn: '2027-01-05' }, '100.00'],
      [8104, { executeAt: days.todayAt }, '1234.50'],
      [8105, { executeAt: days.tomorrowAt }, '10.00'],
    ] as const) {
      const created = await stack.api('POST', '/admin/transfers', {
        key: operator,
        body: scheduledRequest(originId, schedule, amount),
      });
      expect(created.json.status).toBe('SCHEDULED');
    }
    expect((await stack.api('POST', `/admin/payees/${BLOCKED}/block`)).status).toBe(200);
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function openAs(key: string, width = 1366): Promise<{ page: Page; seen: ReturnType<typeof watchPage> }> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 768 });
    const seen = watchPage(page);
    await signIn(page, stack.url, key);
    return { page, seen };
  }

  it("shows today's and tomorrow's scheduled transfers on the dashboard, count and amount", async () => {
    const { page, seen } = await openAs(operator);
    const card = page.getByTestId('dashboard-scheduled');
    await waitShown(card);
    // The moment an hour ahead is today's unless today ends before it.
    const todayHas8104 = businessDayOf(new Date(days.todayAt)) === days.today;
    const todayLine = card.locator(`li[data-day="${days.today}"]`);
    const tomorrowLine = card.locator(`li[data-day="${days.tomorrow}"]`);
    expect(await todayLine.textContent()).toContain(
      todayHas8104 ? `$${NBSP}1.234,50 en 1 transferencia` : 'nada programado',
    );
    expect(await tomorrowLine.textContent()).toContain(
      todayHas8104 ? `$${NBSP}10,00 en 1 transferencia` : `$${NBSP}1.244,50 en 2 transferencias`,
    );
    await screenshot(page, 'scheduled-dashboard-1366');
    await tomorrowLine.getByRole('link').click();
    await waitShown(page.getByRole('heading', { name: 'Transferencias programadas' }));
    await waitShown(page.locator('tbody tr[data-origin-id]').first());
    expect(page.url()).toContain(`day=${days.tomorrow}`);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('lists scheduled transfers by moment, filters by day, and cancels two at once after a dialog', async () => {
    const { page, seen } = await openAs(operator);
    await goTo(page, 'scheduled');
    const rows = page.locator('table.scheduled-rows tbody tr[data-origin-id]');
    await waitShown(rows.first());
    // Earliest first: today's and tomorrow's, then Christmas' two (sent the 28th), then January's.
    const order = await rows.evaluateAll((found) => found.map((row) => Number(row.getAttribute('data-origin-id'))));
    expect(order).toEqual([8104, 8105, 8101, 8102, 8103]);
    const christmas = page.locator('tr[data-origin-id="8101"]');
    expect(await christmas.textContent()).toContain('28/12/2026 09:00');
    expect(await christmas.getByTestId('schedule-moved').textContent()).toBe('pedida para el 25/12/2026, día no hábil');
    await screenshot(page, 'scheduled-list-1366');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'scheduled-list-1024');
    await page.setViewportSize({ width: 1366, height: 768 });

    await page.getByLabel('Día de envío').fill('28/12/2026');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForFunction(`location.hash.includes('day=2026-12-28')`);
    await waitShown(page.locator('table.scheduled-totals tr[data-day="2026-12-28"]'));
    expect(await rows.count()).toBe(2);
    expect(await page.locator('table.scheduled-totals tbody td').allTextContents()).toEqual([
      '28/12/2026',
      FROM_CVU,
      '2',
      `$${NBSP}4.000,50`,
    ]);

    await page.getByLabel('Elegir la transferencia 8101').check();
    await page.getByLabel('Elegir la transferencia 8102').check();
    await page.getByRole('button', { name: `Anular 2 transferencias por $${NBSP}4.000,50` }).click();
    const dialog = page.getByRole('dialog', { name: '¿Anular estas transferencias?' });
    await waitShown(dialog);
    await screenshot(page, 'scheduled-confirm-1366');
    // "No" first: nothing canceled.
    await dialog.getByRole('button', { name: 'No, dejarlas' }).click();
    expect((await stack.api('GET', '/admin/transfers/8101')).json.status).toBe('SCHEDULED');
    await page.getByRole('button', { name: `Anular 2 transferencias por $${NBSP}4.000,50` }).click();
    await dialog.getByRole('button', { name: 'Sí, anular' }).click();
    await waitShown(page.getByText('Anuladas: 2.'));
    for (const originId of [8101, 8102]) {
      expect((await stack.api('GET', `/admin/transfers/${originId}`)).json.status).toBe('CANCELED');
    }
    await waitShown(page.getByText('Ninguna transferencia programada coincide.'));
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('creates a scheduled transfer from the form; its page shows the schedule and cancels it', async () => {
    const { page, seen } = await openAs(operator);
    await goTo(page, 'new');
    await page.locator('#create-from-address option', { hasText: FROM_CVU }).waitFor({ state: 'attached' });
    await page.locator('#create-to-address').fill(TO_CBU);
    await page.locator('#create-to-owner-personId').fill(sample.to.owner.personId);
    await page.locator('#create-body-amount').fill('321,00');
    await page.locator('#create-body-description').fill('alquiler enero');
    await page.getByLabel('Día de envío (opcional)').fill('25/12/2026');
    await page.locator('form button[type="submit"]').click();
    const executeAt = page.getByTestId('schedule-execute-at');
    await waitShown(executeAt);
    expect(await executeAt.textContent()).toBe('lun 28/12/2026 09:00pedida para el 25/12/2026, día no hábil');
    expect(await page.getByTestId('schedule-requested').textContent()).toBe('el día 25/12/2026');
    const originId = Number((await page.locator('#detail-title').textContent())?.match(/\d+/)?.[0]);
    const stored = (await stack.api('GET', `/admin/transfers/${originId}`)).json;
    expect(stored).toMatchObject({
      status: 'SCHEDULED',
      schedule: { executeAt: CHRISTMAS_SENT, requested: { executeOn: CHRISTMAS } },
    });
    // Never sent: nothing to ask the bank about.
    expect(await page.getByRole('button', { name: 'Consultar al banco' }).count()).toBe(0);
    await screenshot(page, 'scheduled-detail-1366');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'scheduled-detail-1024');

    await page.getByRole('button', { name: 'Anular esta transferencia' }).click();
    const dialog = page.getByRole('dialog');
    await waitShown(dialog.getByText(`¿Anular la transferencia ${originId} por $${NBSP}321,00? No se enviará nunca.`));
    await dialog.getByRole('button', { name: 'Sí, anular' }).click();
    await waitShown(page.getByText('Anulada: no se envía.'));
    expect((await stack.api('GET', `/admin/transfers/${originId}`)).json.status).toBe('CANCELED');
    expect(await page.getByRole('button', { name: 'Anular esta transferencia' }).count()).toBe(0);
    expect(stack.bank.ledger.size).toBe(0);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("previews each batch row's sending day, a first payment and a blocked account, the CUIT under its account", async () => {
    const header = 'idOrigen;cbuOrigen;cuitOrigen;cbuDestino;cuitDestino;moneda;importe;descripción;Fecha de ejecución';
    const line = (originId: number, to: string, day: string) =>
      [
        originId,
        FROM_CVU,
        sample.from.owner.personId,
        to,
        sample.to.owner.personId,
        '032',
        '1.000,00',
        'lote',
        day,
      ].join(';');
    const csv = [
      header,
      line(8201, TO_CBU, '25/12/2026'),
      line(8202, BLOCKED, '2026-12-28'),
      line(8203, TO_CBU, ''),
      line(8204, TO_CBU, '01/02/2020'),
    ].join('\r\n');
    for (const [width, lang] of [
      [1366, 'es'],
      [1024, 'es'],
      [1024, 'en'],
    ] as const) {
      const { page, seen } = await openAs(operator, width);
      if (lang === 'en') await page.getByLabel('Idioma').selectOption('en');
      await goTo(page, 'batch');
      await page.locator('#batch-file').setInputFiles({
        name: 'lote.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.locator('.actions button').first().click();
      const scheduled = page.locator('tr[data-row="2"]');
      await waitShown(scheduled);
      if (lang === 'es') {
        expect(await scheduled.getByTestId('row-day').textContent()).toBe(
          'lun 28/12/2026 09:00pedida para el 25/12/2026, día no hábil',
        );
        // Never paid in this stack: a first payment.
        expect(await scheduled.getByTestId('new-payee').textContent()).toBe('Primera transferencia a esta cuenta');
        const blocked = page.locator('tr[data-row="3"]');
        expect(await blocked.getByTestId('blocked-payee').textContent()).toBe('cuenta bloqueada');
        expect(await blocked.textContent()).toContain('rechazada: la cuenta de destino está bloqueada');
        expect(await page.locator('tr[data-row="4"]').getByTestId('row-day').textContent()).toBe('al confirmar');
        // A day that passed: the row's violation, named by its column and rule.
        const past = page.locator('tr[data-row="5"]');
        expect(await past.textContent()).toContain('Fecha de ejecución');
        expect(await past.textContent()).toContain('con errores');
        // The CUIT right under the account, however tall the row.
        const gap = await scheduled.locator('.party').evaluate((party) => {
          const [account, cuit] = [...party.children].map((child) => child.getBoundingClientRect());
          return cuit.top - account.bottom;
        });
        expect(Math.abs(gap)).toBeLessThan(4);
      } else {
        expect(await scheduled.getByTestId('row-day').textContent()).toBe(
          'Mon 28/12/2026 09:00asked for 25/12/2026, not a business day',
        );
        expect(await page.locator('tr[data-row="3"]').getByTestId('blocked-payee').textContent()).toBe(
          'blocked account',
        );
      }
      await screenshot(page, `scheduled-batch-preview-${lang}-${width}`);
      const wrap = page.locator('.table-wrap', { has: page.locator('table.batch-rows') });
      expect(await wrap.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(seen.errors).toEqual([]);
      // The language is the browser's preference, kept for the next tests: Spanish again.
      if (lang === 'en') await page.getByLabel('Language').selectOption('es');
      await page.close();
    }
  });

  it('shows the money of the approvals ticked, approves them at once, and another one from its row', async () => {
    for (const [originId, amount] of [
      [8301, '6000.00'],
      [8302, '6345.00'],
      [8303, '7000.00'],
      [8304, '8000.00'],
    ] as const) {
      const created = await stack.api('POST', '/admin/transfers', {
        key: operator,
        body: transferRequest({ originId, amount, description: `factura ${originId}` }),
      });
      expect(created.json.status).toBe('AWAITING_APPROVAL');
    }
    const { page, seen } = await openAs(approver);
    await goTo(page, 'approvals');
    await waitShown(page.locator('tr[data-origin-id="8303"]'));
    await page.getByLabel('Elegir la transferencia 8301').check();
    await page.getByLabel('Elegir la transferencia 8302').check();
    const preview = page.locator('table.approvals-selected');
    await waitShown(preview);
    expect(await preview.locator('tr[data-selected="8302"] td').allTextContents()).toEqual([
      '8302',
      `$${NBSP}6.345,00`,
      `${TO_CBU}CUIT ${sample.to.owner.personId}`,
      'factura 8302',
    ]);
    expect(await preview.locator('tr[data-total="selected"] td').allTextContents()).toEqual([
      `$${NBSP}12.345,00`,
      '2 transferencias',
    ]);
    await screenshot(page, 'scheduled-approvals-preview-1366');
    expect([...(await foreignWords(page, 'es')), ...(await overflowingTables(page))]).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'scheduled-approvals-preview-1024');
    expect(await overflowingTables(page)).toEqual([]);
    await page.getByRole('button', { name: `Aprobar 2 transferencias por $${NBSP}12.345,00` }).click();
    await waitShown(page.getByText('Aprobadas: 2.'));

    // One ticked and rejected by someone else meanwhile: said refused, with the status it is in now.
    await page.getByLabel('Elegir la transferencia 8304').check();
    const rejected = await stack.api('POST', '/admin/transfers/8304/reject', {
      key: approver,
      body: { reason: 'duplicada' },
    });
    expect(rejected.status).toBe(200);
    // One ticked: its total says so in the singular.
    expect(await preview.locator('tr[data-total="selected"] td').allTextContents()).toEqual([
      `$${NBSP}8.000,00`,
      '1 transferencia',
    ]);
    await page.getByRole('button', { name: `Aprobar 1 transferencia por $${NBSP}8.000,00` }).click();
    await waitShown(page.getByText('#8304: Esta transferencia no espera aprobación (está rechazada).'));

    // One row at once: approve needs nothing more; reject waits for a reason.
    const row = page.locator('tr[data-origin-id="8303"]');
    expect(await row.getByRole('button', { name: 'Rechazar la transferencia 8303' }).isDisabled()).toBe(true);
    await row.getByRole('button', { name: 'Aprobar la transferencia 8303' }).click();
    await waitShown(page.getByText('Aprobadas: 1.'));
    for (const originId of [8301, 8302, 8303]) {
      expect((await stack.api('GET', `/admin/transfers/${originId}`)).json.approval.decision).toBe('approved');
    }
    await waitShown(page.getByText('Nada espera aprobación.'));
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('says in Spanish why a transfer canceled meanwhile was not canceled again, naming its status', async () => {
    const created = await stack.api('POST', '/admin/transfers', {
      key: operator,
      body: scheduledRequest(8106, { executeOn: '2027-01-05' }, '55.00'),
    });
    expect(created.json.status).toBe('SCHEDULED');
    const { page, seen } = await openAs(operator);
    await goTo(page, 'scheduled?day=2027-01-05');
    await page.getByLabel('Elegir la transferencia 8106').check();
    // Another operator cancels it first.
    expect((await stack.api('POST', '/admin/transfers/8106/cancel', { key: operator })).status).toBe(200);
    await page.getByRole('button', { name: `Anular 1 transferencia por $${NBSP}55,00` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, anular' }).click();
    await waitShown(
      page.getByText('#8106: Solo se anula una transferencia programada; esta está anulada.', { exact: false }),
    );
    await waitShown(page.getByText('Anuladas: 0.'));
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('offers no cancel to a viewer, and the API refuses it anyway', async () => {
    const viewer = await stack.createKey('mirada', 'viewer');
    const { page } = await openAs(viewer);
    await goTo(page, 'scheduled');
    await waitShown(page.locator('tr[data-origin-id="8103"]'));
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Anular/ }).count()).toBe(0);
    expect((await stack.api('POST', '/admin/transfers/8103/cancel', { key: viewer })).status).toBe(403);
    expect((await stack.api('GET', '/admin/transfers/8103', { key: ADMIN_TOKEN })).json.status).toBe('SCHEDULED');
    await page.close();
  });

  it("totals every transfer of the filter per day and account, not only the page's, in both languages", async () => {
    const day = '2027-02-01';
    const count = 55;
    for (let n = 0; n < count; n += 1) {
      const created = await stack.api('POST', '/admin/transfers', {
        key: operator,
        body: scheduledRequest(8401 + n, { executeOn: day }, '10.00'),
      });
      expect(created.json.status).toBe('SCHEDULED');
    }
    const { page, seen } = await openAs(operator);
    await goTo(page, `scheduled?day=${day}`);
    const rows = page.locator('table.scheduled-rows tbody tr[data-origin-id]');
    await waitShown(rows.first());
    const totals = page.locator(`table.scheduled-totals tr[data-day="${day}"]`);
    await waitShown(totals);
    // A page of 50; the totals count all 55.
    expect(await rows.count()).toBe(50);
    expect(await totals.locator('td').allTextContents()).toEqual(['01/02/2027', FROM_CVU, '55', `$${NBSP}550,00`]);
    await waitShown(page.getByRole('heading', { name: /Totales por día y cuenta/ }));
    await screenshot(page, 'scheduled-totals-1366');
    await page.getByLabel('Idioma').selectOption('en');
    await waitShown(page.getByRole('heading', { name: /Totals per day and account/ }));
    const english = await totals.locator('td').allTextContents();
    expect(english.slice(0, 3)).toEqual(['01/02/2027', FROM_CVU, '55']);
    expect(english[3]).toMatch(/^ARS\s550\.00$/);
    await page.getByLabel('Language').selectOption('es');
    // Without a filter: each day and account, the days the page has not reached among them.
    await goTo(page, 'scheduled');
    await waitShown(page.locator(`table.scheduled-totals tr[data-day="${day}"]`));
    const api = (await stack.api('GET', '/admin/transfers/scheduled-totals', { key: operator })).json;
    expect(api.truncated).toBe(false);
    expect(api.items).toContainEqual({ day, from: FROM_CVU, currencyId: '032', amount: '550.00', count });
    expect((await stack.api('GET', '/admin/transfers/scheduled-totals?from=123', { key: operator })).status).toBe(400);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
