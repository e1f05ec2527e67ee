import type { MovementView } from '@giro/transfer-module';
import { dayFirst, SPANISH_EXPORT_HEADERS, spanishCsvRowOf } from './spanish-export';
import { EXPORT_COLUMNS } from './transfer-export-row';

const party = (address: string, personId: string) => ({
  addressType: 'CBU_CVU' as const,
  address,
  owner: { personIdType: 'CUI' as const, personId },
});

const failed = {
  originId: 42,
  status: 'FAILED',
  amount: '1234.50',
  currencyId: '032',
  from: party('0000003110000000000175', '30712345671'),
  to: party('2850590994009004181356', '20123456786'),
  description: '＝1+1',
  concept: 'ALQ',
  networkId: null,
  bankMovementId: null,
  createdAt: '2026-11-24T02:30:00.000Z',
  history: [{ from: null, to: 'FAILED', at: '2026-11-24T02:30:07.000Z', source: 'query' }],
  bank: { completedDatetime: '2026-11-24T02:30:05.000Z' },
} as unknown as MovementView;

describe('spanishCsvRowOf', () => {
  it('writes the amount with a decimal comma, the local time day first, a failure as failed, formulas neutralised', () => {
    const row = Object.fromEntries(EXPORT_COLUMNS.map((column, index) => [column, spanishCsvRowOf(failed)[index]]));
    expect(row).toMatchObject({
      amount: '1234,50',
      createdAtBuenosAires: '23/11/2026 23:30:00',
      description: "'＝1+1",
      completedAt: '',
      failedAt: '2026-11-24T02:30:05.000Z',
    });
  });

  it('has a Spanish header for every column', () => {
    expect(Object.keys(SPANISH_EXPORT_HEADERS)).toEqual([...EXPORT_COLUMNS]);
    expect(dayFirst('2026-01-02 03:04:05')).toBe('02/01/2026 03:04:05');
  });
});
