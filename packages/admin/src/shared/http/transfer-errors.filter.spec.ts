import {
  BankRejectedError,
  MovementNotFoundError,
  PollTooSoonError,
  TransferLimitError,
  TransferValidationError,
} from '@giro/transfer-module';
import { ForbiddenException, HttpException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { SweepUnavailableError } from '../../sweep/sweep-unavailable.error';
import { badRequest } from './admin-validation.pipe';
import { errorReply } from './transfer-errors.filter';

describe('errorReply', () => {
  it('answers a GiroError by its code and status, with the fields it names', () => {
    expect(errorReply(new MovementNotFoundError(42))).toEqual({
      status: 404,
      body: {
        statusCode: 404,
        code: 'TRANSFER_NOT_FOUND',
        error: 'Not Found',
        message: 'no movement with originId 42',
        errorName: 'MovementNotFoundError',
        originId: 42,
      },
    });
    expect(errorReply(new SweepUnavailableError()).body).toMatchObject({ statusCode: 503, code: 'SWEEP_UNAVAILABLE' });
  });

  it('answers violations with their rule and params, and the message repeating them', () => {
    const violation = { field: 'body.amount', rule: 'max', params: { max: '10.00', value: '11' }, message: 'too much' };
    expect(errorReply(new TransferValidationError([violation])).body).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'body.amount too much',
      violations: [violation],
    });
    expect(errorReply(new TransferLimitError([violation]))).toMatchObject({
      status: 422,
      body: { statusCode: 422, code: 'LIMIT_EXCEEDED', violations: [violation] },
    });
  });

  it('gives the bank’s own code as bankCode, giro’s as code', () => {
    const error = new BankRejectedError('HTTP 422, code NO_FUNDS', { operation: 'get-movement', bankCode: 'NO_FUNDS' });
    expect(errorReply(error).body).toMatchObject({ statusCode: 502, code: 'BANK_REJECTED', bankCode: 'NO_FUNDS' });
  });

  it('asks to wait with Retry-After, in whole seconds rounded up, when polling is too soon', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const error = new PollTooSoonError(5, new Date(now.getTime() + 1_500), now);
    expect(errorReply(error)).toMatchObject({
      status: 429,
      body: { code: 'POLL_TOO_SOON', originId: 5, retryAt: '2026-01-01T00:00:01.500Z' },
      headers: { 'Retry-After': '2' },
    });
  });

  it('answers Nest’s own HttpExceptions with the code of their status, keeping their fields', () => {
    expect(errorReply(new NotFoundException('Cannot GET /nowhere')).body).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      error: 'Not Found',
      message: 'Cannot GET /nowhere',
    });
    expect(errorReply(new UnauthorizedException('missing bearer token')).body).toMatchObject({
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });
    expect(errorReply(new HttpException('too many requests', 429)).body).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'too many requests',
    });
    const forbidden = new ForbiddenException({ message: 'needs admin', requiredRole: 'admin', role: 'viewer' });
    expect(errorReply(forbidden).body).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      error: 'Forbidden',
      message: 'needs admin',
      requiredRole: 'admin',
      role: 'viewer',
    });
  });

  it('keeps the code an HttpException’s body gives, and its violations', () => {
    const violation = { field: 'limit', rule: 'max', params: {}, message: 'must not be greater than 500' };
    expect(errorReply(badRequest([violation])).body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      error: 'Bad Request',
      message: 'limit must not be greater than 500',
      violations: [violation],
    });
    const interrupted = new HttpException({ code: 'BATCH_INTERRUPTED', message: 'stopped', row: 3 }, 503);
    expect(errorReply(interrupted).body).toMatchObject({ statusCode: 503, code: 'BATCH_INTERRUPTED', row: 3 });
  });

  it('answers anything else 500 INTERNAL, saying nothing of it', () => {
    const reply = errorReply(new Error('password=hunter2 at /srv/giro/db.ts:12'));
    expect(reply).toEqual({
      status: 500,
      body: { statusCode: 500, code: 'INTERNAL', error: 'Internal Server Error', message: 'Internal server error' },
    });
    expect(JSON.stringify(reply)).not.toContain('hunter2');
  });
});
