import { explainOriginId } from '@giro/transfer-module';
import { validateTransferRequest } from '../api/transfer-request.validation';
import type { SandboxViolation } from '../config/sandbox-config';
import type { AcceptedTransfer } from '../ledger/movement';
import { type Scenario, scenarioOf } from '../ledger/scenario';
import { errorReply, type JsonReply } from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';

/** The most movements one seed request registers (a benchmark's largest backlog). */
export const MAX_SEED_COUNT = 1_000_000;

interface SeedRequest {
  firstOriginId: number;
  count: number;
  transfer: AcceptedTransfer;
  scenario: Scenario;
}

/**
 * `POST /__sandbox/seed {firstOriginId, count, transfer}`: registers `count` movements with consecutive
 * originIds from `firstOriginId`, each as if `transfer` (a transfer request without its originId) had been
 * created now with the current timings. No answer counts as delivered, so a client's first lookup of a seeded
 * movement is never "too early". For benchmarks, which need large backlogs faster than the API can create them.
 * All or nothing: an invalid request, or an originId in the range already processed, registers none.
 */
export function seedMovements(state: SandboxState, body: unknown): JsonReply {
  const read = readSeedRequest(body);
  if (!read.ok) {
    const { violations } = read;
    return errorReply(400, 'INVALID_SEED', violations.map((violation) => violation.message).join('; '), { violations });
  }
  const { firstOriginId, count, transfer, scenario } = read.request;
  const lastOriginId = firstOriginId + count - 1;
  for (let originId = firstOriginId; originId <= lastOriginId; originId++) {
    if (state.ledger.find(originId)) {
      return errorReply(409, 'ALREADY_PROCESSED', `originId ${originId} was already processed; nothing was seeded`);
    }
  }
  const nowMs = state.nowMs();
  const { timings } = state.config;
  for (let originId = firstOriginId; originId <= lastOriginId; originId++) {
    state.ledger.register({ ...transfer, originId }, scenario, nowMs, timings);
  }
  return { status: 200, body: { seeded: count, firstOriginId, lastOriginId } };
}

function readSeedRequest(
  body: unknown,
): { ok: true; request: SeedRequest } | { ok: false; violations: SandboxViolation[] } {
  const { firstOriginId, count, transfer } = isObject(body) ? body : ({} as Record<string, unknown>);
  const violations: SandboxViolation[] = [];
  const originIdProblem = explainOriginId(firstOriginId);
  if (originIdProblem) {
    violations.push({ field: 'firstOriginId', rule: 'origin_id', message: `firstOriginId ${originIdProblem}` });
  }
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_SEED_COUNT) {
    violations.push({ field: 'count', rule: 'range', message: `count must be an integer from 1 to ${MAX_SEED_COUNT}` });
  } else if (!originIdProblem && (count as number) - 1 > Number.MAX_SAFE_INTEGER - (firstOriginId as number)) {
    // Compared this way round: firstOriginId + count could round to a safe integer before the check.
    const message = 'count: the last originId (firstOriginId + count - 1) must be a safe integer';
    violations.push({ field: 'count', rule: 'range', message });
  }
  if (!isObject(transfer)) {
    violations.push({ field: 'transfer', rule: 'type', message: 'transfer must be a JSON object' });
    return { ok: false, violations };
  }
  // Validated as the API validates a request, with a placeholder originId (the range is checked above).
  const validated = validateTransferRequest({ ...transfer, originId: 1 });
  if (!validated.ok) {
    for (const { field, code, message } of validated.violations) {
      violations.push({ field: `transfer.${field}`, rule: code, message: `transfer: ${message}` });
    }
    return { ok: false, violations };
  }
  const scenario = scenarioOf(validated.value.description);
  if (scenario.reject) {
    const message = 'transfer: a [reject] transfer is never processed, so it cannot be seeded';
    violations.push({ field: 'transfer.body.description', rule: 'scenario', message });
  }
  if (violations.length > 0) return { ok: false, violations };
  return {
    ok: true,
    request: { firstOriginId: firstOriginId as number, count: count as number, transfer: validated.value, scenario },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
