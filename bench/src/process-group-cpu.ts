import { readdirSync, readFileSync } from 'node:fs';
import { CLOCK_TICKS_PER_SECOND } from './process-stats';

/**
 * The CPU time used by every process whose command name is `command` (the Postgres server and its
 * backends), sampled from /proc every `everyMs`: a process that exits meanwhile (a backend whose client
 * disconnected) still counts up to its last sample. Where there is no /proc, it measures nothing. With `word`,
 * only those whose command line has it as a word: Postgres shows a backend's database there
 * (`postgres: 15/main: postgres giro_bench 127.0.0.1(36008) idle`), so the backends of one database are
 * measured apart from those serving other work on the same server.
 */
export class ProcessGroupCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly command: string,
    // Each sample reads every process's /proc stat file, on the cores the measured run needs: at 5 samples a
    // second the benchmark's own process took ~6 % of the CPU of a Postgres sweep run. A backend that exits
    // between two samples loses at most this much of its CPU time from the count.
    private readonly everyMs = 500,
    private readonly word?: string,
  ) {}

  start(): void {
    for (const [pid, ms] of this.read()) this.first.set(pid, ms);
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  /** Stops sampling; the CPU ms the group used since start(), undefined without /proc. */
  stop(): number | undefined {
    clearInterval(this.timer);
    this.sample();
    if (this.first.size === 0 && this.last.size === 0) return undefined;
    let total = 0;
    for (const [pid, ms] of this.last) total += ms - (this.first.get(pid) ?? 0);
    return total;
  }

  private sample(): void {
    for (const [pid, ms] of this.read()) {
      this.last.set(pid, ms);
      // Born after start(): all of its CPU time belongs to the measured period.
      if (!this.first.has(pid)) this.first.set(pid, 0);
    }
  }

  private read(): Map<number, number> {
    const times = new Map<number, number>();
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return times;
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (command !== this.command) continue;
        if (this.word !== undefined && !this.hasWord(entry)) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        times.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND);
      } catch {
        // The process exited between listing and reading.
      }
    }
    return times;
  }

  private hasWord(pid: string): boolean {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return commandLine.split(/[\s\0]+/).includes(this.word as string);
  }
}
