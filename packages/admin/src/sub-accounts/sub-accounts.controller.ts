import { PspModeRequiredError, SubAccountService } from '@giro/transfer-module';
import { Body, Controller, Get, HttpCode, Optional, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/**
 * PSP mode: the clients' virtual sub-accounts (CVU) the entity may send from. The body is read by
 * SubAccountService (a 400 names each bad field); without PSP mode every route answers 403.
 */
@AdminRoutes('sub-accounts')
@Controller('admin/sub-accounts')
@ApiForbiddenResponse({ description: 'PSP mode is off: this use is reserved to registered payment service providers' })
export class SubAccountsController {
  // Optional: a host whose TransferModule does not provide it (a stub in tests) has no PSP mode either.
  constructor(@Optional() private readonly subAccounts?: SubAccountService) {}

  @RequiresRole('admin')
  @Audited('sub_account.register')
  @Post()
  @ApiOperation({ summary: "Register a client's sub-account (a CVU and its holder), or enable it again" })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['address', 'ownerPersonId'],
      properties: {
        address: { type: 'string', pattern: '^000[0-9]{19}$', description: 'a CVU' },
        ownerPersonId: { type: 'string', pattern: '^[0-9]{11}$', description: "the holder's CUIT or CUIL" },
        ownerName: { type: 'string', maxLength: 200 },
      },
    },
  })
  @ApiBadRequestResponse({ description: 'not a CVU, not a CUIT, or an unknown field: `violations` names each' })
  @ApiConflictResponse({ description: 'this CVU is registered to another holder' })
  register(@Body() registration: Record<string, unknown>) {
    return this.service().registerSubAccount(registration);
  }

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({ summary: 'The registered sub-accounts, disabled ones included' })
  list() {
    return this.service().listSubAccounts();
  }

  @RequiresRole('admin')
  @Audited('sub_account.disable')
  @Post(':address/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'No transfer may be sent from this sub-account any more (idempotent)' })
  @ApiNotFoundResponse({ description: 'no sub-account is registered with this address' })
  disable(@Param('address') address: string) {
    return this.service().disableSubAccount(address);
  }

  private service(): SubAccountService {
    if (this.subAccounts === undefined) throw new PspModeRequiredError();
    return this.subAccounts;
  }
}
