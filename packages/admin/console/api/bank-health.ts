/** The bank as the reconciler's readiness check sees it: reachable over mutual TLS, or not and why. */
export interface BankHealth {
  healthy: boolean;
  detail: string;
}

interface ReadinessAnswer {
  details?: Record<string, { status?: string; message?: string } | undefined>;
}

/**
 * `health/ready` of this origin (the reconciler's: the database and a TLS handshake with the bank, at most 5 s old),
 * read for its `bank` part; null where the application serves no such check (a host that mounts only the admin
 * module), so the dashboard leaves the bank out rather than guess. Unauthenticated, like every health check.
 */
export async function fetchBankHealth(): Promise<BankHealth | null> {
  const response = await fetch('health/ready', { headers: { accept: 'application/json' } });
  // 503 is the answer when something is down: it still says what.
  if (response.status !== 200 && response.status !== 503) return null;
  const answer = (await response.json().catch(() => ({}))) as ReadinessAnswer;
  const bank = answer.details?.bank;
  if (bank?.status === undefined) return null;
  return { healthy: bank.status === 'up', detail: bank.message ?? '' };
}
