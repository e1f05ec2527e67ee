import { AuditUsageError, parseAuditArgs } from './audit-args';

const HASH = 'ab'.repeat(32);

describe('parseAuditArgs', () => {
  it('reads verify and its checkpoints, in either spelling, repeated', () => {
    expect(parseAuditArgs(['verify'])).toEqual({ checkpoints: [] });
    expect(parseAuditArgs(['verify', '--checkpoint', `12:${HASH}`, `--checkpoint=3:${HASH}`])).toEqual({
      checkpoints: [
        { seq: 12, hash: HASH },
        { seq: 3, hash: HASH },
      ],
    });
  });

  it.each([
    [['check'], 'expected "verify"'],
    [['verify', '--checkpoint'], 'unexpected "--checkpoint"'],
    [['verify', '--checkpoint', `0:${HASH}`], '--checkpoint must be SEQ:HASH'],
    [['verify', '--checkpoint', '12:abc'], '--checkpoint must be SEQ:HASH'],
    [['verify', '--checkpoint', `12:${HASH.toUpperCase()}`], '--checkpoint must be SEQ:HASH'],
    [['verify', '--rows', '3'], 'unexpected "--rows"'],
  ])('refuses %j', (args, message) => {
    expect(() => parseAuditArgs(args)).toThrow(AuditUsageError);
    expect(() => parseAuditArgs(args)).toThrow(message);
  });
});
