import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandom } from '@giro/sandbox-bank/faults/seeded-random';
import type { KillWindow } from './kill-window';
import type { KillableReconciler } from './killable-reconciler';

// The supervisor of a chaos run: SIGKILLs each replica at random (seeded) moments and starts it again, each
// replica on its own schedule, until every replica has taken its share of the kills. A kill falling due during a
// database outage waits for its end (KillWindow).

export interface KillPlan {
  /** Kills over all replicas, shared out as evenly as possible. */
  kills: number;
  /** Time a replica runs before it is killed: uniform in [min, max]. */
  uptimeMs: { min: number; max: number };
  /** Time a killed replica stays down before it starts again: uniform in [min, max]. */
  downtimeMs: { min: number; max: number };
}

/** Runs the kill plan to its end (every kill made, every replica started again). */
export async function superviseWithKills(
  replicas: KillableReconciler[],
  plan: KillPlan,
  random: () => number,
  window: KillWindow,
): Promise<void> {
  const shares = replicas.map((_, index) => Math.floor((plan.kills + index) / replicas.length));
  // Each replica draws from its own sequence, so one replica's timing never shifts another's.
  const seeds = replicas.map(() => Math.floor(random() * 2 ** 32));
  await Promise.all(
    replicas.map((replica, index) => killRepeatedly(replica, shares[index] ?? 0, plan, seeds[index] ?? 0, window)),
  );
}

async function killRepeatedly(
  replica: KillableReconciler,
  kills: number,
  plan: KillPlan,
  seed: number,
  window: KillWindow,
) {
  const random = seededRandom(seed);
  const between = ({ min, max }: { min: number; max: number }) => min + Math.floor(random() * (max - min + 1));
  for (let kill = 0; kill < kills; kill++) {
    await sleep(between(plan.uptimeMs));
    await window.cycle(async () => {
      await replica.kill();
      await sleep(between(plan.downtimeMs));
      await replica.start();
    });
  }
}
