import type { BankStatus } from '@giro/transfer-module';
import type { AnswerFault } from '../faults/fault-decision';
import type { CountedEndpoint } from '../ledger/counters';
import type { Movement } from '../ledger/movement';
import type { JsonReply } from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';
import type { Validated } from './request-violations';

/** The result of processing one valid API request. */
export interface Processed {
  /** Counted under `requests[endpoint][outcome]`. */
  outcome: string;
  reply: JsonReply;
  /** The movement state this reply reports, recorded as the client's last answer once delivered. */
  reports?: { movement: Movement; status: BankStatus };
  /** `[lost]`: processed, but the connection is destroyed instead of answering. */
  loseAnswer?: boolean;
}

/** One of the bank's two endpoints (docs/bank-api.md#endpoints): how its body is checked and a valid one processed. */
export interface ApiEndpoint<Input> {
  name: CountedEndpoint;
  path: string;
  validate(body: unknown): Validated<Input>;
  /** Synchronous on purpose: the check for a repeated originId and its registration cannot interleave. */
  process(input: Input, state: SandboxState, nowMs: number, answerFault: AnswerFault | undefined): Processed;
}
