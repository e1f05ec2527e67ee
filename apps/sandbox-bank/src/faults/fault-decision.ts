import type { FaultSettings } from '../config/sandbox-config';

export const FAULT_KINDS = [
  'rate-limited',
  'server-error',
  'reset-before',
  'hang',
  'reset-after',
  'malformed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Faults whose request is still processed: only the answer is lost or spoiled. */
export type AnswerFault = Extract<FaultKind, 'reset-after' | 'malformed'>;

export const isAnswerFault = (fault: FaultKind | undefined): fault is AnswerFault =>
  fault === 'reset-after' || fault === 'malformed';

/**
 * Which fault (if any) hits this request. Exactly one draw per request, whatever the rates, so the
 * sequence of decisions depends only on the seed and the order of requests.
 */
export function decideFault(faults: FaultSettings, random: () => number): FaultKind | undefined {
  const draw = random();
  const bands: [FaultKind, number][] = [
    ['rate-limited', faults.rateLimitRate],
    ['server-error', faults.serverErrorRate],
    ['reset-before', faults.resetBeforeRate],
    ['hang', faults.hangRate],
    ['reset-after', faults.resetAfterRate],
    ['malformed', faults.malformedRate],
  ];
  let edge = 0;
  for (const [kind, rate] of bands) {
    edge += rate;
    if (draw < edge) return kind;
  }
  return undefined;
}
