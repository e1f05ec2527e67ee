import type { ServerResponse } from 'node:http';
import { DailyCloseService, type DailyCloseView } from '@giro/transfer-module';
import { Controller, Get, Logger, Optional, Query, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { stringify } from 'csv-stringify/sync';
import { XLSX_MEDIA_TYPE } from '../batch/batch-xlsx';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { DailyCloseCsvQuery, DailyCloseQuery } from './daily-close.dto';
import {
  DAILY_CLOSE_COLUMNS,
  dailyCloseRows,
  SPANISH_DAILY_CLOSE_HEADERS,
  spanishDailyCloseRows,
} from './daily-close-rows';
import { writeDailyCloseXlsx } from './daily-close-xlsx';

const FIGURES =
  '`created` (created in the day), `sent` (of those, handed to the bank), `completed`, `failed` (with `registered` and `unregistered`: its cancellation acknowledged or not), `rejected`, `canceled` (became so in the day), `pendingAtEnd` (created before the day ended and not final then, with `oldestCreatedAt`), `awaitingApprovalAtEnd`, `scheduledAtEnd`; each `{ count, amount }`, the amount a decimal string';

/**
 * The daily close: a Buenos Aires day's transfers per source account and in total — what was created, sent,
 * completed, failed, rejected, canceled, and what was still pending at the day's end —, counted in the database.
 * As JSON, as CSV (also for Excel in Spanish) and as .xlsx. docs/reports.md says which time counts each figure.
 */
@AdminRoutes('reports')
@Controller('admin/reports')
export class DailyCloseController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional, as the other services added after the admin module's first release: a host on an older
  // TransferModule still starts, and this route answers 503.
  constructor(@Optional() private readonly closes?: DailyCloseService) {}

  @RequiresRole('viewer')
  @Get('daily')
  @ApiOperation({
    summary: "A Buenos Aires day's close per source account, and totals",
    description: `Figures: ${FIGURES}. A day not over yet gives its figures so far.`,
  })
  @ApiOkResponse({ description: '`{ day, startsAt, endsAt, account, accounts: [{ account, …figures }], totals }`' })
  @ApiBadRequestResponse({ description: '`date` missing (`required`) or not a day (`day`); `account` not a CBU/CVU' })
  daily(@Query() query: DailyCloseQuery): Promise<DailyCloseView> {
    return this.service().dailyClose(query);
  }

  @RequiresRole('viewer')
  @Get('daily.csv')
  @ApiOperation({
    summary: "A Buenos Aires day's close as a CSV file: a row per source account, then the totals' (account `total`)",
    description: `Columns: ${DAILY_CLOSE_COLUMNS.join(', ')}. \`dialect=excel-es\`: for Excel in Spanish — \`;\` between cells, a byte-order mark, the header in Spanish, amounts with a decimal comma, the totals' account \`Total\`.`,
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'the CSV file, UTF-8, a header row' })
  @ApiBadRequestResponse({ description: 'as GET /admin/reports/daily' })
  async dailyCsv(@Query() query: DailyCloseCsvQuery, @Res() response: ServerResponse): Promise<void> {
    const { dialect, ...request } = query;
    const close = await this.service().dailyClose(request);
    const spanish = dialect === 'excel-es';
    const text = stringify(spanish ? spanishDailyCloseRows(close) : dailyCloseRows(close), {
      header: true,
      columns: spanish
        ? DAILY_CLOSE_COLUMNS.map((column) => SPANISH_DAILY_CLOSE_HEADERS[column])
        : [...DAILY_CLOSE_COLUMNS],
      delimiter: spanish ? ';' : ',',
      quoted_match: /;/,
      record_delimiter: spanish ? 'windows' : 'unix',
    });
    startFile(response, 'text/csv; charset=utf-8', close, 'csv');
    // Excel reads a CSV without a byte-order mark in the system's code page, which garbles "ñ".
    response.end(spanish ? `\uFEFF${text}` : text);
  }

  @RequiresRole('viewer')
  @Get('daily.xlsx')
  @ApiOperation({
    summary: "A Buenos Aires day's close as an .xlsx workbook",
    description:
      'One sheet, the columns of daily.csv with a header in Spanish; counts and amounts as numbers (amounts shown with two decimals).',
  })
  @ApiProduces(XLSX_MEDIA_TYPE)
  @ApiResponse({ status: 200, description: 'the .xlsx workbook' })
  @ApiBadRequestResponse({ description: 'as GET /admin/reports/daily' })
  async dailyXlsx(@Query() query: DailyCloseQuery, @Res() response: ServerResponse): Promise<void> {
    const close = await this.service().dailyClose(query);
    startFile(response, XLSX_MEDIA_TYPE, close, 'xlsx');
    try {
      await writeDailyCloseXlsx(close, response);
    } catch (error) {
      response.destroy();
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'daily close cut short');
    }
  }

  private service(): DailyCloseService {
    if (this.closes === undefined) throw new ServiceUnavailableException('the daily close is not available');
    return this.closes;
  }
}

function startFile(response: ServerResponse, contentType: string, close: DailyCloseView, extension: string): void {
  response.statusCode = 200;
  response.setHeader('Content-Type', contentType);
  const account = close.account === null ? '' : `-${close.account}`;
  response.setHeader('Content-Disposition', `attachment; filename="giro-close-${close.day}${account}.${extension}"`);
}
