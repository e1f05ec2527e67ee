import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

  it('counts only the processes whose command line has the word, when one is given', async () => {
    if (!existsSync('/proc')) return;
    // Children with node's own command name (which other node processes share), told apart by an argument.
    const command = readFileSync('/proc/self/comm', 'utf8').trim();
    const spin = (word: string) =>
      spawn(process.execPath, [
        '-e',
        // 300 ms of CPU, user and system (each cpuUsage() is a system call): both children would pass 600.
        'const spent = () => { const { user, system } = process.cpuUsage(); return user + system; }; while (spent() < 300_000) {}',
        word,
      ]);
    const group = new ProcessGroupCpu(command, 20, 'giro_wanted_word');
    group.start();
    const children = [spin('giro_wanted_word'), spin('giro_other_word')];
    await Promise.all(children.map((child) => new Promise((resolve) => child.on('exit', resolve))));
    const cpuMs = group.stop() as number;
    expect(cpuMs).toBeGreaterThanOrEqual(250);
    expect(cpuMs).toBeLessThan(600);
  });

  it('measures nothing for a command no process has', () => {
    const group = new ProcessGroupCpu('no-such-command-for-giro', 20);
    group.start();
    expect(group.stop()).toBeUndefined();
  });
});
