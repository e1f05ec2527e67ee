import { type ReconcilerEnvironment, readEnvironment } from '../../apps/reconciler/src/config/environment';

/** The typed environment of `env`, for a spec of one of its topics; its variables must each be valid. */
export function environmentOf(env: Record<string, string | undefined>): ReconcilerEnvironment {
  const read = readEnvironment(env);
  if (!read.ok) throw new Error(`invalid variables in the spec: ${read.problems.join('; ')}`);
  return read.environment;
}
