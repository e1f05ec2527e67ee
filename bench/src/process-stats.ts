import { readFileSync } from 'node:fs';

/** Peak resident set (VmHWM) of a process in MiB, from /proc; undefined where there is no /proc. */
export function peakRssMiB(pid: number): number | undefined {
  return statusField(pid, 'VmHWM');
}

function statusField(pid: number, field: string): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; undefined where there is none. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux build Node supports. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** This process's own peak RSS in MiB (also where /proc is absent). */
export function ownPeakRssMiB(): number {
  return peakRssMiB(process.pid) ?? Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** CPU ticks of the whole machine so far (all cores), from /proc/stat; undefined where there is none. */
export function machineCpuTicks(): { busy: number; total: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU (all cores) that was busy between two readings of machineCpuTicks. */
export function busyShare(
  before: ReturnType<typeof machineCpuTicks>,
  after: ReturnType<typeof machineCpuTicks>,
): number | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}
