import type { MovementView } from '@giro/transfer-module';
import { buenosAiresTime, EXPORT_COLUMNS, exportRowOf } from './transfer-export-row';

const party = (address: string, personId: string) => ({
  addressType: 'CBU_CVU' as const,
  address,
  owner: { personIdType: 'CUI' as const, personId },
});

const completed = {
  originId: 42,
  status: 'COMPLETED',
  amount: '1234.50',
  currencyId: '032',
  from: party('0000003110000000000175', '30712345671'),
  to: party('2850590994009004181356', '20123456786'),
  description: 'rent May',
  concept: 'ALQ',
  networkId: 'NET-1',
  bankMovementId: 'B-9',
  createdAt: '2026-11-24T02:30:00.000Z',
  history: [
    { from: null, to: 'PENDING', at: '2026-11-24T02:30:00.000Z', source: 'intent' },
    { from: 'PENDING', to: 'COMPLETED', at: '2026-11-24T02:30:07.000Z', source: 'query' },
  ],
  bank: { completedDatetime: '2026-11-24T02:30:05.000Z' },
} as unknown as MovementView;

describe('exportRowOf', () => {
  it('has a cell for each column, the creation time in Buenos Aires too (UTC−3: the day before here)', () => {
    expect(exportRowOf(completed)).toEqual({
      originId: '42',
      createdAt: '2026-11-24T02:30:00.000Z',
      createdAtBuenosAires: '2026-11-23 23:30:00',
      status: 'COMPLETED',
      statusAt: '2026-11-24T02:30:07.000Z',
      amount: '1234.50',
      currencyId: '032',
      fromAddress: '0000003110000000000175',
      fromCuit: '30712345671',
      toAddress: '2850590994009004181356',
      toCuit: '20123456786',
      description: 'rent May',
      concept: 'ALQ',
      networkId: 'NET-1',
      bankMovementId: 'B-9',
      completedAt: '2026-11-24T02:30:05.000Z',
      failedAt: '',
    });
    expect(Object.keys(exportRowOf(completed))).toEqual([...EXPORT_COLUMNS]);
  });

  it('names a failure’s time as one: failedAt, never completedAt', () => {
    const failed = { ...completed, status: 'FAILED' } as MovementView;
    expect(exportRowOf(failed)).toMatchObject({ completedAt: '', failedAt: '2026-11-24T02:30:05.000Z' });
    const rejected = { ...completed, status: 'REJECTED' } as MovementView;
    expect(exportRowOf(rejected)).toMatchObject({ completedAt: '', failedAt: '2026-11-24T02:30:05.000Z' });
  });

  it('leaves what is not known yet empty', () => {
    const pending = { ...completed, networkId: null, bankMovementId: null, bank: null } as MovementView;
    expect(exportRowOf(pending)).toMatchObject({ networkId: '', bankMovementId: '', completedAt: '', failedAt: '' });
  });

  it('neutralises a description a spreadsheet would run as a formula', () => {
    const hostile = { ...completed, description: '=HYPERLINK("http://x")' } as MovementView;
    expect(exportRowOf(hostile).description).toBe(`'=HYPERLINK("http://x")`);
  });

  it('writes a Buenos Aires time as YYYY-MM-DD HH:mm:ss, midnight as 00', () => {
    expect(buenosAiresTime('2026-01-01T03:00:00.000Z')).toBe('2026-01-01 00:00:00');
  });
});
