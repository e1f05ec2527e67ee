import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OutageFault } from './database-outage';

// Database faults of the SQLite chaos run: the file locked by another process, and the disk full.

/** Holds the write lock of the file given as its second argument until a line arrives on stdin. */
const LOCK_HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { timeout: 30000 });
db.exec('BEGIN EXCLUSIVE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
`;
/** The disk-full hook polls its control file this often. */
const HOOK_POLL_MS = 50;

export class SqliteFaults {
  private holder: ChildProcess | undefined;
  private readonly controlFile: string;

  constructor(
    private readonly file: string,
    dir: string,
  ) {
    this.controlFile = join(dir, 'disk-full');
  }

  /** What the reconciler children need for `diskFull` to reach them. */
  reconcilerSetup(): { nodeArgs: string[]; env: Record<string, string> } {
    return {
      nodeArgs: ['--require', join(__dirname, 'sqlite-disk-full-hook.cjs')],
      env: { CHAOS_DISK_FULL_FILE: this.controlFile },
    };
  }

  /** Another process holds the file's write lock (BEGIN EXCLUSIVE) for `durationMs`. */
  lock(durationMs: number): OutageFault {
    return {
      label: `file locked by another process ${durationMs / 1000} s`,
      durationMs,
      // giro's readiness ping reads nothing from the file, and in WAL mode reads go on beside a writer.
      healthGoesDown: false,
      cause: /SQLITE_BUSY|database is locked/,
      begin: () => this.takeLock(),
      end: () => this.releaseLock(),
    };
  }

  /** Every write that needs a new page fails with SQLITE_FULL for `durationMs`; reads go on. */
  diskFull(durationMs: number): OutageFault {
    return {
      label: `disk full ${durationMs / 1000} s`,
      durationMs,
      healthGoesDown: false,
      cause: /SQLITE_FULL|database or disk is full/,
      begin: async () => {
        writeFileSync(this.controlFile, '');
        await sleep(4 * HOOK_POLL_MS);
      },
      end: async () => {
        rmSync(this.controlFile, { force: true });
        await sleep(4 * HOOK_POLL_MS);
      },
    };
  }

  /** For afterAll: the lock is released whatever happened. */
  dispose(): void {
    this.holder?.kill('SIGKILL');
    rmSync(this.controlFile, { force: true });
  }

  private async takeLock(): Promise<void> {
    const betterSqlite3 = require.resolve('better-sqlite3', {
      paths: [join(__dirname, '..', '..', 'packages', 'transfer-module')],
    });
    const holder = spawn(process.execPath, ['-e', LOCK_HOLDER, betterSqlite3, this.file], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.holder = holder;
    const [line] = (await Promise.race([once(holder.stdout, 'data'), once(holder, 'exit')])) as [unknown];
    if (!String(line).startsWith('locked')) throw new Error('the lock holder exited before it held the lock');
  }

  private async releaseLock(): Promise<void> {
    const holder = this.holder;
    if (!holder) return;
    holder.stdin?.write('release\n');
    const [code] = (await once(holder, 'exit')) as [number | null];
    this.holder = undefined;
    if (code !== 0) throw new Error(`the lock holder exited with ${code}`);
  }
}
