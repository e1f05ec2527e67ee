import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { businessDayOf, MovementService, type MovementView } from '@giro/transfer-module';
import { Controller, Get, Logger, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { stringify } from 'csv-stringify';
import { XLSX_MEDIA_TYPE } from '../batch/batch-xlsx';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { movementSearchOf, TransferSearchQuery } from '../transfers/transfer-search.dto';
import { type MovementPage, movementsOf } from './movement-pages';
import { SPANISH_EXPORT_HEADERS, spanishCsvRowOf } from './spanish-export';
import { TransferExportQuery } from './transfer-export.dto';
import { EXPORT_COLUMNS, exportRowOf } from './transfer-export-row';
import { writeTransfersXlsx } from './transfer-export-xlsx';

/** Movements read per query while exporting: one page is held in memory at a time. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The transfers a search finds, as a file for a spreadsheet: the filters and sort of `GET /admin/transfers`,
 * every page of them, streamed — as CSV for programs, as CSV for Excel in Spanish (`dialect=excel-es`), or as
 * .xlsx. Audited (`transfer.export`): data leaving giro is an action of its own. Its own controller, listed before
 * TransfersController, so that `export.csv` is never read as an originId.
 */
@AdminRoutes('transfers')
@Controller('admin/transfers')
export class TransferExportController {
  private readonly logger = new Logger('TransferAdmin');

  constructor(private readonly movements: MovementService) {}

  @RequiresRole('viewer')
  @Audited('transfer.export')
  @Get('export.csv')
  @ApiOperation({
    summary: 'The transfers a search finds (the filters and sort of GET /admin/transfers, no page) as a CSV file',
    description: `Columns: ${EXPORT_COLUMNS.join(', ')}. Times in ISO 8601 UTC, createdAtBuenosAires in Buenos Aires (YYYY-MM-DD HH:mm:ss); completedAt is the bank's time for a COMPLETED transfer, failedAt for a FAILED or REJECTED one. A cell that a spreadsheet would run as a formula (starting with =, +, -, @, their full-width twins, a tab or a carriage return) is prefixed with a single quote; a cell holding \`;\` is quoted. \`dialect=excel-es\`: for Excel in Spanish — \`;\` between cells, a byte-order mark, the header in Spanish, amounts with a decimal comma (\`1234,50\`), the Buenos Aires time as dd/mm/aaaa hh:mm:ss.`,
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'the CSV file, UTF-8, a header row, one row per transfer' })
  @ApiBadRequestResponse({ description: 'a bad filter: `violations` names it' })
  async export(@Query() query: TransferExportQuery, @Res() response: ServerResponse): Promise<void> {
    const movements = await this.searched(query);
    const spanish = query.dialect === 'excel-es';
    this.startFile(response, 'text/csv; charset=utf-8', 'csv');
    // Excel reads a CSV without a byte-order mark in the system's code page, which garbles "ñ".
    if (spanish) response.write('\uFEFF');
    const rows = spanish
      ? mapped(movements, spanishCsvRowOf)
      : mapped(movements, (movement) => EXPORT_COLUMNS.map((column) => exportRowOf(movement)[column]));
    await this.stream(
      response,
      Readable.from(rows),
      stringify({
        header: true,
        columns: spanish ? EXPORT_COLUMNS.map((column) => SPANISH_EXPORT_HEADERS[column]) : [...EXPORT_COLUMNS],
        delimiter: spanish ? ';' : ',',
        // Excel in Spanish splits even a comma-separated file on `;`: a cell holding one is quoted either way.
        quoted_match: /;/,
        record_delimiter: spanish ? 'windows' : 'unix',
      }),
    );
  }

  @RequiresRole('viewer')
  @Audited('transfer.export')
  @Get('export.xlsx')
  @ApiOperation({
    summary:
      'The transfers a search finds (the filters and sort of GET /admin/transfers, no page) as an .xlsx workbook',
    description:
      'One sheet, the columns of export.csv with a header in Spanish; originId and the amount as numbers (the amount shown with two decimals), every other cell as text, never a formula, neutralised as in the CSV.',
  })
  @ApiProduces(XLSX_MEDIA_TYPE)
  @ApiResponse({ status: 200, description: 'the .xlsx workbook, one row per transfer' })
  @ApiBadRequestResponse({ description: 'a bad filter: `violations` names it' })
  async exportXlsx(@Query() query: TransferSearchQuery, @Res() response: ServerResponse): Promise<void> {
    const movements = await this.searched(query);
    this.startFile(response, XLSX_MEDIA_TYPE, 'xlsx');
    try {
      await writeTransfersXlsx(movements, response);
    } catch (error) {
      response.destroy();
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'transfer export cut short');
    }
  }

  /** Every movement the search finds; its first page read before anything is answered, so a bad query is a 400. */
  private async searched(query: TransferSearchQuery): Promise<AsyncGenerator<MovementView>> {
    const search = movementSearchOf(query);
    const page = (after?: string): Promise<MovementPage> =>
      this.movements.listMovements(search, {
        limit: EXPORT_PAGE_SIZE,
        ...(after !== undefined && { after }),
        ...(query.sort !== undefined && { sort: query.sort }),
      });
    return movementsOf(await page(), page);
  }

  private startFile(response: ServerResponse, contentType: string, extension: string): void {
    response.statusCode = 200;
    response.setHeader('Content-Type', contentType);
    response.setHeader(
      'Content-Disposition',
      `attachment; filename="giro-transfers-${businessDayOf(new Date())}.${extension}"`,
    );
  }

  private async stream(response: ServerResponse, rows: Readable, writer: NodeJS.ReadWriteStream): Promise<void> {
    try {
      await pipeline(rows, writer, response);
    } catch (error) {
      // Headers are gone: the connection is cut (the pipeline destroyed it), so the client sees an incomplete file
      // rather than one that looks whole.
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'transfer export cut short');
    }
  }
}

async function* mapped<T>(
  movements: AsyncIterable<MovementView>,
  row: (movement: MovementView) => T,
): AsyncGenerator<T> {
  for await (const movement of movements) yield row(movement);
}
