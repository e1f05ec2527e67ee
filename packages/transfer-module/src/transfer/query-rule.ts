import { isFinalStatus, type PollingPolicy } from '../domain';
import type { MovementRecord } from '../persistence';
import { PollTooSoonError } from './transfer.errors';

/**
 * Throws PollTooSoonError when asking the bank about `record` at `now` would break the polling rule
 * (docs/bank-api.md#states-and-polling): a query held back after a takeover or a raw answer, the status's
 * interval since the last answer, and for a final movement (asked again on demand only) the shorter interval.
 */
export function assertQueryAllowed(record: MovementRecord, policy: PollingPolicy, now: Date): void {
  const { status, lastAnswerAt, originId, queriesHeldUntil } = record;
  if (queriesHeldUntil !== null && queriesHeldUntil.getTime() > now.getTime()) {
    throw new PollTooSoonError(originId, queriesHeldUntil, now);
  }
  if (lastAnswerAt === null) return;
  const earliest = isFinalStatus(status)
    ? policy.earliestRecheckAt(lastAnswerAt)
    : policy.earliestQueryAt(status, lastAnswerAt);
  if (earliest.getTime() > now.getTime()) throw new PollTooSoonError(originId, earliest, now);
}
