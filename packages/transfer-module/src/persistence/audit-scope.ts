import type { Actor } from '../domain';
import { ContextValue } from '../domain/context-value';

/** Who asked for what, as the audit trail records it around one request (admin API) or one call (a host). */
export interface AuditRequest {
  /** The caller; null when it presented no valid credential (a refused request). */
  who: Actor | null;
  /** What was asked: `transfer.create`, `cancellation.ack`, `key.revoke`… */
  action: string;
  requestId: string;
  /** The caller's address (the admin API's `request.ip`); null when there is none (a host's own call, the CLI). */
  clientAddress: string | null;
  /**
   * What the request is about, as far as it says (a route's `:originId`, a key's name): the rows written for it
   * without a store change (a repeat, a refusal) carry these; a store change's row carries its own.
   */
  originId?: number | null;
  target?: string | null;
}

/** An open audit scope: the request, and whether a change made inside it has written its audit row yet. */
export interface ActiveAuditScope extends AuditRequest {
  recorded: boolean;
}

// Whatever runs inside `runInAuditScope` (awaited promises, timers) sees the same scope, and concurrent requests
// each see their own. It rides in giro's one call context (ContextValue): OpenTelemetry's where a tracing SDK is
// registered, so a traced process runs no second storage for it.
const scopes = new ContextValue<ActiveAuditScope>('giro audit scope');

/**
 * Runs `work` inside an audit scope: the store's changes made meanwhile (AuditTrail.recordChange, in their own
 * transactions) are attributed to `request`, and mark the scope recorded.
 */
export function runInAuditScope<T>(request: AuditRequest, work: (scope: ActiveAuditScope) => Promise<T>): Promise<T> {
  const scope: ActiveAuditScope = { ...request, recorded: false };
  return scopes.runWith(scope, () => work(scope));
}

/** The audit scope the caller runs in; undefined outside any (giro's own work: sweeps, deliveries). */
export function currentAuditScope(): ActiveAuditScope | undefined {
  return scopes.current();
}
