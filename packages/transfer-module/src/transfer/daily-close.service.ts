import { Inject, Injectable } from '@nestjs/common';
import { businessDayBounds, cbuCvuProblem, executeOnProblem, typeProblem, type Violation } from '../domain';
import { type DailyCloseView, toDailyCloseView } from '../movement';
import { MovementStore } from '../persistence';
import { TransferValidationError } from './transfer.errors';

/** What a day's close is asked for: the Buenos Aires day, and optionally one source account. */
export interface DailyCloseRequest {
  date?: unknown;
  account?: unknown;
}

/** The daily close: a Buenos Aires day's figures per source account, counted in the database. */
@Injectable()
export class DailyCloseService {
  constructor(@Inject(MovementStore) private readonly store: MovementStore) {}

  /**
   * The close of `request.date` (`YYYY-MM-DD`), of every source account or of `request.account`. A day not over
   * yet gives its figures so far. Throws TransferValidationError (`date`: `required`, `day`; `account`:
   * `cbu_cvu`), reading nothing.
   */
  async dailyClose(request: DailyCloseRequest): Promise<DailyCloseView> {
    const { day, account } = checkRequest(request);
    const { start, end } = businessDayBounds(day);
    const figures = await this.store.dailyCloseFigures({
      startMs: start.getTime(),
      endMs: end.getTime(),
      ...(account !== undefined && { account }),
    });
    return toDailyCloseView(day, figures, account);
  }
}

function checkRequest(request: DailyCloseRequest): { day: string; account?: string } {
  const violations: Violation[] = [];
  const { date, account } = request;
  if (date === undefined || date === '') {
    violations.push({ field: 'date', rule: 'required', params: {}, message: 'is required (YYYY-MM-DD)' });
  } else if (typeof date !== 'string') {
    violations.push({ field: 'date', rule: 'day', ...typeProblem('string', date) });
  } else {
    const problem = executeOnProblem(date);
    if (problem !== undefined) violations.push({ field: 'date', rule: 'day', ...problem });
  }
  if (account !== undefined) {
    const problem = typeof account === 'string' ? cbuCvuProblem(account) : typeProblem('string', account);
    if (problem !== undefined) violations.push({ field: 'account', rule: 'cbu_cvu', ...problem });
  }
  if (violations.length > 0) throw new TransferValidationError(violations);
  return { day: date as string, ...(account !== undefined && { account: account as string }) };
}
