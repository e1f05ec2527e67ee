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
import { claimOpen, completingAnswer, createPath, intentOnly, quietAnswer, reopen } from './search-write-workload';

/**
 * `node bench/dist/search/search-write-instructions.js [--movements N] [--writes N] [--warm N] [--file F] [--variants a,b]
 * [--phases intent,answer,complete]`:
 * what each of the search's indexes costs SQLite's writes, in instructions (valgrind's callgrind, counted inside
 * `sqlite3_step` only: the statements' own work, the same from run to run whatever else the machine does). A
 * history of N movements as the search bench seeds it (default 100 000; `--file` keeps and reuses it), then
 * `--warm` created transfers (default 3 000) written on a copy of it outside callgrind, then for each variant
 * (search-write-variants.ts) a copy of that changed by the variant's statements, and child processes under
 * callgrind on the copy: the create path of `--writes` new transfers (`recordIntent`, then the first answer, as
 * MovementSender writes them; parties, amounts and descriptions drawn like the history's), and where the variant
 * asks for them (`--phases`: all three unless told) its insert alone, a sweep's quiet answers to as many open
 * movements and its answers that move them to COMPLETED (each with its claim). Prints a table with the bytes each
 * index takes; writes bench/results/search-write-instructions.json.
 *
 * The warm-up: the seeding builds each index after the rows, and a built index's leaves are full, so the first
 * write to each leaf splits it; a few thousand writes split most of them once, and the counts are then those of an
 * index grown by its writes. No VACUUM after a variant's DROP for the same reason (it would pack the others again).
 * FTS5 merges its segments every so many commits, so a short run counts the text's index by where those merges
 * fall: the B-trees are counted against variants without it.
 */

const FIRST_NEW_ORIGIN_ID = 900_000_000;
const FIRST_WARM_ORIGIN_ID = 800_000_000;

/** The create path, its insert alone, a sweep's quiet answer, and the sweep's answer that moves the status. */
type Mode = 'create' | 'intent' | 'answer' | 'complete';

interface VariantResult {
  variant: string;
  createInstructions: number;
  intentInstructions: number | null;
  answerInstructions: number | null;
  completeInstructions: number | null;
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
    if (mode === 'create' || mode === 'intent') {
      const write = mode === 'create' ? createPath : intentOnly;
      for (let originId = FIRST_NEW_ORIGIN_ID; originId < FIRST_NEW_ORIGIN_ID + writes; originId++) {
        await write(store, originId, people);
      }
      return;
    }
    const answer = mode === 'answer' ? quietAnswer : completingAnswer;
    for (const movement of await claimOpen(store, writes)) await answer(store, movement);
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

/** `warm` transfers created on `file`, then `count` of its movements reopened for the answers to claim. */
async function warmedIn(file: string, warm: number, count: number): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  try {
    const store = new MovementStore(dataSource, systemClock);
    const people = parties();
    for (let originId = FIRST_WARM_ORIGIN_ID; originId < FIRST_WARM_ORIGIN_ID + warm; originId++) {
      await createPath(store, originId, people);
    }
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
  const warm = positive(args, '--warm', 3_000);
  const phases = argument(args, '--phases')?.split(',') ?? ['intent', 'answer', 'complete'];
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
    log(`warming a copy up: ${warm} created transfers`);
    await warmedIn(base, warm, writes);
    const results: VariantResult[] = [];
    const storage: Record<string, { name: string; bytes: number }[]> = {};
    for (const variant of variants) {
      const copy = join(workDir, 'variant.sqlite');
      prepared(base, variant, copy);
      storage[variant.key] = indexBytes(copy);
      const create = instructionsOf('create', copy, writes, join(workDir, 'create.out'));
      const perWrite = (mode: Mode) => {
        if (!variant.answers || !phases.includes(mode)) return null;
        prepared(base, variant, copy);
        return instructionsOf(mode, copy, writes, join(workDir, `${mode}.out`)) / writes;
      };
      results.push({
        variant: variant.label,
        createInstructions: create / writes,
        intentInstructions: perWrite('intent'),
        answerInstructions: perWrite('answer'),
        completeInstructions: perWrite('complete'),
      });
      log(`${variant.label}: create ${formatNumber(create / writes)} instructions`);
    }
    const machine = machineInfo();
    writeResultsJson('search-write-instructions', { machine, movements, warm, writes, results, storage });
    console.log(render(results, storage, { movements, warm, writes, machine }));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function render(
  results: VariantResult[],
  storage: Record<string, { name: string; bytes: number }[]>,
  plan: { movements: number; warm: number; writes: number; machine: ReturnType<typeof machineInfo> },
): string {
  const asMigrated = storage.migrated ?? Object.values(storage)[0] ?? [];
  const optional = (value: number | null) => (value === null ? '—' : formatNumber(value));
  return [
    `SQLite instructions per write (callgrind, inside sqlite3_step; an answer with its claim), ${formatNumber(plan.movements)} movements and ${formatNumber(plan.warm)} created after them, ${formatNumber(plan.writes)} writes per run; ${plan.machine.date}.`,
    '',
    markdownTable(
      ['variant', 'create path', 'its insert (recordIntent)', 'quiet answer', 'answer to COMPLETED'],
      results.map((result) => [
        result.variant,
        formatNumber(result.createInstructions),
        optional(result.intentInstructions),
        optional(result.answerInstructions),
        optional(result.completeInstructions),
      ]),
      ['l', 'r', 'r', 'r', 'r'],
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
