import { closedLoop, type LoadResult } from '../load';
import type { WorkerTracing } from './worker-tracing';

/** Which side each block is on, repeating: an ABBA order, so that a trend through the run weighs on both. */
const PATTERN = [true, false, false, true];

export interface PairedLoad {
  load: LoadResult;
  tracedCpuMsPerTransfer: number;
  suppressedCpuMsPerTransfer: number;
}

/**
 * `total` transfers (`transfer(index)` from `firstIndex` on) at `concurrency`, in blocks of `block`, traced and
 * with tracing suppressed in turn; a traced block ends once its spans are exported, so that its CPU time holds
 * their export.
 */
export async function pairedBlocks(
  tracing: WorkerTracing,
  options: { concurrency: number; total: number; block: number; firstIndex: number },
  transfer: (index: number) => Promise<void>,
): Promise<PairedLoad> {
  const cpuMs = { traced: 0, suppressed: 0 };
  const transfers = { traced: 0, suppressed: 0 };
  const load: LoadResult = { completed: 0, errors: 0, durationMs: 0, latenciesMs: [] };
  for (let done = 0, block = 0; done < options.total; done += options.block, block += 1) {
    const traced = PATTERN[block % PATTERN.length];
    const size = Math.min(options.block, options.total - done);
    const first = options.firstIndex + done;
    const started = process.cpuUsage();
    const part = await closedLoop(options.concurrency, size, (index) =>
      traced ? transfer(first + index) : tracing.suppressed(() => transfer(first + index)),
    );
    if (traced) await tracing.flush();
    const cpu = process.cpuUsage(started);
    const side = traced ? 'traced' : 'suppressed';
    cpuMs[side] += (cpu.user + cpu.system) / 1000;
    transfers[side] += part.completed;
    load.completed += part.completed;
    load.errors += part.errors;
    load.firstError ??= part.firstError;
    load.durationMs += part.durationMs;
    load.latenciesMs.push(...part.latenciesMs);
  }
  return {
    load,
    tracedCpuMsPerTransfer: cpuMs.traced / transfers.traced,
    suppressedCpuMsPerTransfer: cpuMs.suppressed / transfers.suppressed,
  };
}
