import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BankLookupService,
  MovementService,
  type TransferInput,
  TransferService,
  transferRequestOpenApiSchema,
} from '@giro/transfer-module';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
  type SchemaObject,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { DEFAULT_PAGE_SIZE, ListTransfersQuery, OriginIdParams } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { MOVEMENT_REF } from './movement.schema';
import { TransferRequestPipe } from './transfer-request.pipe';
import { movementSearchOf } from './transfer-search.dto';

@AdminRoutes('transfers')
@Controller('admin/transfers')
export class TransfersController {
  constructor(
    private readonly transfers: TransferService,
    private readonly movements: MovementService,
    private readonly bankLookups: BankLookupService,
  ) {}

  /**
   * The body is validated once, by TransferRequestPipe (the domain's rules and the module's limits), and the
   * transfer it returns is what the service sends; a 400 names every bad field. The OpenAPI schema of the body
   * comes from the same description of the request as the rules.
   */
  @RequiresRole('operator')
  @Audited('transfer.create')
  @Post()
  @ApiOperation({
    summary:
      'Create a transfer (201 new, 200 same originId and payload, 409 other payload); above APPROVAL_REQUIRED_ABOVE it is stored AWAITING_APPROVAL and not sent',
  })
  @ApiBody({ schema: transferRequestOpenApiSchema() as SchemaObject })
  @ApiCreatedResponse({ description: 'the new transfer', schema: MOVEMENT_REF })
  @ApiOkResponse({ description: 'the transfer stored with this originId and payload', schema: MOVEMENT_REF })
  @ApiBadRequestResponse({ description: 'invalid request: `violations` names each field and rule' })
  @ApiConflictResponse({ description: 'this originId already exists with another payload' })
  @ApiUnprocessableEntityResponse({
    description:
      'the transfer would pass a limit of its source account: `violations` names it (`rule` per_transfer, daily_amount or daily_count) and says what remains today; nothing stored or sent',
  })
  async create(
    @Body(TransferRequestPipe) transfer: TransferInput,
    @Res({ passthrough: true }) response: ServerResponse,
    @Req() request: IncomingMessage,
  ) {
    // The creator is recorded on the transfer: an approval, when one is needed, must come from another key.
    const { movement, created } = await this.transfers.requestTransfer(transfer, { by: recordedActorOf(request) });
    response.statusCode = created ? 201 : 200;
    return movement;
  }

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({
    summary:
      'Search movements: by status, creation day or time, amount range, either account, either CUIT, originId, network id, text in the description; by originId or by creation time; keyset-paginated',
  })
  @ApiOkResponse({
    description: '`{ items, nextCursor }`; pass `nextCursor` as `after` (with the same sort) for the next page',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'nextCursor'],
      properties: { items: { type: 'array', items: MOVEMENT_REF }, nextCursor: { type: 'string', nullable: true } },
    },
  })
  list(@Query() query: ListTransfersQuery) {
    return this.movements.listMovements(movementSearchOf(query), {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.after !== undefined && { after: query.after }),
      ...(query.sort !== undefined && { sort: query.sort }),
    });
  }

  @RequiresRole('viewer')
  @Get(':originId')
  @ApiOperation({ summary: 'A movement with its status history and cancellation' })
  @ApiOkResponse({ schema: MOVEMENT_REF })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  get(@Param() params: OriginIdParams) {
    return this.movements.getMovement(params.originId);
  }

  @RequiresRole('operator')
  @Audited('transfer.refresh')
  @Post(':originId/refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Query the bank about this movement now' })
  @ApiOkResponse({ description: 'the movement after the bank answered', schema: MOVEMENT_REF })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  @ApiTooManyRequestsResponse({ description: 'sooner than the polling rule allows; `Retry-After` says when' })
  @ApiConflictResponse({
    description:
      'another worker is handling this movement right now, or it was never sent (AWAITING_APPROVAL, REJECTED)',
  })
  refresh(@Param() params: OriginIdParams) {
    return this.bankLookups.refreshMovement(params.originId);
  }
}
