/**
 * The figures CI's bench guard checks, each a ratio of two rates measured on the same machine in the same run, so
 * that the machine's speed cancels out. A figure fails below its floor. Each floor is set well under the goal, so
 * that the run-to-run spread of a quick run does not fail it on any machine CI may get (unchanged code measured on
 * two hosts of the same model differs by a third), and well above half of what
 * giro does, so that a halving of the rate on giro's side does; BENCHMARKS.md ("The CI guard") gives the runs
 * each floor was chosen from.
 */
export interface GuardFloor {
  /** The figure, as the guard's table and its failure message name it. */
  figure: string;
  /** The figure in a results file (`bench/results/guard.json`, or `latest.json` of a full `pnpm bench`). */
  read(results: GuardResults): unknown;
  floor: number;
  /** The goal the figure answers to (issue 7, raised by issue 32 for create ÷ limit). */
  goal: number;
  /** What a figure under its floor most likely means, for the failure's message. */
  why: string;
}

/** The parts of a results file the floors read; anything may be missing from a file that was not written by the guard. */
export interface GuardResults {
  create?: { ratioToPeer?: unknown; ratioToLimit?: unknown };
  sweep?: { sqlite?: { ratioToLimit?: unknown }; postgres?: { scaling?: unknown } };
}

export const GUARD_FLOORS: readonly GuardFloor[] = [
  {
    figure: 'create c=64, giro ÷ naive peer',
    read: (results) => results.create?.ratioToPeer,
    floor: 1.5,
    goal: 4,
    why: "giro's create path costs more per transfer than it did (`pnpm bench --quick --only create --profile`)",
  },
  {
    figure: 'create c=64, giro ÷ limit',
    read: (results) => results.create?.ratioToLimit,
    floor: 0.5,
    goal: 1.5,
    why: 'giro is slower than a client that commits every statement on its own: its commits shared less, or each transfer costing more',
  },
  {
    figure: 'sweep SQLite, 100 000 due, giro ÷ limit',
    read: (results) => results.sweep?.sqlite?.ratioToLimit,
    floor: 0.8,
    goal: 0.5,
    why: 'giro sweeps slower than a client that commits every answer on its own: its commits shared less, or each query costing more',
  },
  {
    figure: 'sweep Postgres, 4 processes ÷ 1',
    read: (results) => results.sweep?.postgres?.scaling,
    floor: 1.7,
    goal: 3,
    why: 'replicas wait on each other (leases taken over, a budget divided) or each query costs more; it also reads low when other work takes the CPU',
  },
];
