import { type RunningProcess, startNode } from '@giro/sandbox-bank/testing/child-process';

const isRunning = (running: RunningProcess) => running.child.exitCode === null && running.child.signalCode === null;

/** The long-running processes a suite starts (`node <script>`), so that its afterAll can stop every one. */
export class ChildProcesses {
  private readonly started: RunningProcess[] = [];

  start(script: string, options: { cwd: string; env: Record<string, string>; args?: string[] }): RunningProcess {
    const running = startNode(script, options);
    this.started.push(running);
    return running;
  }

  /** SIGTERM to each one still running, then SIGKILL to any that has not exited `graceMs` later. */
  async stopAll(graceMs = 5_000): Promise<void> {
    const left = this.started.splice(0).filter(isRunning);
    for (const running of left) running.child.kill('SIGTERM');
    await Promise.all(
      left.map(async (running) => {
        const timer = setTimeout(() => running.child.kill('SIGKILL'), graceMs);
        await running.exit;
        clearTimeout(timer);
      }),
    );
  }
}
