import type { ServerResponse } from 'node:http';
import { TransferRequestDto, TransferService } from '@giro/transfer-module';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { PinoLogger } from 'nestjs-pino';
import { DEFAULT_PAGE_SIZE, ListTransfersQuery, OriginIdParams } from './admin-queries.dto';
import { AdminTokenGuard } from './admin-token.guard';
import { TRANSFER_REQUEST_SCHEMA } from './openapi-schemas';

@ApiTags('transfers')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'missing or wrong bearer token' })
@UseGuards(AdminTokenGuard)
@Controller('admin/transfers')
export class TransfersController {
  constructor(
    private readonly transfers: TransferService,
    private readonly logger: PinoLogger,
  ) {}

  /**
   * The ValidationPipe checks the body against the module's DTO (the domain's rules: shape, check digits,
   * amounts, unknown fields); the service applies its configured limits on top. Either way a 400 names
   * every bad field.
   */
  @Post()
  @ApiOperation({ summary: 'Create a transfer (201 new, 200 same originId and payload, 409 other payload)' })
  @ApiBody({ schema: TRANSFER_REQUEST_SCHEMA })
  @ApiBadRequestResponse({ description: 'invalid request: `violations` names each field and rule' })
  @ApiConflictResponse({ description: 'this originId already exists with another payload' })
  async create(
    @Body() _checked: TransferRequestDto,
    @Req() request: { body: unknown },
    @Res({ passthrough: true }) response: ServerResponse,
  ) {
    // The service validates the JSON as received, not the pipe's DTO instance: class-transformer leaves out
    // keys named like the instance's methods (`toString`, `hasOwnProperty`…), so the pipe's whitelist never
    // sees them, while the service's validation refuses them as unknown fields, naming each one.
    const { movement, created } = await this.transfers.requestTransfer(request.body);
    this.logger.assign({ originId: movement.originId });
    response.statusCode = created ? 201 : 200;
    return movement;
  }

  @Get()
  @ApiOperation({ summary: 'List movements by originId, cursor-paginated' })
  @ApiOkResponse({ description: '`{ items, nextCursor }`; pass `nextCursor` as `after` for the next page' })
  list(@Query() query: ListTransfersQuery) {
    return this.transfers.listMovements(query.status === undefined ? {} : { status: query.status }, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.after !== undefined && { after: query.after }),
    });
  }

  @Get(':originId')
  @ApiOperation({ summary: 'A movement with its status history and cancellation' })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  get(@Param() params: OriginIdParams) {
    return this.transfers.getMovement(params.originId);
  }

  @Post(':originId/refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Query the bank about this movement now' })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  @ApiTooManyRequestsResponse({ description: 'sooner than the polling rule allows; `Retry-After` says when' })
  @ApiConflictResponse({ description: 'another worker is handling this movement right now' })
  refresh(@Param() params: OriginIdParams) {
    return this.transfers.refreshMovement(params.originId);
  }
}
