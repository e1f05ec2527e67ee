// Keeps the kills of a chaos run out of its database outages. An outage must show that the replicas RUNNING
// through it recover without a restart, and a replica cannot start while its database is away (its migrations
// need it): so an outage waits until no replica is between its kill and its restart, and no kill starts until
// the outage is over. Kills before and after an outage go on as planned.

export class KillWindow {
  private cycles = 0;
  private outage: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  /** Whether a replica is between its kill and its restart (started but not ready yet, perhaps). */
  get restarting(): boolean {
    return this.cycles > 0;
  }

  /** Runs one kill-and-restart cycle, once no outage is under way. */
  async cycle<T>(work: () => Promise<T>): Promise<T> {
    while (this.outage) await this.outage;
    this.cycles += 1;
    try {
      return await work();
    } finally {
      this.cycles -= 1;
      if (this.cycles === 0) this.drained?.();
    }
  }

  /** Runs `work` (an outage) once every cycle under way has ended, holding new ones until it is done. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.outage) await this.outage;
    let end = () => {};
    this.outage = new Promise((resolve) => {
      end = resolve;
    });
    try {
      if (this.cycles > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await work();
    } finally {
      this.outage = undefined;
      end();
    }
  }
}
