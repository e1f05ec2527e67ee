import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { Actor } from '../domain';
import type {
  AuditCheckpoint,
  AuditEntry,
  AuditFilter,
  AuditRecord,
  AuditTrail,
  AuditVerification,
} from '../persistence';
import { StoreArgumentError } from '../persistence';
import { type AuditRequest, runInAuditScope } from '../persistence/audit-scope';
import { asValidation } from '../transfer/store-argument-errors';
import { AuditWriteFailures } from './audit-write-failures';

/** An audit row as the API answers it: the time as ISO 8601. */
export interface AuditView extends Omit<AuditRecord, 'at'> {
  at: string;
}

/** Where a call came from and how a failure reads, for the rows `runAs` writes. */
export interface AuditCallOptions {
  /** The caller's request id; one is made when none is given. */
  requestId?: string;
  clientAddress?: string | null;
  /** What the call is about (see AuditRequest), for the rows written without a store change. */
  originId?: number | null;
  target?: string | null;
  /** The status and message a refusal is recorded with (the admin API: the HTTP answer); default: the error's message. */
  describeError?: (error: unknown) => { statusCode: number | null; message: string };
}

/** What an action may be called: `transfer.create`, or a route (`POST /admin/…`) when none was given. */
const MAX_ACTION_LENGTH = 64;

/**
 * The audit trail for a host and for the admin API: who asked for what (`runAs`), the rows (`list`), and whether
 * the chain is intact (`verify`).
 *
 * `runAs(who, action, work)` runs `work` in an audit scope. Every change the store makes meanwhile appends its row
 * (with before and after) in its own transaction; when `work` changed nothing the store records (a repeated
 * request, a sweep run on demand), one `ok` row says it was asked; when it throws, a `refused` row says why, and the
 * error goes on. Those two rows are written after `work`, in a transaction of their own: a database that cannot
 * take them is logged (once per outage), never turned into a failure of a call that already happened.
 */
export class AuditService {
  private readonly writeFailures: AuditWriteFailures;

  constructor(
    private readonly trail: AuditTrail,
    logger?: LoggerService,
  ) {
    this.writeFailures = new AuditWriteFailures(logger);
  }

  async runAs<T>(
    who: Actor | null,
    action: string,
    work: () => Promise<T>,
    options: AuditCallOptions = {},
  ): Promise<T> {
    const request: AuditRequest = {
      who,
      action: checkAction(action),
      requestId: options.requestId ?? randomUUID(),
      clientAddress: options.clientAddress ?? null,
      originId: options.originId ?? null,
      target: options.target ?? null,
    };
    return runInAuditScope(request, async (scope) => {
      let result: T;
      try {
        result = await work();
      } catch (error) {
        const { statusCode, message } = options.describeError?.(error) ?? {
          statusCode: null,
          message: messageOf(error),
        };
        await this.recordAfterwards({ ...request, outcome: 'refused', statusCode, error: message });
        throw error;
      }
      if (!scope.recorded) await this.recordAfterwards({ ...request, outcome: 'ok' });
      return result;
    });
  }

  /** Records a request refused before it ran (the admin API: 401, 403), in a transaction of its own. */
  async recordRefusal(request: AuditRequest, statusCode: number | null, message: string): Promise<void> {
    await this.recordAfterwards({
      ...request,
      action: checkAction(request.action),
      outcome: 'refused',
      statusCode,
      error: message,
    });
  }

  /**
   * A page of the trail, newest first: only an actor's (key id or name), an action's, a transfer's, an outcome's,
   * or a time range's (`from` inclusive, `to` exclusive) when asked. TransferValidationError names a bad field.
   */
  async list(
    filter: AuditFilter,
    page: { limit: number; after?: string },
  ): Promise<{ items: AuditView[]; nextCursor: string | null }> {
    const result = await asValidation(() => this.trail.list(filter, page));
    return { items: result.items.map(toAuditView), nextCursor: result.nextCursor };
  }

  /**
   * Walks the whole chain: intact with its row count, or the first row where it breaks and why — a row rewritten
   * without the trail's key, or a checkpoint (a row's seq and hash noted outside the database) it no longer holds.
   */
  verify(checkpoints: readonly AuditCheckpoint[] = []): Promise<AuditVerification> {
    return this.trail.verify(checkpoints);
  }

  /** The last row's seq and hash, to note outside the database (`verify`'s checkpoints); null while empty. */
  checkpoint(): Promise<AuditCheckpoint | null> {
    return this.trail.lastCheckpoint();
  }

  private async recordAfterwards(entry: AuditEntry): Promise<void> {
    try {
      await this.trail.record(entry);
      this.writeFailures.written();
    } catch (error) {
      this.writeFailures.failed(`${entry.action}, request ${entry.requestId}`, messageOf(error));
    }
  }
}

export function toAuditView(record: AuditRecord): AuditView {
  return { ...record, at: record.at.toISOString() };
}

function checkAction(action: unknown): string {
  if (typeof action !== 'string' || action.trim() === '' || action.length > MAX_ACTION_LENGTH) {
    throw new StoreArgumentError(
      'action',
      'text',
      `must be a non-empty string of at most ${MAX_ACTION_LENGTH} characters`,
    );
  }
  return action;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
