import type { AcceptedTransfer } from '../ledger/movement';
import { scenarioOf } from '../ledger/scenario';
import { errorReply } from '../server/http-io';
import type { ApiEndpoint, Processed } from './api-endpoint';
import { movementAnswer } from './movement-answer';
import { validateTransferRequest } from './transfer-request.validation';

export const DUPLICATE_ORIGIN_ID = 'DUPLICATE_ORIGIN_ID';

/**
 * docs/bank-api.md#create-a-transfer-request: creates the movement, or answers a repeated originId without
 * processing it again.
 */
export const transferRequestEndpoint: ApiEndpoint<AcceptedTransfer> = {
  name: 'transfer-request',
  path: '/v2/apibank/movements/transfer-request',
  validate: validateTransferRequest,
  process(transfer, state, nowMs, answerFault): Processed {
    const { ledger, config } = state;
    const existing = ledger.find(transfer.originId);
    if (existing) {
      existing.duplicateRequests += 1;
      state.counters.duplicates += 1;
      const message = `originId ${transfer.originId} was already processed; it is not processed again`;
      if (config.duplicateMode === 'conflict') {
        return { outcome: 'duplicate', reply: errorReply(409, DUPLICATE_ORIGIN_ID, message) };
      }
      const answer = movementAnswer(existing, ledger.idsOf(existing), nowMs);
      return {
        outcome: 'duplicate',
        reply: { status: 200, body: { ...answer, warning: `${DUPLICATE_ORIGIN_ID}: ${message}` } },
        reports: { movement: existing, status: answer.status },
      };
    }

    const scenario = scenarioOf(transfer.description);
    if (scenario.reject) {
      return {
        outcome: 'rejected',
        reply: errorReply(422, 'TRANSFER_REJECTED', 'the destination entity rejected the transfer; nothing was sent'),
      };
    }
    const movement = ledger.register(transfer, scenario, nowMs, config.timings);
    movement.creationAnswer = scenario.lost ? 'lost' : (answerFault ?? 'delivered');
    const answer = movementAnswer(movement, ledger.idsOf(movement), nowMs);
    return {
      outcome: 'created',
      reply: { status: 200, body: answer },
      reports: { movement, status: answer.status },
      loseAnswer: scenario.lost,
    };
  },
};
