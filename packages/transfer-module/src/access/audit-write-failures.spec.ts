import type { LoggerService } from '@nestjs/common';
import { AuditWriteFailures } from './audit-write-failures';

function recordingLogger() {
  const lines: string[] = [];
  const logger: LoggerService = {
    log: (message: string) => lines.push(`log ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
    error: (message: string) => lines.push(`error ${message}`),
  };
  return { lines, logger };
}

const full = 'database or disk is full';

describe('AuditWriteFailures', () => {
  it('names an outage once, even when rows get through between its failures, then how many were lost', () => {
    const { lines, logger } = recordingLogger();
    const failures = new AuditWriteFailures(logger);
    failures.failed('transfer.create, request a', full, 1_000);
    failures.failed('transfer.create, request b', full, 2_000);
    failures.written();
    failures.failed('transfer.create, request c', full, 3_000);
    failures.written();
    failures.failed('transfer.create, request d', full, 31_000);
    failures.written();
    expect(lines).toEqual([
      "warn an audit row could not be written (transfer.create, request a): database or disk is full; failures within 30 s of the last are this outage's and not logged again",
      'log the audit trail takes rows again (2 could not be written)',
    ]);
  });

  it('opens a new outage 30 s after the last failure, and logs nothing while rows are written', () => {
    const { lines, logger } = recordingLogger();
    const failures = new AuditWriteFailures(logger);
    failures.written();
    failures.failed('key.create, request a', full, 1_000);
    failures.written();
    failures.failed('key.create, request b', 'SQLITE_BUSY', 31_000);
    failures.written();
    expect(lines).toEqual([
      expect.stringMatching(/^warn an audit row could not be written \(key\.create, request a\): database or disk/),
      'log the audit trail takes rows again (1 could not be written)',
      expect.stringMatching(/^warn an audit row could not be written \(key\.create, request b\): SQLITE_BUSY/),
      'log the audit trail takes rows again (1 could not be written)',
    ]);
  });
});
