import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessGroupCpu } from './process-group-cpu';

/**
 * A child's script: spin until the process has used `micros` of CPU (user time, or user and system), say `spun`,
 * then wait for its input to end. Waiting, not exiting: on a busy machine the samples come late, and a process that
 * exits right after its spin may lose much of it from the count (a sample sees only the living).
 */
function spinThenWait(micros: string, withSystem = false): string {
  const spent = withSystem
    ? '(() => { const { user, system } = process.cpuUsage(); return user + system; })()'
    : 'process.cpuUsage().user';
  return `while (${spent} < ${micros}) {} process.stdout.write('spun'); process.stdin.on('end', () => process.exit(0)).resume();`;
}

/**
 * Once every child has spun, waits three sampling periods (its timer of 20 ms fires before this one of 60 ms, which
 * was set after it: Node runs due timers in the order they fall due), so a sample saw each child whole; then ends
 * their input and waits for their exits.
 */
async function sampledThenExit(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => new Promise((resolve) => child.stdout?.once('data', resolve))));
  await sleep(60);
  const exits = children.map((child) => new Promise((resolve) => child.on('exit', resolve)));
  for (const child of children) child.stdin?.end();
  await Promise.all(exits);
}

describe('ProcessGroupCpu', () => {
  it('counts the CPU of a process of the group that started and exited while it measured', async () => {
    // The group is a name the child gives itself: a node process's own name is no fixed thing (`node` on Node 20,
    // `MainThread` on Node 24, which names its main thread and so the process), and other node processes share it.
    const group = new ProcessGroupCpu('giro-cpu-probe', 20);
    group.start();
    // A node process that uses 400 ms of CPU, then exits: CPU time, not wall time, as a busy machine gives a
    // wall-clock spin less than that. It exits once a sample has seen all of it (sampledThenExit).
    const child = spawn(process.execPath, ['-e', `process.title = 'giro-cpu-probe'; ${spinThenWait('400_000')}`]);
    await sampledThenExit([child]);
    const cpuMs = group.stop();
    if (!existsSync('/proc')) {
      expect(cpuMs).toBeUndefined();
      return;
    }
    // Its last sample came after its spin (ticks of 10 ms each).
    expect(cpuMs).toBeGreaterThanOrEqual(300);
  });

  it('counts only the processes whose command line has the word, when one is given', async () => {
    if (!existsSync('/proc')) return;
    // Children with node's own command name (which other node processes share), told apart by an argument.
    const command = readFileSync('/proc/self/comm', 'utf8').trim();
    // 300 ms of CPU each, user and system (each cpuUsage() is a system call): both children would pass 600.
    const spin = (word: string) => spawn(process.execPath, ['-e', spinThenWait('300_000', true), word]);
    const group = new ProcessGroupCpu(command, 20, 'giro_wanted_word');
    group.start();
    const children = [spin('giro_wanted_word'), spin('giro_other_word')];
    await sampledThenExit(children);
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
