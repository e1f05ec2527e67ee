/**
 * A replica silent this long (no heartbeat in `giro_replicas`) crashed or lost the database: its leases are taken
 * over without waiting for them to expire. Safe before their expiry: its writes are fenced on its lease (the new
 * owner's lease replaces it). For a movement, a send is counted in the database before it starts (so a
 * never-counted movement was never sent), and the first query after a takeover still waits DELAYED's rule from the
 * old lease's expiry (QuerySchedule.afterTakeover), which covers any answer the silent replica may still get. For
 * a webhook delivery, the silent replica's attempt may still reach the receiver: a second one is what webhooks
 * promise anyway (at least once, the same `webhook-id`).
 */
export const TAKEOVER_AFTER_SILENCE_MS = 10_000;

/**
 * On Postgres, where replicas beat: the condition under which the lease of the row `alias` is free before its
 * expiry — its owner's last heartbeat is older than TAKEOVER_AFTER_SILENCE_MS, and the claimer has itself been
 * beating without a gap for that long (after a database outage every heartbeat is old, and a replica must not take
 * over another that has simply not beaten again yet). A replica with no row never wrote a heartbeat: its leases
 * run to their expiry, as on SQLite. Never the claimer's own lease: a replica that claims is alive, however late
 * its heartbeat (queued behind a busy pool) is written. Its parameters: silentOwnerParameters.
 */
export function silentOwnerLease(alias: string): string {
  return `(${alias}."lease_owner" IN (SELECT r."owner" FROM "giro_replicas" r WHERE r."heartbeat_at_ms" <= ?)
    AND EXISTS (SELECT 1 FROM "giro_replicas" c WHERE c."owner" = ? AND c."beating_since_ms" <= ?)
    AND ${alias}."lease_owner" <> ?)`;
}

/** The parameters of silentOwnerLease (`claimer` null: a read that takes nothing, so no lease is free early). */
export function silentOwnerParameters(nowMs: number, claimer: string | null): unknown[] {
  const silentBefore = nowMs - TAKEOVER_AFTER_SILENCE_MS;
  return [silentBefore, claimer, silentBefore, claimer];
}
