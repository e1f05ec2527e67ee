import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { businessDayOf, MovementService, type MovementView } from '@giro/transfer-module';
import { Controller, Get, Logger, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { stringify } from 'csv-stringify';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { movementSearchOf, TransferSearchQuery } from '../transfers/transfer-search.dto';
import { type MovementPage, movementsOf } from './movement-pages';
import { EXPORT_COLUMNS, type ExportColumn, exportRowOf } from './transfer-export-row';

/** Movements read per query while exporting: one page is held in memory at a time. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The transfers a search finds, as a CSV file for a spreadsheet: the filters and sort of `GET /admin/transfers`,
 * every page of them, streamed. Audited (`transfer.export`): data leaving giro is an action of its own. Its own controller, listed before TransfersController, so that `export.csv` is never read
 * as an originId.
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
    description: `Columns: ${EXPORT_COLUMNS.join(', ')}. Times in ISO 8601 UTC, createdAtBuenosAires in Buenos Aires (YYYY-MM-DD HH:mm:ss). A cell that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is prefixed with a single quote.`,
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'the CSV file, UTF-8, a header row, one row per transfer' })
  @ApiBadRequestResponse({ description: 'a bad filter: `violations` names it' })
  async export(@Query() query: TransferSearchQuery, @Res() response: ServerResponse): Promise<void> {
    const search = movementSearchOf(query);
    const page = (after?: string): Promise<MovementPage> =>
      this.movements.listMovements(search, {
        limit: EXPORT_PAGE_SIZE,
        ...(after !== undefined && { after }),
        ...(query.sort !== undefined && { sort: query.sort }),
      });
    // The first page before any byte is answered: a refused search is still a 400 with its violations.
    const first = await page();
    response.statusCode = 200;
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="giro-transfers-${businessDayOf(new Date())}.csv"`);
    try {
      await pipeline(
        Readable.from(exportRows(movementsOf(first, page))),
        stringify({ header: true, columns: [...EXPORT_COLUMNS] }),
        response,
      );
    } catch (error) {
      // Headers are gone: the connection is cut (the pipeline destroyed it), so the client sees an incomplete file
      // rather than one that looks whole.
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'transfer export cut short');
    }
  }
}

async function* exportRows(movements: AsyncIterable<MovementView>): AsyncGenerator<Record<ExportColumn, string>> {
  for await (const movement of movements) yield exportRowOf(movement);
}
