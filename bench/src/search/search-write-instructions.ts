import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { MovementStore } from '../lookup-index/lookup-index-store';
import { machineInfo } from '../machine';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { writeResultsJson } from '../report/write-results';
import { parties, seedSqlite } from './search-seed';
import { SEARCH_WRITE_VARIANTS, type WriteVariant } from './search-write-variants';
import { claimOpen, createPath, quietAnswer, reopen } from './search-write-workload';

/**
 * `node bench/dist/search/search-write-instructions.js [--movements N] [--writes N] [--file F] [--variants a,b]`:
 * what each of the search's indexes costs SQLite's writes, in instructions (valgrind's callgrind, counted inside
 * `sqlite3_step` only: the statements' own work, the same from run to run whatever else the machine does). A
 * history of N movements as the search bench seeds it (default 100 000; `--file` keeps and reuses it), then for
 * each variant (search-write-variants.ts) a copy of it changed by the variant's statements, and two child
 * processes under callgrind on the copy: one writes the create path of `--writes` new transfers (`recordIntent`,
 * then the first answer, as MovementSender writes them; parties, amounts and descriptions drawn like the history's),
 * the other claims and answers as many open movements (a sweep's quiet answer). Prints a table with the bytes
 * each index takes; writes bench/results/search-write-instructions.json. FTS5 merges its segments every so many
 * commits, so a short run counts the text's index by where those merges fall: the B-trees are counted against
 * variants without it.
 */

const FIRST_NEW_ORIGIN_ID = 900_000_000;

type Mode = 'create' | 'answer';

interface VariantResult {
  variant: string;
  createInstructions: number;
  answerInstructions: number | null;
}

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

function positive(args: string[], name: string, fallback: number): number {
  const given = argument(args, name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** The child: `writes` operations of `mode` on `file`, sequentially; callgrind counts what SQLite does for them. */
async function child(mode: Mode, file: string, writes: number): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  const store = new MovementStore(dataSource, systemClock);
  const people = parties();
  try {
    if (mode === 'create') {
      for (let originId = FIRST_NEW_ORIGIN_ID; originId < FIRST_NEW_ORIGIN_ID + writes; originId++) {
        await createPath(store, originId, people);
      }
      return;
    }
    for (const movement of await claimOpen(store, writes)) await quietAnswer(store, movement);
  } finally {
    await dataSource.destroy();
  }
}

/** Instructions SQLite executed in one child run under callgrind. */
function instructionsOf(mode: Mode, file: string, writes: number, outFile: string): number {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${outFile}`,
      '--collect-atstart=no',
      '--toggle-collect=sqlite3_step',
      process.execPath,
      __filename,
      '--child',
      mode,
      '--file',
      file,
      '--writes',
      String(writes),
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`callgrind's child failed (${mode}): ${run.stderr.slice(-2000)}`);
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(outFile, 'utf8'));
  if (totals === null) throw new Error(`no totals in ${outFile}`);
  return Number(totals[1]);
}

async function reopenIn(file: string, count: number): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  try {
    await reopen(dataSource, count, false);
    await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await dataSource.destroy();
  }
}

function prepared(seeded: string, variant: WriteVariant, copy: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(seeded, copy);
  const db = new Database(copy);
  try {
    for (const statement of variant.statements) db.exec(statement);
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/** Bytes each index of giro_movements takes (FTS5's shadow tables summed under the virtual table's name). */
function indexBytes(file: string): { name: string; bytes: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT CASE WHEN s."name" LIKE 'giro_movement_text%' THEN 'giro_movement_text (FTS5)' ELSE s."name" END AS "name",
           SUM(s."pgsize") AS "bytes"
         FROM "dbstat" s LEFT JOIN "sqlite_master" m ON m."name" = s."name"
         WHERE (m."type" = 'index' AND m."tbl_name" = 'giro_movements') OR s."name" LIKE 'giro_movement_text%'
           OR s."name" = 'giro_movements'
         GROUP BY 1 ORDER BY 1`,
      )
      .all() as { name: string; bytes: number }[];
  } finally {
    db.close();
  }
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') {
    await child(args[1] as Mode, String(argument(args, '--file')), positive(args, '--writes', 1));
    return;
  }
  const movements = positive(args, '--movements', 100_000);
  const writes = positive(args, '--writes', 400);
  const chosen = argument(args, '--variants')?.split(',');
  const variants = SEARCH_WRITE_VARIANTS.filter((variant) => chosen === undefined || chosen.includes(variant.key));
  const log = (message: string) => process.stderr.write(`[search-write-instructions] ${message}\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-search-write-'));
  const kept = argument(args, '--file');
  const seeded = kept ?? join(workDir, 'seeded.sqlite');
  try {
    if (!kept || !existsSync(kept)) log(`seeding ${movements} movements`);
    await seedSqlite(seeded, movements, { reuse: true, analyze: false, log });
    const base = join(workDir, 'base.sqlite');
    copyFileSync(seeded, base);
    await reopenIn(base, writes);
    const results: VariantResult[] = [];
    const storage: Record<string, { name: string; bytes: number }[]> = {};
    for (const variant of variants) {
      const copy = join(workDir, 'variant.sqlite');
      prepared(base, variant, copy);
      storage[variant.key] = indexBytes(copy);
      const create = instructionsOf('create', copy, writes, join(workDir, 'create.out'));
      prepared(base, variant, copy);
      const answer = variant.answers ? instructionsOf('answer', copy, writes, join(workDir, 'answer.out')) : null;
      results.push({
        variant: variant.label,
        createInstructions: create / writes,
        answerInstructions: answer === null ? null : answer / writes,
      });
      log(`${variant.label}: create ${formatNumber(create / writes)} instructions`);
    }
    const machine = machineInfo();
    writeResultsJson('search-write-instructions', { machine, movements, writes, results, storage });
    console.log(render(results, storage, { movements, writes, machine }));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function render(
  results: VariantResult[],
  storage: Record<string, { name: string; bytes: number }[]>,
  plan: { movements: number; writes: number; machine: ReturnType<typeof machineInfo> },
): string {
  const asMigrated = storage.migrated ?? Object.values(storage)[0] ?? [];
  return [
    `SQLite instructions per write (callgrind, inside sqlite3_step), ${formatNumber(plan.movements)} movements, ${formatNumber(plan.writes)} writes per run; ${plan.machine.date}.`,
    '',
    markdownTable(
      ['variant', 'create path, instructions each', 'sweep answer, instructions each'],
      results.map((result) => [
        result.variant,
        formatNumber(result.createInstructions),
        result.answerInstructions === null ? '—' : formatNumber(result.answerInstructions),
      ]),
      ['l', 'r', 'r'],
    ),
    '',
    markdownTable(
      ['table or index (as migrated)', 'MiB'],
      asMigrated.map((row) => [row.name, formatNumber(row.bytes / 1_048_576, 1)]),
      ['l', 'r'],
    ),
  ].join('\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
