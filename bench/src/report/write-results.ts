import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResults } from './results';

/** The repository root, from bench/dist/report. */
const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.json');
const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md');
const START = '<!-- bench:latest:start -->';
const END = '<!-- bench:latest:end -->';

/** `bench/results/latest.json`: NaN figures (not measured) become null. */
export function writeResultsJson(results: BenchResults): void {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, (_key, value) => (Number.isNaN(value) ? null : value), 2)}\n`);
}

/** Puts the report between the markers of BENCHMARKS.md: the document always shows the latest run. */
export function recordInBenchmarksDoc(report: string): void {
  const document = readFileSync(BENCHMARKS_FILE, 'utf8');
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start === -1 || end < start) throw new Error(`BENCHMARKS.md lacks the ${START} … ${END} markers`);
  writeFileSync(BENCHMARKS_FILE, `${document.slice(0, start + START.length)}\n${report}\n${document.slice(end)}`);
}
