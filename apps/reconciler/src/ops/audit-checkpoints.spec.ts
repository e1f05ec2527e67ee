import type { AuditCheckpoint, AuditService } from '@giro/transfer-module';
import type { PinoLogger } from 'nestjs-pino';
import { AuditCheckpoints } from './audit-checkpoints';

// The checkpoint lines as the logs get them: at start, each interval, and at shutdown; none for an empty trail; a
// database that does not answer said as such, and tried again at the next interval.

function checkpointsOver(answers: (AuditCheckpoint | null | Error)[]) {
  const lines: string[] = [];
  const warnings: string[] = [];
  const audit = {
    checkpoint: async () => {
      const answer = answers.shift() ?? null;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as AuditService;
  const logger = {
    info: (_fields: object, message: string) => lines.push(message),
    warn: (_fields: object, message: string) => warnings.push(message),
  } as unknown as PinoLogger;
  return { checkpoints: new AuditCheckpoints(audit, logger, 60_000), lines, warnings };
}

const HASH = 'c'.repeat(64);

describe('AuditCheckpoints', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('logs the last row at start, every minute and at shutdown', async () => {
    const { checkpoints, lines, warnings } = checkpointsOver([
      null,
      { seq: 3, hash: HASH },
      new Error('connection refused'),
      { seq: 9, hash: HASH },
    ]);
    await checkpoints.onApplicationBootstrap();
    expect(lines).toEqual([]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(lines).toEqual([`audit checkpoint seq=3 hash=${HASH}`]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(warnings).toEqual(['audit checkpoint not taken: the database did not answer']);
    await checkpoints.beforeApplicationShutdown();
    expect(lines).toEqual([`audit checkpoint seq=3 hash=${HASH}`, `audit checkpoint seq=9 hash=${HASH}`]);
    // Stopped: no line after shutdown.
    await jest.advanceTimersByTimeAsync(180_000);
    expect(lines).toHaveLength(2);
  });
});
