import type { IncomingMessage, ServerResponse } from 'node:http';
import { TransferService, transferRequestOpenApiSchema } from '@giro/transfer-module';
import { Controller, HttpCode, Post, Query, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiUnsupportedMediaTypeResponse,
  type SchemaObject,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { readBatchBody } from './batch-body';
import { BATCH_COLUMNS, BATCH_COLUMNS_SPANISH } from './batch-columns';
import { MAX_BATCH_ROWS } from './batch-entries';
import { XLSX_MEDIA_TYPE } from './batch-xlsx';
import { BatchInterruptedError, runTransferBatch } from './transfer-batch';
import { TransferBatchQuery } from './transfer-batch.dto';

/** Seconds a client is asked to wait before sending a batch the database's outage interrupted. */
const RETRY_AFTER_SECONDS = 5;

const BATCH_DESCRIPTION = [
  `A CSV file (\`text/csv\`: UTF-8 with or without a BOM, or Windows-1252; \`,\` or \`;\` as its header shows), an .xlsx workbook (its first sheet) or a JSON array of transfer requests; a header row, at most ${MAX_BATCH_ROWS} rows.`,
  `Columns (in any order, case, accents and spaces aside; an unknown one is refused): ${BATCH_COLUMNS.join(', ')}, or in Spanish ${BATCH_COLUMNS_SPANISH.join(', ')}.`,
  '`originId` is required in a batch: it is the idempotency key, so sending the same file again creates nothing twice.',
  'Accounts as digits; CUITs as digits or `20-12345678-6`; `amount` as `1234.50`, `1.234,50` or `$ 1.234,50` (`1.500` alone is ambiguous and refused); `concept` may be empty or left out (VAR).',
].join(' ');

/**
 * Many transfers at once, from a spreadsheet or a JSON array: each row checked by the rules of
 * `POST /admin/transfers` and, unless it is a dry run, requested like one, in order. Its own controller, listed
 * before TransfersController, so that `batch` is never read as an originId.
 */
@AdminRoutes('transfers')
@Controller('admin/transfers')
export class TransferBatchController {
  constructor(private readonly transfers: TransferService) {}

  @RequiresRole('operator')
  @Audited('transfer.batch')
  @Post('batch')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Create many transfers from a CSV file or a JSON array, row by row; `dryRun=true` checks every row and changes nothing',
    description: BATCH_DESCRIPTION,
  })
  @ApiConsumes('text/csv', XLSX_MEDIA_TYPE, 'application/json')
  @ApiBody({
    schema: {
      oneOf: [
        { type: 'string', description: 'the CSV file' },
        { type: 'string', format: 'binary', description: 'the .xlsx workbook' },
        { type: 'array', maxItems: MAX_BATCH_ROWS, items: transferRequestOpenApiSchema() as SchemaObject },
      ],
    },
  })
  @ApiOkResponse({
    description:
      '`{ dryRun, rows: [{ row, originId, outcome, status?, violations?, transfer? }], summary: { total, valid, invalid, created, replayed, conflicts, refused }, totals? }`. A dry run gives each row that passed validation its `transfer` as read (`fromAddress`, `fromCuit`, `toAddress`, `toCuit`, `currencyId`, `amount`, `description`, `concept`) and `totals`: `{ perSource: [{ fromAddress, currencyId, count, amount }], overall: [{ currencyId, count, amount }] }` of the rows that would be created. `row` is the CSV line the row starts on (the header is line 1), or the array index + 1. Outcomes: a dry run `valid` (would be created), `exists` (stored with the same payload), `conflict` (the originId is stored with another payload), `invalid` (`violations` names each column or field and rule); a run `created` (maybe AWAITING_APPROVAL), `replayed` (stored already, nothing created), `conflict`, `invalid` (never sent), `refused` (a limit of its source account, its violation given). A dry run does not check limits or, in PSP mode, the sub-accounts.',
  })
  @ApiBadRequestResponse({
    description:
      'not CSV, .xlsx or JSON as described (a byte neither UTF-8 nor Windows-1252, named by its line), empty, or a header naming an unknown column: nothing done',
  })
  @ApiPayloadTooLargeResponse({ description: `more than 2 MiB or more than ${MAX_BATCH_ROWS} rows: nothing done` })
  @ApiUnsupportedMediaTypeResponse({ description: 'neither text/csv, .xlsx nor application/json' })
  @ApiServiceUnavailableResponse({
    description:
      'the database went away during the batch: the rows before `row` were done; send the same batch again, which is safe (each originId is created at most once)',
  })
  async run(
    @Query() query: TransferBatchQuery,
    @Req() request: IncomingMessage,
    @Res({ passthrough: true }) response: ServerResponse,
  ) {
    const input = await readBatchBody(request);
    try {
      return await runTransferBatch(this.transfers, input, {
        dryRun: query.dryRun ?? false,
        by: recordedActorOf(request),
      });
    } catch (error) {
      if (!(error instanceof BatchInterruptedError)) throw error;
      response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      // Not given the database's error as its cause: a host's filter that answers every outage "nothing was
      // changed" would take this answer over, and here rows before `row` were done.
      throw new ServiceUnavailableException({
        statusCode: 503,
        code: 'BATCH_INTERRUPTED',
        error: 'Service Unavailable',
        message: error.message,
        row: error.row,
      });
    }
  }
}
