// `@giro/transfer-module/testing`: helpers for a host's own tests of code that uses giro — a clock that moves
// only when told to, a valid transfer request, and a loop that sweeps until every movement is final.
export { ManualClock } from '../domain/clock';
export {
  type SampleTransferOptions,
  type SampleTransferRequest,
  sampleTransferRequest,
} from './sample-transfer-request';
export { type SweepTotals, type SweepUntilFinalOptions, sweepUntilFinal } from './sweep-until-final';
