import { partOf, summarizeProfile } from './profile-summary';

const STORE = 'file:///repo/node_modules/.pnpm/typeorm@1.1.1_pg@8/node_modules/typeorm/driver/Driver.js';

describe('partOf', () => {
  it('names the innermost package, scoped or not', () => {
    expect(partOf('query', STORE)).toBe('typeorm');
    expect(partOf('x', 'file:///repo/node_modules/.pnpm/@nestjs+core@11/node_modules/@nestjs/core/injector.js')).toBe(
      '@nestjs/core',
    );
  });

  it("names giro's own packages and the runtime's areas", () => {
    expect(partOf('claimDue', 'file:///repo/packages/transfer-module/dist/persistence/movement-store.js')).toBe(
      '@giro/transfer-module',
    );
    expect(partOf('Hmac', 'node:internal/crypto/hash')).toBe('node: crypto');
    expect(partOf('onStreamRead', 'node:internal/stream_base_commons')).toBe('node: net, TLS, streams');
    expect(partOf('(garbage collector)', '')).toBe('garbage collector');
    expect(partOf('(idle)', '')).toBe('idle (waiting for I/O)');
    expect(partOf('writev', '')).toBe('socket writes');
    expect(partOf('wrapSafe', 'node:internal/modules/cjs/loader')).toBe('start-up (loading modules)');
  });

  it('counts the statements better-sqlite3 runs natively for TypeORM apart from TypeORM itself', () => {
    const driver = 'file:///repo/node_modules/.pnpm/typeorm@1/node_modules/typeorm/driver/better-sqlite3/Runner.js';
    expect(partOf('query', driver)).toBe('SQLite statements');
    expect(partOf('getStmt', driver)).toBe('typeorm');
  });
});

describe('summarizeProfile', () => {
  it('adds up the sampled time per part, largest first', () => {
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: { functionName: 'query', url: STORE } },
        { id: 2, callFrame: { functionName: '(idle)', url: '' } },
        { id: 3, callFrame: { functionName: 'other', url: STORE } },
      ],
      samples: [1, 2, 3, 1],
      timeDeltas: [1_000, 1_000, 1_000, 1_000],
    });
    expect(summary.totalMs).toBe(4);
    expect(summary.parts).toEqual([
      { part: 'typeorm', share: 0.75 },
      { part: 'idle (waiting for I/O)', share: 0.25 },
    ]);
  });
});
