/**
 * Tells this process's dispatcher that deliveries may be due now (events committed here, a delivery recorded
 * that a later one of its transfer waited for) instead of letting it find out at its next poll.
 */
export class WebhookWakeUp {
  private waiter: (() => void) | undefined;
  private notified = false;

  notify(): void {
    this.notified = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Resolves at the next notify (at once if one came since the last wait), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.waiter === done) self.waiter = undefined;
        self.notified = false;
        resolve();
      }
      this.waiter = done;
    });
  }
}
