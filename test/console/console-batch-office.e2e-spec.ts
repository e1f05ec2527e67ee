import { Workbook } from 'exceljs';
import type { Page } from 'playwright-core';
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
import { foreignWords, overflowingTables } from './page-checks';

// The console in Chromium with the file an office in Argentina has: a CSV saved by Excel in Spanish (Windows-1252,
// `;`, `1.500,00`, CUITs with dashes). The page sends the file's bytes as they are; the preview shows each row's
// money, payee and description and the batch's total; the button names the count and the total; one click sends
// both, and the bank receives every character as written; the same rows as an .xlsx workbook likewise. Each page in
// one language and no table wider than its box; screenshots at the two laptop widths.

const sample = transferRequest();
const dashed = (cuit: string) => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`;
const NBSP = '\u00a0';

const ROWS = [
  { originId: 5601, amount: '1.500,00', description: 'seña depósito Peña', shown: `$${NBSP}1.500,00` },
  { originId: 5602, amount: '$ 2.500,50', description: 'cuota «año» – señor Muñoz', shown: `$${NBSP}2.500,50` },
];

/** The file as Excel in Spanish saves "CSV (delimitado por comas)": Windows-1252, `;`, CRLF. */
function windows1252File(): Buffer {
  const lines = [
    'ID origen;CBU origen;CUIT origen;CBU destino;CUIT destino;Moneda;Importe;Descripción;Concepto',
    ...ROWS.map(({ originId, amount, description }) =>
      [
        originId,
        FROM_CVU,
        dashed(sample.from.owner.personId),
        TO_CBU,
        dashed(sample.to.owner.personId),
        '032',
        amount,
        description,
        'VAR',
      ].join(';'),
    ),
  ];
  // Latin-1's printable characters are 1252's too; `–` is 0x96 in 1252.
  return Buffer.from([...lines.join('\r\n')].map((c) => (c === '–' ? 0x96 : (c.codePointAt(0) as number))));
}

describeWithChromium('a batch from an office’s file in the console (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let operator: string;

  /** What is wrong with the page at its current width: words of the other language, a table wider than its box. */
  const fitsAndSpeaks = async (page: Page, lang: 'es' | 'en') => [
    ...(await foreignWords(page, lang)),
    ...(await overflowingTables(page)),
    ...((await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth'))
      ? ['the page is wider than the window']
      : []),
  ];

  /**
   * The rows reached the bank (its ledger grew by them) with every character as written: the stored transfer,
   * and the bank's own answer for it (asked once the polling rule allows).
   */
  const expectAtTheBank = async (ledgerBefore: number, rows: { originId: number; description: string }[]) => {
    await waitUntil(
      () => stack.bank.ledger.size === ledgerBefore + rows.length,
      10_000,
      () => stack.bank.ledger.size,
    );
    for (const { originId, description } of rows) {
      const stored = (await stack.api('GET', `/admin/transfers/${originId}`)).json;
      expect(stored).toMatchObject({ description, to: { owner: { personId: sample.to.owner.personId } } });
      let atTheBank = '';
      await waitUntil(
        async () => {
          const raw = await stack.api('GET', `/admin/transfers/${originId}/raw`);
          atTheBank = raw.text;
          return raw.status === 200;
        },
        10_000,
        () => atTheBank,
      );
      expect(atTheBank).toContain(description);
    }
  };

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser();
    operator = await stack.createKey('oficina', 'operator');
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('previews a Windows-1252 file with its amounts and total, sends it with one click, every character intact', async () => {
    const bytes = windows1252File();
    expect(bytes.includes(0xf1)).toBe(true); // "ñ" as 1252 writes it: not valid UTF-8
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 768 });
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await goTo(page, 'batch');
    await page.getByLabel('Archivo (CSV o Excel)').setInputFiles({
      name: 'lote-oficina.csv',
      mimeType: 'text/csv',
      buffer: bytes,
    });
    await page.getByRole('button', { name: 'Vista previa' }).click();

    for (const { originId, description, shown } of ROWS) {
      const row = page.locator(`tr[data-row="${originId - 5599}"]`);
      await waitShown(row);
      const cells = await row.locator('td').allTextContents();
      expect(cells[1]).toBe(String(originId));
      expect(cells[2]).toBe(shown);
      // One source account for every row: said once, by the totals. Never paid before: a first payment.
      expect(cells[3]).toBe(`${TO_CBU}CUIT ${sample.to.owner.personId}Primera transferencia a esta cuenta`);
      expect(cells[4]).toBe(description);
      expect(cells[5]).toBe('VAR');
      expect(cells[6]).toContain('se creará');
      // Not stored yet: nothing to link to.
      expect(await row.locator('a').count()).toBe(0);
    }
    const total = page.locator('tr.batch-total');
    expect(await total.locator('td').allTextContents()).toEqual(['2', `$${NBSP}4.000,50`]);
    expect(await page.locator(`tr[data-source="${FROM_CVU}"] td`).allTextContents()).toEqual([
      FROM_CVU,
      '2',
      `$${NBSP}4.000,50`,
    ]);
    await screenshot(page, 'batch-office-preview-1366');
    expect(await fitsAndSpeaks(page, 'es')).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'batch-office-preview-1024');
    expect(await fitsAndSpeaks(page, 'es')).toEqual([]);
    expect(stack.bank.ledger.size).toBe(0);

    // The English mode says the same, in its own words and money.
    await page.getByLabel('Idioma').selectOption('en');
    await waitShown(page.getByRole('button', { name: `Send 2 transfers for ARS${NBSP}4,000.50` }));
    expect(await page.locator('tr.batch-total td').allTextContents()).toEqual(['2', `ARS${NBSP}4,000.50`]);
    await screenshot(page, 'batch-office-preview-en-1024');
    expect(await fitsAndSpeaks(page, 'en')).toEqual([]);
    await page.getByLabel('Language').selectOption('es');

    const before = stack.bank.ledger.size;
    await page.getByRole('button', { name: `Enviar 2 transferencias por $${NBSP}4.000,50` }).click();
    await waitShown(page.getByText('Creadas: 2 · ya existían: 0 · no creadas: 0.'));
    await page.setViewportSize({ width: 1366, height: 768 });
    await screenshot(page, 'batch-office-sent-1366');
    expect(await fitsAndSpeaks(page, 'es')).toEqual([]);
    await expectAtTheBank(
      before,
      ROWS.map(({ originId, description }) => ({ originId, description })),
    );
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('previews the same rows as an .xlsx workbook with their amounts and total, and sends them intact with one click', async () => {
    const book = new Workbook();
    const sheet = book.addWorksheet('Lote');
    sheet.addRow([
      'ID origen',
      'CBU origen',
      'CUIT origen',
      'CBU destino',
      'CUIT destino',
      'Moneda',
      'Importe',
      'Descripción',
    ]);
    // As Excel types them: the originId, the currency and the amount as numbers, the accounts as text.
    sheet.addRow([
      5701,
      FROM_CVU,
      dashed(sample.from.owner.personId),
      TO_CBU,
      sample.to.owner.personId,
      32,
      1500,
      ROWS[0].description,
    ]);
    sheet.addRow([
      5702,
      FROM_CVU,
      sample.from.owner.personId,
      TO_CBU,
      sample.to.owner.personId,
      32,
      2500.5,
      ROWS[1].description,
    ]);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 768 });
    const seen = watchPage(page);
    await signIn(page, stack.url, operator);
    await goTo(page, 'batch');
    await page.getByLabel('Archivo (CSV o Excel)').setInputFiles({
      name: 'lote-oficina.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    await page.getByRole('button', { name: 'Vista previa' }).click();
    const second = page.locator('tr[data-row="3"]');
    await waitShown(second);
    const cells = (await second.locator('td').allTextContents()).slice(1, 5);
    expect(cells).toEqual([
      '5702',
      `$${NBSP}2.500,50`,
      expect.stringMatching(new RegExp(`^${TO_CBU}CUIT ${sample.to.owner.personId}`)),
      ROWS[1].description,
    ]);
    expect(await page.locator('tr.batch-total td').allTextContents()).toEqual(['2', `$${NBSP}4.000,50`]);
    await screenshot(page, 'batch-office-xlsx-preview-1366');
    expect(await fitsAndSpeaks(page, 'es')).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'batch-office-xlsx-preview-1024');
    expect(await fitsAndSpeaks(page, 'es')).toEqual([]);

    const before = stack.bank.ledger.size;
    await page.getByRole('button', { name: `Enviar 2 transferencias por $${NBSP}4.000,50` }).click();
    await waitShown(page.getByText('Creadas: 2 · ya existían: 0 · no creadas: 0.'));
    await expectAtTheBank(before, [
      { originId: 5701, description: ROWS[0].description },
      { originId: 5702, description: ROWS[1].description },
    ]);
    expect((await stack.api('GET', '/admin/transfers/5701')).json.amount).toBe('1500.00');
    expect((await stack.api('GET', '/admin/transfers/5702')).json.amount).toBe('2500.50');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
