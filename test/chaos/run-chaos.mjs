// `pnpm test:chaos`: the crash and fault suites alone (SQLite, and Postgres when it is there), at CI size.
// `pnpm test:chaos -- --big` runs them big (CHAOS_BIG=1); CHAOS_TRANSFERS and CHAOS_KILLS set the size
// exactly; CHAOS_KEEP=1 keeps each run's scratch folder (the log of every reconciler incarnation) for a look
// afterwards. Other arguments go to Jest.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const big = args.includes('--big');
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const result = spawnSync(
  process.execPath,
  [jest, 'test/chaos', '--selectProjects', 'e2e', ...args.filter((arg) => arg !== '--big')],
  { stdio: 'inherit', env: { ...process.env, ...(big && { CHAOS_BIG: '1' }) } },
);
process.exit(result.status ?? 1);
