import { DEFAULT_POLLING_OPTIONS } from '@giro/transfer-module';
import type { ReconcilerEnvironment } from './environment';

// The bank's polling intervals (docs/bank-api.md#states-and-polling) are minimums: with a real bank, lower ones
// are refused at start unless ALLOW_POLLING_BELOW_SPEC=true says that bank agreed to them (a test bank). Sandbox
// mode keeps its scaled-down intervals: the sandbox bank audits them.

const FLOORS = [
  ['POLL_MIN_INTERVAL_MS', DEFAULT_POLLING_OPTIONS.minIntervalMs, 'CREATED and IN_PROGRESS'],
  ['DELAYED_MIN_INTERVAL_MS', DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs, 'DELAYED'],
] as const;

/** Whether intervals below the bank's are accepted: in sandbox mode, or with ALLOW_POLLING_BELOW_SPEC=true. */
export function pollingBelowSpecAllowed(vars: ReconcilerEnvironment, sandbox: boolean): boolean {
  return sandbox || vars.ALLOW_POLLING_BELOW_SPEC;
}

/** The intervals below the bank's minimums, each naming its variable and the minimum; none when allowed. */
export function pollingFloorProblems(vars: ReconcilerEnvironment, sandbox: boolean): string[] {
  if (pollingBelowSpecAllowed(vars, sandbox)) return [];
  return FLOORS.filter(([name, minimum]) => vars[name] !== undefined && (vars[name] as number) < minimum).map(
    ([name, minimum, statuses]) =>
      `${name} is ${vars[name]} ms, below the bank's minimum of ${minimum} ms for ${statuses}: set it to at least ${minimum}, or set ALLOW_POLLING_BELOW_SPEC=true only for a test bank that agreed to it`,
  );
}

/** The warning printed at start when a real bank is polled below its minimums (ALLOW_POLLING_BELOW_SPEC=true). */
export function pollingFloorWarning(polling: {
  minIntervalMs: number;
  delayedMinIntervalMs: number;
}): string | undefined {
  const below = [
    polling.minIntervalMs < DEFAULT_POLLING_OPTIONS.minIntervalMs && `POLL_MIN_INTERVAL_MS=${polling.minIntervalMs}`,
    polling.delayedMinIntervalMs < DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs &&
      `DELAYED_MIN_INTERVAL_MS=${polling.delayedMinIntervalMs}`,
  ].filter((text): text is string => typeof text === 'string');
  if (below.length === 0) return undefined;
  return `WARNING: polling the bank below its minimums (${below.join(', ')}; the bank asks for ${DEFAULT_POLLING_OPTIONS.minIntervalMs} ms and more than ${DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs} ms) because ALLOW_POLLING_BELOW_SPEC=true: only for a test bank that agreed to it`;
}
