import { setTimeout as sleep } from 'node:timers/promises';
import {
  AWAITING_APPROVAL_STATUS,
  businessDayOf,
  isFinalStatus,
  MOVEMENT_STATUSES,
  type MovementView,
} from '@giro/transfer-module';
import { type DemoTransfer, demoBatch } from './demo-batch';
import {
  type DisplayStream,
  ProgressDisplay,
  type StatusCounts,
  type WebhookTally,
  webhookLine,
} from './progress-display';

/** What the demo needs of giro: creating transfers (TransferService), reading them again (MovementService). */
export interface DemoGiro {
  transfers: { requestTransfer(input: unknown): Promise<{ movement: MovementView }> };
  movements: { getMovement(originId: number): Promise<MovementView> };
}

export interface DemoOptions {
  /** Stops watching (shutdown). */
  signal?: AbortSignal;
  /** How often the display is refreshed. */
  refreshMs?: number;
  /** The demo's webhook receiver (demo-receiver.ts): its tally is shown with the statuses and in the summary. */
  webhooks?: DemoWebhooks;
}

/** What the demo reads of its webhook receiver. */
export interface DemoWebhooks {
  endpointId: string;
  tally(): WebhookTally;
  /** True once none of its deliveries is pending (or after `timeoutMs`). */
  drained(timeoutMs: number): Promise<boolean>;
}

/** The last events of the batch are delivered within milliseconds of their commit; a receiver that is late is not waited for long. */
const WEBHOOKS_DRAIN_MS = 3_000;

export interface DemoResult {
  movements: { transfer: DemoTransfer; movement: MovementView }[];
  /** False when the watch was stopped before every movement was final. */
  settled: boolean;
}

/**
 * Sandbox mode's demo: submits a batch covering every sandbox scenario through the TransferService (the same
 * path as `POST /admin/transfers`), shows it moving while the scheduled sweeps reconcile it, and prints a
 * summary by status with the cancellations the host would have to register.
 */
export async function runDemo(
  { transfers, movements: stored }: DemoGiro,
  out: DisplayStream,
  options: DemoOptions = {},
): Promise<DemoResult> {
  const batch = demoBatch();
  out.write(`submitting the demo batch: ${batch.length} transfers (plain, [fail], [delay], [reject], [lost])\n`);
  const submitted = [];
  for (const transfer of batch) {
    const { movement } = await transfers.requestTransfer(transfer.request);
    submitted.push({ transfer, movement });
  }
  out.write(`originIds ${submitted.map(({ movement }) => movement.originId).join(', ')}\n`);
  const waiting = submitted.filter(({ movement }) => movement.status === AWAITING_APPROVAL_STATUS);
  if (waiting.length > 0) out.write(`${awaitingApprovalHint(waiting.map(({ movement }) => movement.originId))}\n`);
  out.write('\n');

  const started = Date.now();
  const display = new ProgressDisplay(out);
  let movements = submitted;
  while (!options.signal?.aborted) {
    movements = await Promise.all(
      movements.map(async ({ transfer, movement }) => ({
        transfer,
        movement: isFinalStatus(movement.status) ? movement : await stored.getMovement(movement.originId),
      })),
    );
    display.update(
      countByStatus(movements.map(({ movement }) => movement)),
      Date.now() - started,
      options.webhooks?.tally(),
    );
    if (movements.every(({ movement }) => isFinalStatus(movement.status))) break;
    await sleep(options.refreshMs ?? 250, undefined, { signal: options.signal }).catch(() => undefined);
  }
  const settled = movements.every(({ movement }) => isFinalStatus(movement.status));
  if (settled && options.webhooks) {
    await options.webhooks.drained(WEBHOOKS_DRAIN_MS);
    display.update(
      countByStatus(movements.map(({ movement }) => movement)),
      Date.now() - started,
      options.webhooks.tally(),
    );
  }
  if (settled) out.write(`\n${demoSummary(movements, options.webhooks)}\n`);
  return { movements, settled };
}

/** What to do about the demo transfers that wait for an approval (APPROVAL_REQUIRED_ABOVE is set). */
function awaitingApprovalHint(originIds: number[]): string {
  return [
    `${originIds.length} of them await an approval (APPROVAL_REQUIRED_ABOVE): nothing is sent until an approver key approves them:`,
    `  curl -s -X POST $GIRO/admin/transfers/approve -H "Authorization: Bearer $APPROVER_KEY" -H 'Content-Type: application/json' -d '{"originIds":[${originIds.join(',')}]}'`,
  ].join('\n');
}

export function countByStatus(movements: MovementView[]): StatusCounts {
  const counts = Object.fromEntries(MOVEMENT_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const movement of movements) counts[movement.status]++;
  return counts;
}

/** The summary printed once every demo movement is final. */
export function demoSummary(
  movements: { transfer: DemoTransfer; movement: MovementView }[],
  webhooks?: Pick<DemoWebhooks, 'endpointId' | 'tally'>,
): string {
  const counts = countByStatus(movements.map(({ movement }) => movement));
  const byStatus = MOVEMENT_STATUSES.filter((status) => counts[status] > 0)
    .map((status) => `${status} ${counts[status]}`)
    .join(', ');
  const lines = [`demo batch done: ${byStatus}`, '', '  originId          scenario   status      what happened'];
  for (const { transfer, movement } of movements) {
    const tag = transfer.scenario.tag || 'plain';
    const surprise = movement.status === transfer.scenario.expected ? '' : `  (expected ${transfer.scenario.expected})`;
    lines.push(
      `  ${String(movement.originId).padEnd(18)}${tag.padEnd(11)}${movement.status.padEnd(12)}${transfer.scenario.explains}${surprise}`,
    );
  }
  const cancellations = movements.flatMap(({ movement }) => (movement.cancellation ? [movement.cancellation] : []));
  lines.push(
    '',
    `cancellations to register on your side (GET /admin/cancellations?acknowledged=false): ${cancellations.length}`,
  );
  for (const cancellation of cancellations) {
    const reason = cancellation.reason.code ?? cancellation.reason.message ?? 'no reason given';
    lines.push(`  originId ${cancellation.originId}: ${cancellation.amount} ${cancellation.currencyId} (${reason})`);
  }
  if (webhooks) {
    lines.push(
      '',
      'webhooks the demo receiver verified with standardwebhooks (its deliveries: GET /admin/webhooks/' +
        `${webhooks.endpointId}/deliveries):`,
      webhookLine(webhooks.tally()),
    );
  }
  const account = movements[0]?.movement.from.address;
  if (account !== undefined) lines.push('', ...closeTheDayHint(account, businessDayOf(new Date())));
  lines.push('', 'the reconciler keeps running (admin API, /docs); Ctrl+C stops it');
  return lines.join('\n');
}

/**
 * How to close the day against the bank: the sandbox bank's statement of the day (mutual TLS, the demo's
 * certificates), imported as it comes (docs/statements.md).
 */
export function closeTheDayHint(account: string, day: string): string[] {
  return [
    "close the day against the bank: the sandbox bank's statement matched against these transfers (SANDBOX: the sandbox bank's address, the certificates where the banner says):",
    `  curl -s --cacert certs/ca.pem --cert certs/client.pem --key certs/client-key.pem "$SANDBOX/__sandbox/statement?date=${day}&account=${account}" \\`,
    `    | curl -s -X POST "$GIRO/admin/statements?account=${account}" -H "Authorization: Bearer $OPERATOR_KEY" -H 'Content-Type: text/csv' --data-binary @-`,
  ];
}
