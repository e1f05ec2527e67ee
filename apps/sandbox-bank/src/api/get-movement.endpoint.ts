import type { Movement } from '../ledger/movement';
import { errorReply } from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';
import type { ApiEndpoint, Processed } from './api-endpoint';
import { type GetMovementRequest, type MovementLookup, validateGetMovement } from './get-movement.validation';
import { movementAnswer } from './movement-answer';
import { networkRawData } from './network-raw-data';

/**
 * docs/bank-api.md#get-a-movement: the movement's current state, recorded in the ledger and audited against the
 * polling rules.
 */
export const getMovementEndpoint: ApiEndpoint<GetMovementRequest> = {
  name: 'get-movement',
  path: '/v2/apibank/movements/get-movement',
  validate: validateGetMovement,
  process({ lookup, getRawData }, state, nowMs, answerFault): Processed {
    const { ledger, config } = state;
    const movement = find(state, lookup);
    const notFound = errorReply(404, 'MOVEMENT_NOT_FOUND', 'no movement matches the lookup');
    if (!movement) return { outcome: 'not-found', reply: notFound };
    if (nowMs < movement.createdAtMs + config.registrationLagMs) {
      ledger.recordLookup(movement, nowMs, 'NOT_FOUND', config.polling, answerFault);
      return { outcome: 'not-registered-yet', reply: notFound };
    }

    const status = movement.statusAt(nowMs);
    ledger.recordLookup(movement, nowMs, status, config.polling, answerFault);
    const ids = ledger.idsOf(movement);
    const body = getRawData ? networkRawData(movement, ids, nowMs) : movementAnswer(movement, ids, nowMs);
    return { outcome: 'found', reply: { status: 200, body }, reports: { movement, status } };
  },
};

function find({ ledger }: SandboxState, lookup: MovementLookup): Movement | undefined {
  if ('originId' in lookup) return ledger.find(lookup.originId);
  if ('networkId' in lookup) return ledger.findByNetworkId(lookup.networkId);
  return ledger.findByDebinId(lookup.debinId);
}
