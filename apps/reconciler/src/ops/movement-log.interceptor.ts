import type { IncomingMessage } from 'node:http';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type Observable, tap } from 'rxjs';
import { originIdOfRequest } from './logger-params';

/**
 * Puts the originId of the movement an answer is about on the request's log line when the URL does not name
 * it — a creation (`POST /admin/transfers`), whose originId may have been allocated. Routes that name it get
 * it from the URL (loggerParams' customProps).
 */
@Injectable()
export class MovementLogInterceptor implements NestInterceptor {
  constructor(private readonly logger: PinoLogger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (originIdOfRequest(context.switchToHttp().getRequest<IncomingMessage>().url) !== undefined) {
      return next.handle();
    }
    return next.handle().pipe(
      tap((answer) => {
        const originId = (answer as { originId?: unknown } | null)?.originId;
        if (typeof answer === 'object' && typeof originId === 'number') this.logger.assign({ originId });
      }),
    );
  }
}
