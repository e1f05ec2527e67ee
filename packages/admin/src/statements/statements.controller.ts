import type { IncomingMessage } from 'node:http';
import { StatementService } from '@giro/transfer-module';
import {
  Controller,
  Get,
  HttpCode,
  Inject,
  Logger,
  Optional,
  Param,
  Post,
  Query,
  Req,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { DEFAULT_PAGE_SIZE, PageQuery } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import type { StatementColumnNames } from './statement-columns';
import { STATEMENT_COLUMN_NAMES } from './statement-columns.token';
import { MAX_STATEMENT_BYTES, spoolStatement, XLSX_MEDIA_TYPE } from './statement-file';
import { statementLines } from './statement-lines';
import { ImportStatementQuery, StatementIdParams } from './statement-queries.dto';

const REPORT_DESCRIPTION =
  '`{ id, account, sha256, periodFrom, periodTo, lines, counts: { matched, onlyInStatement, onlyInGiro, amountMismatch }, createdAt, by, matched, onlyInStatement, onlyInGiro, amountMismatch }`: each list (its first 1000 items; `counts` counts them all) items `{ kind, line: { number, date, amount, reference } | null, transfer: { originId, networkId, amount } | null }`. `kind` in `onlyInStatement`: `unknown_debit` (no transfer explains the debit), `ambiguous` (its reference names two transfers: not matched), `already_matched` (another line confirms that transfer); `onlyInGiro`: COMPLETED transfers of the account on the covered days no line confirms.';

/**
 * The bank's statements, matched against the transfers: an import's lines confirm the transfers their
 * references name, and what only one side has is listed (and raised as an anomaly; docs/statements.md).
 */
@AdminRoutes('statements')
@Controller('admin/statements')
export class StatementsController {
  private readonly logger = new Logger('TransferAdmin');

  constructor(
    @Inject(STATEMENT_COLUMN_NAMES) private readonly columns: StatementColumnNames,
    // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
    @Optional() private readonly statementService?: StatementService,
  ) {}

  private service(): StatementService {
    if (this.statementService === undefined) {
      throw new ServiceUnavailableException(
        'statements are not available: this application provides no StatementService',
      );
    }
    return this.statementService;
  }

  @RequiresRole('operator')
  @Audited('statement.import')
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Import a bank statement of a source account and match it against the account's transfers",
    description:
      "A CSV file (`text/csv`, UTF-8 or Windows-1252, `,` or `;`, amounts like `-1234.50` or `-1.234,50`) or an .xlsx workbook (its first sheet), streamed: columns `date,amount,reference,description` (`amount` negative for a debit; `STATEMENT_COLUMNS` maps other headers). `reference` is matched against the transfer's networkId, then its originId; only debits match. The same file again answers the same import and stores nothing.",
  })
  @ApiConsumes('text/csv', XLSX_MEDIA_TYPE)
  @ApiBody({ schema: { type: 'string', format: 'binary', description: 'the statement file' } })
  @ApiOkResponse({ description: REPORT_DESCRIPTION })
  @ApiBadRequestResponse({
    description:
      'a bad `account`, a missing column, or a line whose date or amount cannot be read (named): nothing stored',
  })
  @ApiPayloadTooLargeResponse({ description: `more than ${MAX_STATEMENT_BYTES} bytes: nothing stored` })
  @ApiUnsupportedMediaTypeResponse({ description: 'neither text/csv nor .xlsx' })
  async importStatement(@Query() query: ImportStatementQuery, @Req() request: IncomingMessage) {
    const account = this.service().checkAccount(query.account);
    const file = await spoolStatement(request);
    try {
      const known = await this.service().findImport(account, file.sha256);
      if (known) return known;
      const report = await this.service().importStatement(
        { account, sha256: file.sha256, by: recordedActorOf(request) },
        statementLines(file, this.columns),
      );
      this.logger.log({ statementId: report.id, lines: report.lines, counts: report.counts }, 'statement imported');
      return report;
    } finally {
      await file.discard();
    }
  }

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({ summary: 'Imported statements, newest first; cursor-paginated' })
  @ApiOkResponse({
    description:
      '`{ items, nextCursor }`, each `{ id, account, sha256, periodFrom, periodTo, lines, counts, createdAt, by }`',
  })
  list(@Query() query: PageQuery) {
    return this.service().listImports({
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.after !== undefined && { after: query.after }),
    });
  }

  @RequiresRole('viewer')
  @Get(':id')
  @ApiOperation({ summary: 'One imported statement and what it matched' })
  @ApiOkResponse({ description: REPORT_DESCRIPTION })
  @ApiNotFoundResponse({ description: 'no import has this id' })
  get(@Param() params: StatementIdParams) {
    return this.service().getImport(params.id);
  }
}
