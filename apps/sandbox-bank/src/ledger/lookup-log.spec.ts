import { BANK_STATUSES } from '@giro/transfer-module';
import { appendLookup, type LookupAnswer, readLookups } from './lookup-log';

describe('lookup log', () => {
  it('reads back every lookup in order, with its answer and fault, past the exact-size limit', () => {
    const answers: LookupAnswer[] = [...BANK_STATUSES, 'NOT_FOUND'];
    let log: number[] | undefined;
    for (let i = 0; i < 40; i++) {
      log = appendLookup(log, i * 1000, answers[i % answers.length], i % 7 === 0 ? 'reset-after' : undefined);
    }
    const records = readLookups(log ?? []);
    expect(records).toHaveLength(40);
    expect(records[0]).toEqual({ at: '1970-01-01T00:00:00.000Z', answered: 'CREATED', fault: 'reset-after' });
    expect(records[5]).toEqual({ at: '1970-01-01T00:00:05.000Z', answered: 'NOT_FOUND' });
    expect(records[39]).toEqual({ at: '1970-01-01T00:00:39.000Z', answered: 'COMPLETED' });
    expect(records.filter((record) => record.fault === 'reset-after')).toHaveLength(6);
  });
});
