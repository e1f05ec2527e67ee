import type { ValueOf, Variable } from './variable-kinds';
import { VARIABLES, type VariableName } from './variables';

/** The reconciler's variables, read and typed (`variables.ts`): a variable with a default always has a value. */
export type ReconcilerEnvironment = { readonly [Name in VariableName]: ValueOf<(typeof VARIABLES)[Name]> };

export type EnvironmentResult = { ok: true; environment: ReconcilerEnvironment } | { ok: false; problems: string[] };

/**
 * Reads the reconciler's variables out of `env` (anything else is ignored), each by its declaration. An empty
 * value counts as unset, as in a `.env` line `BANK_BASE_URL=`. Messages name the variable and its rule, never a
 * value; every bad variable is listed.
 */
export function readEnvironment(env: Record<string, string | undefined>): EnvironmentResult {
  const environment: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES) as [VariableName, Variable<unknown>][]) {
    const text = env[name];
    if (text === undefined || text === '') {
      environment[name] = variable.default;
      continue;
    }
    const reading = variable.read(text);
    if ('problem' in reading) problems.push(`${name} ${reading.problem}`);
    else environment[name] = reading.value;
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, environment: environment as ReconcilerEnvironment };
}
