import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ProcessGroupCpu } from './process-group-cpu';

describe('ProcessGroupCpu', () => {
  it('counts the CPU of a process of the group that started and exited while it measured', async () => {
    // The group is a name the child gives itself: a node process's own name is no fixed thing (`node` on Node 20,
    // `MainThread` on Node 24, which names its main thread and so the process), and other node processes share it.
    const group = new ProcessGroupCpu('giro-cpu-probe', 20);
    group.start();
    // A node process that uses 400 ms of CPU, then exits: CPU time, not wall time, as a busy machine gives a
    // wall-clock spin less than that.
    const child = spawn(process.execPath, [
      '-e',
      "process.title = 'giro-cpu-probe'; const end = process.cpuUsage().user + 400_000; while (process.cpuUsage().user < end) {}",
    ]);
    await new Promise((resolve) => child.on('exit', resolve));
    const cpuMs = group.stop();
    if (!existsSync('/proc')) {
      expect(cpuMs).toBeUndefined();
      return;
    }
    // Its last sample came at most 20 ms before it exited.
    expect(cpuMs).toBeGreaterThanOrEqual(300);
  });

  it('measures nothing for a command no process has', () => {
    const group = new ProcessGroupCpu('no-such-command-for-giro', 20);
    group.start();
    expect(group.stop()).toBeUndefined();
  });
});
