import { Workbook } from 'exceljs';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// POST /admin/transfers/batch with the files an office in Argentina has: a CSV saved by Excel in Spanish
// (Windows-1252, `;`, `1.500,00`, CUITs with dashes) and the same rows as .xlsx, against giro itself (its SQLite
// file, the sandbox bank over HTTPS). The dry run shows the money; the run reaches the bank with every character
// as written.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sample = transferRequest();
const dashed = (cuit: string) => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`;
const HEADER = [
  'ID origen',
  'CBU origen',
  'CUIT origen',
  'CBU destino',
  'CUIT destino',
  'Moneda',
  'Importe',
  'Descripción',
  'Concepto',
];
const ROWS = (first: number) => [
  [first, '1.500,00', 'seña depósito Peña'],
  [first + 1, '$ 2.500,50', 'cuota «año» 2026 – señor Muñoz'],
];
const cells = (originId: number, amount: string, description: string) => [
  String(originId),
  sample.from.address,
  dashed(sample.from.owner.personId),
  sample.to.address,
  dashed(sample.to.owner.personId),
  '032',
  amount,
  description,
  'VAR',
];

/** The file as Excel in Spanish saves "CSV (delimitado por comas)": Windows-1252, `;`, CRLF. */
function windows1252Csv(first: number): Buffer {
  const text = [
    HEADER,
    ...ROWS(first).map(([id, amount, description]) => cells(id as number, amount as string, description as string)),
  ]
    .map((row) => row.join(';'))
    .join('\r\n');
  // Every character of these rows is in Latin-1's printable part but «–», which 1252 has at 0x96.
  return Buffer.from([...text].map((character) => (character === '–' ? 0x96 : (character.codePointAt(0) as number))));
}

async function xlsxFile(first: number): Promise<Buffer> {
  const book = new Workbook();
  const sheet = book.addWorksheet('Lote');
  sheet.addRow(HEADER);
  for (const [id, amount, description] of ROWS(first)) {
    const row = cells(id as number, amount as string, description as string);
    // As Excel types them: the originId and the amount as numbers, the CBUs as text, the CUITs as typed.
    sheet.addRow([
      Number(row[0]),
      ...row.slice(1, 6),
      Number((amount as string).replace(/[$ .]/g, '').replace(',', '.')),
      ...row.slice(7),
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('POST /admin/transfers/batch with the files of an office', () => {
  let r: TestReconciler;
  let operator: string;

  beforeAll(async () => {
    r = await startTestReconciler();
    operator = (await r.request('POST', '/admin/keys', { body: { name: 'oficina', role: 'operator' } })).json.key;
  });
  afterAll(() => r.close());

  const send = (bytes: Buffer, contentType: string, query = '') =>
    r.request('POST', `/admin/transfers/batch${query}`, {
      rawBody: bytes,
      token: operator,
      headers: { 'content-type': contentType },
    });

  /** What the bank holds for `originId`, as its own lookup answers it (past the polling rule's wait, on giro's clock). */
  const atTheBank = async (originId: number) => {
    r.clock.advance(10 * 60_000);
    const answer = await r.request('GET', `/admin/transfers/${originId}/raw`);
    expect(answer.status).toBe(200);
    return answer.json;
  };

  for (const [kind, contentType, file, first] of [
    ['a Windows-1252 CSV with `;`', 'text/csv', async (first: number) => windows1252Csv(first), 9601],
    ['the same rows as .xlsx', XLSX, xlsxFile, 9701],
  ] as const) {
    it(`previews ${kind} with its money, then sends it to the bank with every character intact`, async () => {
      const bytes = await file(first);
      const dry = await send(bytes, contentType, '?dryRun=true');
      expect(dry.status).toBe(200);
      // `newPayee` too, on the first file only: the same account is then paid once.
      expect(dry.json.rows).toEqual([
        expect.objectContaining({
          row: 2,
          originId: first,
          outcome: 'valid',
          transfer: {
            fromAddress: sample.from.address,
            fromCuit: sample.from.owner.personId,
            toAddress: sample.to.address,
            toCuit: sample.to.owner.personId,
            currencyId: '032',
            amount: '1500.00',
            description: 'seña depósito Peña',
            concept: 'VAR',
          },
        }),
        expect.objectContaining({
          row: 3,
          outcome: 'valid',
          transfer: expect.objectContaining({ amount: '2500.50', description: 'cuota «año» 2026 – señor Muñoz' }),
        }),
      ]);
      expect(dry.json.totals).toEqual({
        perSource: [{ fromAddress: sample.from.address, currencyId: '032', count: 2, amount: '4000.50' }],
        overall: [{ currencyId: '032', count: 2, amount: '4000.50' }],
      });
      expect(r.bank.ledger.entry(first)).toBeUndefined();

      const run = await send(bytes, contentType);
      expect(run.json.summary).toMatchObject({ total: 2, created: 2, invalid: 0 });
      for (const [originId, description] of [
        [first, 'seña depósito Peña'],
        [first + 1, 'cuota «año» 2026 – señor Muñoz'],
      ] as const) {
        expect(r.bank.ledger.entry(originId)).toBeDefined();
        expect((await r.request('GET', `/admin/transfers/${originId}`)).json).toMatchObject({
          description,
          amount: originId === first ? '1500.00' : '2500.50',
          to: { owner: { personId: sample.to.owner.personId } },
        });
        expect(JSON.stringify(await atTheBank(originId))).toContain(JSON.stringify(description).slice(1, -1));
      }
    });
  }

  it('refuses a byte that is neither UTF-8 nor Windows-1252, naming its line, and an ambiguous amount by its row', async () => {
    const undefinedByte = Buffer.concat([windows1252Csv(9801).subarray(0, -3), Buffer.from([0x81, 0x41, 0x41])]);
    const refused = await send(undefinedByte, 'text/csv', '?dryRun=true');
    expect(refused.status).toBe(400);
    expect(refused.json.violations).toEqual([
      expect.objectContaining({
        field: 'body',
        rule: 'encoding',
        params: expect.objectContaining({ row: 3, byte: '0x81' }),
      }),
    ]);
    const ambiguous = Buffer.from(windows1252Csv(9801).toString('latin1').replace('1.500,00', '1.500'), 'latin1');
    const dry = await send(ambiguous, 'text/csv', '?dryRun=true');
    expect(dry.json.rows[0]).toMatchObject({
      row: 2,
      outcome: 'invalid',
      violations: [expect.objectContaining({ field: 'Importe', rule: 'ambiguous_amount' })],
    });
  });
});
