import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { machineInfo } from '../machine';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { writeResultsJson } from '../report/write-results';
import { DESCRIPTION_WORDS, invoiceOf } from './search-seed-sql';

/**
 * `node bench/dist/search/search-text-write-cpu.js [--rows N] [--commits N] [--window N]`: what the description's
 * FTS5 trigram index costs a write once it has been written to for a while. A table of N rows (default 100 000,
 * about as wide as a movement) with descriptions drawn like the search bench's, then for each variant a copy of it
 * with the text's index as a variant makes it (built by `rebuild`, as the migrations build it), and `--commits`
 * single-row insert transactions on each (default 30 000), as the create path commits a transfer, `--window` of
 * them (default 2 000) on each variant in turn; CPU of this process per commit, for each window. FTS5 writes each commit's rows as a new
 * segment and merges segments as they pile up; after a `rebuild` the whole index is one segment that those merges
 * take along for a while, so the first windows cost more than the later ones. Writes
 * bench/results/search-text-write-cpu.json.
 */

const ROW_PADDING = 'x'.repeat(900);

interface TextVariant {
  key: string;
  label: string;
  statements: string[];
}

function textIndex(automerge: number | undefined): string[] {
  return [
    `CREATE VIRTUAL TABLE "text" USING fts5("description", content='rows', content_rowid='id', tokenize='trigram', detail='none', columnsize=0)`,
    `CREATE TRIGGER "text_insert" AFTER INSERT ON "rows" BEGIN
      INSERT INTO "text" ("rowid", "description") VALUES (new."id", new."description");
    END`,
    `INSERT INTO "text" ("text") VALUES ('rebuild')`,
    ...(automerge === undefined ? [] : [`INSERT INTO "text" ("text", "rank") VALUES ('automerge', ${automerge})`]),
  ];
}

const VARIANTS: TextVariant[] = [
  { key: 'none', label: 'no text index', statements: [] },
  { key: 'migrated', label: 'FTS5 as migrated (detail=none, columnsize=0)', statements: textIndex(undefined) },
  { key: 'automerge-8', label: 'the same, automerge=8', statements: textIndex(8) },
];

function descriptionOf(id: number): string {
  const x = Math.sin(id * 12.9898) * 43_758.5453;
  const draw = x - Math.floor(x);
  const word = DESCRIPTION_WORDS.find(([, share]) => draw < share)?.[0] ?? 'Varios';
  return id % 2 === 0 ? `${word} ${invoiceOf(id)}` : word;
}

function positive(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

function seeded(file: string, rows: number, statements: string[]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE "rows" ("id" INTEGER PRIMARY KEY, "description" TEXT NOT NULL, "padding" TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO "rows" VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let id = 1; id <= rows; id++) insert.run(id, descriptionOf(id), ROW_PADDING);
    })();
    for (const statement of statements) db.exec(statement);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** A variant's file open for single-row commits: CPU µs per commit of the next `count` commits. */
function committer(file: string, firstId: number) {
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO "rows" VALUES (?, ?, ?)');
  const commit = db.transaction((id: number) => insert.run(id, descriptionOf(id), ROW_PADDING));
  let next = firstId;
  return {
    cpuPerCommit(count: number): number {
      const before = process.cpuUsage();
      for (let done = 0; done < count; done++) commit(next++);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / count;
    },
    close: () => db.close(),
  };
}

function main(args: string[]): void {
  const rows = positive(args, '--rows', 100_000);
  const commits = positive(args, '--commits', 30_000);
  const window = positive(args, '--window', 2_000);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-search-text-write-'));
  const results = VARIANTS.map((variant) => ({ variant: variant.label, microsPerCommit: [] as number[] }));
  const committers: ReturnType<typeof committer>[] = [];
  try {
    for (const variant of VARIANTS) {
      const file = join(workDir, `${variant.key}.sqlite`);
      seeded(file, rows, variant.statements);
      committers.push(committer(file, rows + 1));
    }
    // The variants' windows alternated, so that the machine's drift falls on all of them alike.
    for (let written = 0; written < commits; written += window) {
      for (const [index, each] of committers.entries()) results[index].microsPerCommit.push(each.cpuPerCommit(window));
      process.stderr.write(`[search-text-write-cpu] ${written + window} commits each\n`);
    }
  } finally {
    for (const each of committers) each.close();
    rmSync(workDir, { recursive: true, force: true });
  }
  const machine = machineInfo();
  writeResultsJson('search-text-write-cpu', { machine, rows, commits, window, results });
  const windows = results[0]?.microsPerCommit.map((_, index) => `${formatNumber((index + 1) * window)}`) ?? [];
  console.log(
    [
      `CPU µs per single-row commit, ${formatNumber(rows)} rows first, each column the ${formatNumber(window)} commits up to it; ${machine.date}.`,
      '',
      markdownTable(
        ['variant', ...windows],
        results.map((result) => [result.variant, ...result.microsPerCommit.map((micros) => formatNumber(micros))]),
        ['l', ...windows.map(() => 'r' as const)],
      ),
    ].join('\n'),
  );
}

main(process.argv.slice(2));
