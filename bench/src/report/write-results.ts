import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Each bench writes its results twice: as JSON in bench/results/<name>.json, and as a report between its markers
// in BENCHMARKS.md (`<!-- bench:<name>:start -->` … `<!-- bench:<name>:end -->`), so the document always shows
// the latest run of each.

/** The repository root, from bench/dist/report. */
const ROOT = join(__dirname, '..', '..', '..');
const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md');

export function resultsFile(name: string): string {
  return join(ROOT, 'bench', 'results', `${name}.json`);
}

/** `bench/results/<name>.json`: NaN figures (not measured) become null. Returns the file's path. */
export function writeResultsJson(name: string, results: unknown): string {
  const file = resultsFile(name);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, (_key, value) => (Number.isNaN(value) ? null : value), 2)}\n`);
  return file;
}

/** Puts the report between the markers of section `name` in BENCHMARKS.md, in place of the previous one. */
export function recordInBenchmarksDoc(name: string, report: string): void {
  const [startMarker, endMarker] = [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];
  const document = readFileSync(BENCHMARKS_FILE, 'utf8');
  const start = document.indexOf(startMarker);
  const end = document.indexOf(endMarker);
  if (start === -1 || end < start) throw new Error(`BENCHMARKS.md lacks the ${startMarker} … ${endMarker} markers`);
  writeFileSync(BENCHMARKS_FILE, `${document.slice(0, start + startMarker.length)}\n${report}\n${document.slice(end)}`);
}
