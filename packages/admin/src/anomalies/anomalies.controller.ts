import type { IncomingMessage } from 'node:http';
import { AnomalyService } from '@giro/transfer-module';
import {
  Body,
  Controller,
  Get,
  HttpCode,
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
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { AnomalyIdParams, DEFAULT_PAGE_SIZE, ListAnomaliesQuery } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/** The body of a resolution: the operator's note. */
const ResolutionNoteBody = () =>
  ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['note'],
      properties: { note: { type: 'string', minLength: 1, maxLength: 500, description: 'why it is closed' } },
    },
  });

/**
 * The anomalies giro raised (bank answers that contradicted a final status, recorded and never applied; debits of
 * the bank's statements no transfer explains), and their closing by an operator: who, when and why. Closing one
 * changes nothing about its movement or its statement.
 */
@AdminRoutes('anomalies')
@Controller('admin/anomalies')
export class AnomaliesController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here, as for keys.
  constructor(@Optional() private readonly anomalies?: AnomalyService) {}

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({
    summary:
      "Anomalies (a transfer's, and a statement's debit no transfer explains), unresolved first, then newest; cursor-paginated; filter by resolved, originId or kind",
  })
  @ApiBadRequestResponse({ description: 'a bad filter or page: `violations` names it (`kind`: rule `isIn`)' })
  @ApiOkResponse({
    description:
      "`{ items, nextCursor }`: a transfer's `{ id, originId, at, status, claimed, kind?, reason, bank, resolution }`, or a debit no transfer explains `{ id, kind: 'unknown_debit', at, reason, statement: { importId, account, line, date, amount, reference, description }, resolution }` (its `id` among the unknown debits')",
  })
  list(@Query() query: ListAnomaliesQuery) {
    return this.service().listAnomalies(
      {
        ...(query.resolved !== undefined && { resolved: query.resolved }),
        ...(query.originId !== undefined && { originId: query.originId }),
        ...(query.kind !== undefined && { kind: query.kind }),
      },
      { limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.after !== undefined && { after: query.after }) },
    );
  }

  @RequiresRole('operator')
  @Audited('anomaly.resolve')
  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve an anomaly with a note; records who and when. The movement is not changed' })
  @ResolutionNoteBody()
  @ApiBadRequestResponse({ description: 'a missing or bad `note`, or an unknown field: `violations` names it' })
  @ApiNotFoundResponse({ description: 'no anomaly has this id' })
  @ApiConflictResponse({ description: 'already resolved: `resolution` is the first one, which stays' })
  async resolve(
    @Param() params: AnomalyIdParams,
    @Body() body: Record<string, unknown>,
    @Req() request: IncomingMessage,
  ) {
    const actor = recordedActorOf(request);
    const anomaly = await this.service().resolveAnomaly(params.id, body, actor);
    // Ids only: the note is the operator's text, kept in the database.
    this.logger.log({ anomalyId: anomaly.id, originId: anomaly.originId, keyId: actor.keyId }, 'anomaly resolved');
    return anomaly;
  }

  @RequiresRole('operator')
  @Audited('anomaly.resolve')
  @Post('unknown-debits/:id/resolve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Resolve a debit of a statement no transfer explains with a note; records who and when. The statement is not changed',
  })
  @ResolutionNoteBody()
  @ApiBadRequestResponse({ description: 'a missing or bad `note`, or an unknown field: `violations` names it' })
  @ApiNotFoundResponse({ description: 'no unknown debit has this id' })
  @ApiConflictResponse({ description: 'already resolved: `resolution` is the first one, which stays' })
  async resolveUnknownDebit(
    @Param() params: AnomalyIdParams,
    @Body() body: Record<string, unknown>,
    @Req() request: IncomingMessage,
  ) {
    const actor = recordedActorOf(request);
    const debit = await this.service().resolveUnknownDebit(params.id, body, actor);
    this.logger.log(
      { unknownDebitId: debit.id, statementId: debit.statement.importId, keyId: actor.keyId },
      'unknown debit resolved',
    );
    return debit;
  }

  private service(): AnomalyService {
    if (this.anomalies === undefined) {
      throw new ServiceUnavailableException('anomalies are not available: this application provides no AnomalyService');
    }
    return this.anomalies;
  }
}
