import { BankLookupService } from '@giro/transfer-module';
import { Controller, Get, Param } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { OriginIdParams } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/**
 * A stored movement as the network that carried it describes it (get-movement with `getRawData: true`). A read that
 * asks the bank and moves the movement's next query: audited as the action it is.
 */
@AdminRoutes('transfers')
@Controller('admin/transfers')
export class TransferRawController {
  constructor(private readonly bankLookups: BankLookupService) {}

  @RequiresRole('operator')
  @Audited('transfer.raw')
  @Get(':originId/raw')
  @ApiOperation({
    summary: "The bank's answer in the network's own format, as it came",
    description:
      'A query like any other: not sooner than the polling rule allows. Its status is not read, so the next query of the movement waits as after a DELAYED answer.',
  })
  @ApiOkResponse({ description: "the network's object, unchecked (its shape is the network's)" })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  @ApiTooManyRequestsResponse({ description: 'sooner than the polling rule allows; `Retry-After` says when' })
  @ApiConflictResponse({ description: 'another worker is handling this movement right now' })
  @ApiBadGatewayResponse({ description: 'the bank gave no usable answer' })
  raw(@Param() params: OriginIdParams) {
    return this.bankLookups.rawBankAnswer(params.originId);
  }
}
