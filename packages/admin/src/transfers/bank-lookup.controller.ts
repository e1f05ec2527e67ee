import { BankLookupService } from '@giro/transfer-module';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/**
 * Asking the bank about any movement by the names it knows it by (docs/bank-api.md#get-a-movement), one giro
 * does not store included. The body is read by BankLookupService (exactly one of the three fields), so it has no
 * DTO of its own: a 400 names the fields the way every admin 400 does.
 */
@AdminRoutes('bank')
@Controller('admin/bank')
export class BankLookupController {
  constructor(private readonly bankLookups: BankLookupService) {}

  @RequiresRole('operator')
  @Audited('bank.lookup')
  @Post('lookup')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Ask the bank about a movement by exactly one of originId, networkId, debinId; the bank's answer, read-only",
    description:
      "A movement giro stores and knows by that name (its originId, a network id from its answers, a DEBIN id learned before) is refreshed: the polling rule applies, the answer is recorded like any other. A network or DEBIN id giro has not learned is asked about; when the answer names a stored movement (same amount, currency and account), it is recorded as that movement's query and the DEBIN id kept. Any other movement is only asked about, and nothing is stored. The call counts against the bank-call budget.",
  })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: {
        originId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        networkId: { type: 'string', minLength: 1, maxLength: 200 },
        debinId: { type: 'string', minLength: 1, maxLength: 200 },
      },
    },
  })
  @ApiOkResponse({
    description:
      '`{ stored, status, originId, amount, currencyId, bank, answer, anomaly }`: what the bank answered; `anomaly`, why it was recorded as an anomaly of a stored movement and not applied',
  })
  @ApiBadRequestResponse({ description: 'none, or more than one, of originId, networkId, debinId' })
  @ApiNotFoundResponse({ description: 'the bank does not know this movement' })
  @ApiTooManyRequestsResponse({ description: 'a stored movement asked about sooner than the polling rule allows' })
  @ApiBadGatewayResponse({ description: 'the bank gave no usable answer' })
  lookUp(@Body() lookup: Record<string, unknown>) {
    return this.bankLookups.lookUpAtBank(lookup);
  }
}
