import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ProcessGroupCpu } from './process-group-cpu';

describe('ProcessGroupCpu', () => {
  it('counts the CPU of a process of the group that started and exited while it measured', async () => {
    const group = new ProcessGroupCpu('node', 20);
    group.start();
    // A node process that keeps one core busy for 400 ms, then exits.
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end) {}']);
    await new Promise((resolve) => child.on('exit', resolve));
    const cpuMs = group.stop();
    if (!existsSync('/proc')) {
      expect(cpuMs).toBeUndefined();
      return;
    }
    // Its last sample came at most 20 ms before it exited; other node processes may only add.
    expect(cpuMs).toBeGreaterThanOrEqual(300);
  });

  it('measures nothing for a command no process has', () => {
    const group = new ProcessGroupCpu('no-such-command-for-giro', 20);
    group.start();
    expect(group.stop()).toBeUndefined();
  });
});
