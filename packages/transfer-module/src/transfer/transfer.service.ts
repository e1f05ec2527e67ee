import { Inject, Injectable } from '@nestjs/common';
import {
  explainOriginId,
  intentFingerprint,
  isFinalStatus,
  type MovementStatus,
  type TransferInput,
  type TransferIntent,
  type Violation,
} from '../domain';
import { TRANSFER_RUNTIME, type TransferRuntime } from '../module/transfer-runtime';
import { type MovementDetails, MovementNotFoundError, type MovementRecord, StoreArgumentError } from '../persistence';
import { type CancellationView, type MovementView, toCancellationView, toMovementView } from './movement-view';
import { MovementBusyError, PollTooSoonError, TransferConflictError, TransferValidationError } from './transfer.errors';
import { validateTransferRequest } from './transfer-request.validation';

export interface RequestTransferResult {
  movement: MovementView;
  /** False when this originId was already stored with the same payload (nothing was sent again). */
  created: boolean;
}

/**
 * Sends transfers and tells what became of them. A transfer is stored durably with its originId before
 * anything goes to the bank; an answer that never arrives leaves it non-final for the ReconcileService, which
 * resolves it by asking the bank about the same originId.
 */
@Injectable()
export class TransferService {
  constructor(@Inject(TRANSFER_RUNTIME) private readonly runtime: TransferRuntime) {}

  /**
   * Creates a transfer from a SPEC §2.1 request (`originId` optional, allocated when absent; `body.amount` a
   * JSON number or a decimal string). The same originId with the same payload returns the stored movement
   * (`created: false`) without sending anything. Throws TransferValidationError (every bad field) or
   * TransferConflictError (same originId, other payload).
   */
  requestTransfer(input: unknown): Promise<RequestTransferResult> {
    // Tracked as a whole, so a graceful stop waits until the answer is recorded and read back.
    return this.runtime.work.track(this.createTransfer(input));
  }

  private async createTransfer(input: unknown): Promise<RequestTransferResult> {
    const { options, store, reconciler } = this.runtime;
    const transfer = validateTransferRequest(input, options.transferRules);
    if (transfer.originId === undefined) return this.createWithNewOriginId(transfer);
    const intent = withOriginId(transfer, transfer.originId);
    const fingerprint = intentFingerprint(intent);
    const existing = await store.findByOriginId(intent.originId);
    if (existing) return this.replay(existing, fingerprint);
    const sent = await reconciler.createAndSend(intent, fingerprint);
    if (!sent.created) return this.replay(sent.movement, fingerprint);
    return { movement: await this.viewOf(sent.recorded, intent.originId), created: true };
  }

  private async createWithNewOriginId(transfer: TransferInput): Promise<RequestTransferResult> {
    const { store, reconciler } = this.runtime;
    // OriginIds come from a block taken earlier: a host may have stored one of them as its own originId
    // since. Such an id is already someone else's, so the transfer takes the next one.
    for (;;) {
      const [originId] = await store.allocateOriginIds(1);
      const intent = withOriginId(transfer, originId);
      const sent = await reconciler.createAndSend(intent, intentFingerprint(intent));
      if (sent.created) return { movement: await this.viewOf(sent.recorded, originId), created: true };
    }
  }

  /**
   * A new originId, never handed out before (it survives restarts and restores), for a host that records it
   * beside its own data before calling requestTransfer: a retry after a crash then repeats the same request,
   * which is idempotent.
   */
  async allocateOriginId(): Promise<number> {
    const [originId] = await this.runtime.store.allocateOriginIds(1);
    return originId;
  }

  /** The stored movement, with its history and cancellation. */
  async getMovement(originId: number): Promise<MovementView> {
    return toMovementView(await this.details(originId));
  }

  /**
   * Asks the bank about the movement now. Throws PollTooSoonError (with `retryAt`) when the polling rule
   * does not allow it yet, MovementBusyError when another worker holds it. A final movement is asked too (an
   * operator double-checking it): a contradicting answer is recorded as an anomaly, never applied.
   */
  refreshMovement(originId: number): Promise<MovementView> {
    return this.runtime.work.track(this.refresh(originId));
  }

