import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type AuditRequest, AuditService, isDatabaseUnavailable } from '@giro/transfer-module';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { actorOf } from './admin-actor';
import { auditRequestOf, describeAdminError, type ExpressRequest, isRecordedInScope } from './admin-audit-request';
import { AdminAuthentication } from './admin-authentication';
import { AdminRouteTable } from './admin-route-table';
import { REFUSAL_WINDOW_MS, type RefusalCount, RefusalSummaries } from './refusal-summaries';
import { SecretRedactor } from './secret-redactor';

/** The answers the audit trail records as refusals, on any method. */
const RECORDED_REFUSALS: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429]);

/** Where the admin API's paths begin. */
const ADMIN_SEGMENT = /\/admin(?:\/|$)/;

interface Refusal {
  request: AuditRequest;
  statusCode: number;
  message: string;
}

/**
 * Records every refusal of an admin request, from wherever it comes — the body reader, the rate limit, the router,
 * the role guard, a pipe, a route — with who tried it when it carried a valid credential, before the answer is
 * written. Called by the error filters (the admin routes' own, and an application's global one for what is
 * refused before routing). A request whose audit scope already recorded its outcome (AdminAuditInterceptor) is
 * left alone. Repeats are summarised (RefusalSummaries): past a few rows a minute per caller, status and route,
 * one row counts the rest, written when the minute is over or the application stops.
 */
@Injectable()
export class AdminRefusalAudit implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TransferAdmin');
  private readonly summaries = new RefusalSummaries<Refusal>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly authentication: AdminAuthentication,
    private readonly routes: AdminRouteTable,
    private readonly redactor: SecretRedactor,
    // Absent only when the host's TransferModule does not provide it (a stub in tests): then nothing is audited.
    @Optional() private readonly audit?: AuditService,
  ) {}

  onApplicationBootstrap(): void {
    // A window's count is written within a sixth of a window after it closed, even when no refusal follows.
    this.timer = setInterval(() => {
      this.writeSummaries(this.summaries.expired(Date.now())).catch((failure: unknown) => this.failed(failure));
    }, REFUSAL_WINDOW_MS / 6);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes every count not yet summarised now (at shutdown; a test that reads the rows). */
  flush(): Promise<void> {
    return this.writeSummaries(this.summaries.drain());
  }

  /**
   * Records `error` as the refusal of `request` when it is one, and the request is on `/admin`. Never throws: the
   * answer goes out regardless. `routed`: the request reached an admin route, whatever the application's global
   * prefix before `/admin` (the admin routes' own filter says so).
   */
  async record(
    request: ExpressRequest,
    response: ServerResponse,
    error: unknown,
    { routed = false }: { routed?: boolean } = {},
  ): Promise<void> {
    const audit = this.audit;
    const url = (request.originalUrl ?? request.url ?? '').split('?')[0] as string;
    const start = url.search(ADMIN_SEGMENT);
    if (audit === undefined || start < 0 || (start > 0 && !routed) || isRecordedInScope(request)) return;
    const path = url.slice(start);
    const { statusCode, message } = describeAdminError(error, this.redactor);
    if (!RECORDED_REFUSALS.has(statusCode)) return;
    try {
      const who = actorOf(request) ?? (await this.authentication.authenticate(request)) ?? null;
      const method = request.method ?? 'GET';
      const route = this.routes.find(method, path);
      const action = route?.action ?? `${method} ${this.redactor.redact(path)}`.slice(0, 64);
      const refusal: Refusal = {
        request: auditRequestOf(request, response, this.redactor, { who, action, params: route?.params ?? {} }),
        statusCode,
        message,
      };
      const caller = who === null ? `address ${refusal.request.clientAddress}` : `key ${who.keyId}`;
      const kind = `${caller} ${statusCode} ${route?.action ?? `${method} (no route)`}`;
      const now = Date.now();
      await this.writeSummaries(this.summaries.expired(now));
      if (this.summaries.admit(kind, statusCode, refusal, now)) {
        await audit.recordRefusal(refusal.request, statusCode, message);
      }
    } catch (failure) {
      this.failed(failure);
    }
  }

  private failed(failure: unknown): void {
    // An outage is said where it is met (the audit's write failures, the application's filter), once.
    if (isDatabaseUnavailable(failure)) return;
    this.logger.warn(
      { error: this.redactor.redact(failure instanceof Error ? failure.message : String(failure)) },
      'a refused admin request could not be audited',
    );
  }

  private async writeSummaries(counts: RefusalCount<Refusal>[]): Promise<void> {
    const audit = this.audit;
    if (audit === undefined) return;
    for (const { sample, count, firstAt, lastAt } of counts) {
      const between = `${new Date(firstAt).toISOString()} and ${new Date(lastAt).toISOString()}`;
      await audit.recordRefusal(
        { ...sample.request, requestId: `summary-${randomUUID()}` },
        sample.statusCode,
        `${count} more refused ${sample.statusCode} between ${between} (one row each was not kept); the last: ${sample.message}`,
      );
    }
  }
}
