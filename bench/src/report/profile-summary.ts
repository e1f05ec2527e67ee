import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of a V8 CPU profile (`--cpu-prof`) spent in each package or runtime area. */
export interface ProfileSummary {
  totalMs: number;
  /** Largest first. */
  parts: { part: string; share: number }[];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function's code lives: a package, giro's own code, a runtime area. */
export function partOf(functionName: string, url: string): string {
  if (url === '') return nativePart(functionName);
  // better-sqlite3 runs statements synchronously in native code, which V8 counts in the JS caller's own
  // time: TypeORM's query() of that driver is where every statement (and its commit's fsync) is spent.
  if (functionName === 'query' && url.includes('typeorm/driver/better-sqlite3/')) return 'SQLite statements';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (packageMatch) return packageMatch[1];
  const giroMatch = /\/(packages|apps)\/([^/]+)\/dist\//.exec(url);
  if (giroMatch) return `@giro/${giroMatch[2]}`;
  if (url.includes('/bench/dist/')) return 'the benchmark itself';
  if (/^node:internal\/(modules|bootstrap)/.test(url)) return 'start-up (loading modules)';
  if (url.startsWith('node:internal/crypto') || url === 'node:crypto') return 'node: crypto';
  if (/^node:(internal\/)?(net|tls|_tls|stream|streams|http|_http)/.test(url)) return 'node: net, TLS, streams';
  if (url.startsWith('node:')) return 'node: other';
  return 'other';
}

function nativePart(functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)') return 'idle (waiting for I/O)';
  if (/^write/.test(functionName)) return 'socket writes';
  return 'V8 and native code';
}

export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const partById = new Map(
    profile.nodes.map((node) => [node.id, partOf(node.callFrame.functionName, node.callFrame.url)]),
  );
  const byPart = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const part = partById.get(id) ?? 'other';
    byPart.set(part, (byPart.get(part) ?? 0) + delta);
    total += delta;
  });
  const parts = [...byPart]
    .map(([part, micros]) => ({ part, share: total > 0 ? micros / total : 0 }))
    .sort((a, b) => b.share - a.share);
  return { totalMs: total / 1000, parts };
}

/** The profile `--cpu-prof` wrote for process `pid` in `dir`, summarized; undefined when there is none. */
export function summarizeProfileOf(dir: string, pid: number): ProfileSummary | undefined {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && name.split('.')[3] === String(pid));
  return file ? summarizeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile) : undefined;
}

/** The profiles of each profiled run (the first process of a multi-process run stands for the others). */
export function summarizeProfiles(
  dir: string,
  runs: { label: string; pids: number[] }[],
): { label: string; summary: ProfileSummary }[] {
  return runs.flatMap(({ label, pids }) => {
    const summary = summarizeProfileOf(dir, pids[0]);
    return summary ? [{ label, summary }] : [];
  });
}
