import { type AdminRefusalAudit, errorReply, writeErrorReply } from '@giro/admin';
import { GiroError, isDatabaseUnavailable } from '@giro/transfer-module';
import { type ArgumentsHost, Catch, HttpException, type HttpServer, HttpStatus, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { DatabaseOutageLog } from './database-outage-log';

/**
 * Every error answer of the application in one body — `{ statusCode, code, message, violations? }`, the admin
 * API's (docs/errors.md) — whoever raised it: a guard (401, the throttler's 429), a pipe, the body reader, Nest's
 * router (404), a GiroError. The request line (pino-http) logs a client's error at warn, without a stack: a
 * client's mistake is not the server's error. The database out (unreachable, restarting, locked by another
 * process, out of disk) is 503 DATABASE_UNAVAILABLE with Retry-After: the client tries again, nothing was changed
 * (each change is one transaction), and the outage is logged once. Anything unexpected is 500 INTERNAL, its details
 * logged with the stack and never answered.
 *
 * A refusal on an admin path (the body reader's, the router's 404) is recorded in the audit trail before it is
 * answered (AdminRefusalAudit): the admin routes' own filter records what is refused once routed. An answer given
 * before the request's body was read in full closes the connection, so the rest of that body is not read at all.
 */
@Catch()
export class HttpErrorsFilter extends BaseExceptionFilter {
  private readonly outages = new DatabaseOutageLog();
  private readonly unexpected = new Logger('ExceptionsHandler');

  constructor(
    adapter: HttpServer,
    private readonly refusals: AdminRefusalAudit,
  ) {
    super(adapter);
  }

  override async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    if (host.getType() !== 'http') {
      super.catch(exception, host);
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      this.outages.failed(exception);
      writeErrorReply(host, { ...errorReply(DATABASE_UNAVAILABLE), headers: DATABASE_RETRY_AFTER });
      return;
    }
    if (!(exception instanceof HttpException || exception instanceof GiroError)) this.unexpected.error(exception);
    const http = host.switchToHttp();
    await this.refusals.record(http.getRequest(), http.getResponse(), exception);
    writeErrorReply(host, errorReply(exception));
  }
}

/** Seconds a client is asked to wait when the database is out. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const DATABASE_RETRY_AFTER = { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) };

const DATABASE_UNAVAILABLE = new HttpException(
  { code: 'DATABASE_UNAVAILABLE', message: 'the database is unavailable for now; nothing was changed, try again' },
  HttpStatus.SERVICE_UNAVAILABLE,
);
