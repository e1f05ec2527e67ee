/** The source of "now". Injected wherever time matters, so schedules are testable without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that moves only when told to: for tests and simulations. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = 0) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date | number): void {
    this.current = new Date(time).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