  private async refresh(originId: number): Promise<MovementView> {
    const { store, owner, options, reconciler } = this.runtime;
    this.assertQueryAllowed(await this.details(originId));
    const claimed = await store.claim(originId, owner, options.sweep.leaseMs);
    if (claimed === null) throw new MovementBusyError(originId);
    try {
      this.assertQueryAllowed(claimed);
    } catch (error) {
      await store.releaseLease(originId, owner);
      throw error;
    }
    await reconciler.reconcile(claimed, 'refresh', 0);
    return this.getMovement(originId);
  }

  /** Movements by originId, a page at a time (`after` = the previous page's `nextCursor`). */
  async listMovements(
    filter: { status?: MovementStatus },
    page: { limit: number; after?: string },
  ): Promise<{ items: MovementView[]; nextCursor: string | null }> {
    const result = await asValidation(() =>
      this.runtime.store.listDetails({ status: filter.status, limit: page.limit, after: page.after }),
    );
    return { items: result.items.map(toMovementView), nextCursor: result.nextCursor };
  }

  /** Cancellations of FAILED movements, oldest first; `acknowledged: false` = still to register. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationView[]> {
    const records = await asValidation(() => this.runtime.store.listCancellations(filter));
    return records.map(toCancellationView);
  }

  /** The host registered the cancellation on its side. Idempotent. Throws CancellationNotFoundError. */
  async acknowledgeCancellation(originId: number): Promise<CancellationView> {
    checkOriginId(originId);
    return toCancellationView(await this.runtime.store.acknowledgeCancellation(originId));
  }

  /** The movement as the create wrote it, without reading it again; read when that write did not happen. */
  private async viewOf(recorded: MovementDetails | null, originId: number): Promise<MovementView> {
    return recorded ? toMovementView(recorded) : this.getMovement(originId);
  }

  private async details(originId: number): Promise<MovementDetails> {
    checkOriginId(originId);
    const details = await this.runtime.store.findByOriginId(originId);
    if (!details) throw new MovementNotFoundError(originId);
    return details;
  }

  private async replay(existing: MovementRecord, fingerprint: string): Promise<RequestTransferResult> {
    if (existing.fingerprint !== fingerprint) throw new TransferConflictError(existing.originId);
    return { movement: await this.getMovement(existing.originId), created: false };
  }

  private assertQueryAllowed(record: MovementRecord): void {
    const { status, lastAnswerAt, originId } = record;
    if (isFinalStatus(status) || lastAnswerAt === null) return;
    const { policy } = this.runtime.schedule;
    const now = this.runtime.options.clock.now();
    if (!policy.isQueryAllowed(status, lastAnswerAt, now)) {
      throw new PollTooSoonError(originId, policy.earliestQueryAt(status, lastAnswerAt), now);
    }
  }
}

/**
 * The validated input with its originId, field by field in the order validation gives them (the stored
 * intent JSON keeps it). Not `{ ...transfer, originId }`: on Node 20 a literal that starts with a spread and
 * adds a property builds a new hidden class at every evaluation, ~35× slower and garbage in old space.
 */
function withOriginId(transfer: TransferInput, originId: number): TransferIntent {
  return {
    from: transfer.from,
    to: transfer.to,
    currencyId: transfer.currencyId,
    amount: transfer.amount,
    description: transfer.description,
    concept: transfer.concept,
    originId,
  };
}

function checkOriginId(originId: unknown): void {
  const problem = explainOriginId(originId);
  if (problem !== undefined)
    throw new TransferValidationError([{ field: 'originId', rule: 'origin_id', message: problem }]);
}

/** The store's argument errors (a bad limit, status, cursor) are the caller's input errors. */
async function asValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StoreArgumentError)) throw error;
    const message = error.message.startsWith(`${error.field} `)
      ? error.message.slice(error.field.length + 1)
      : error.message;
    const violation: Violation = { field: error.field, rule: error.rule, message };
    throw new TransferValidationError([violation]);
  }
}
