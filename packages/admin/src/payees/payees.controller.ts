import type { IncomingMessage } from 'node:http';
import { PayeeService } from '@giro/transfer-module';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Optional,
  Param,
  Post,
  Query,
  Req,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { DEFAULT_PAGE_SIZE } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { SearchPayeesQuery } from './payee-queries.dto';

const PAYEE_DESCRIPTION =
  '`{ address, requestedPersonId, holder: { personId, name } | null, holderDiffers, previousNames, nameChangedAt, label, firstPaidAt, lastPaidAt, completed: { count, amount }, approved, blocked, createdAt, updatedAt }`';

/**
 * The payee book: every destination account giro paid, learned from the bank's final answers (the holder's name
 * and CUIT as the bank reported them), or added by hand with a label. Blocking an account refuses every transfer
 * to it (422 `PAYEE_BLOCKED`, nothing stored or sent); only the approver and admin roles block and unblock.
 */
@AdminRoutes('payees')
@Controller('admin/payees')
export class PayeesController {
  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
  constructor(@Optional() private readonly payees?: PayeeService) {}

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({ summary: "Search the payee book by account, CUIT, holder's name or label; keyset pages" })
  @ApiOkResponse({ description: `\`{ items, nextCursor }\`, each ${PAYEE_DESCRIPTION}` })
  search(@Query() query: SearchPayeesQuery) {
    return this.service().searchPayees(
      { ...(query.q !== undefined && { q: query.q }) },
      { limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.after !== undefined && { after: query.after }) },
    );
  }

  @RequiresRole('viewer')
  @Get(':address')
  @ApiOperation({ summary: 'One payee: the holder as the bank named them, what was paid, blocked or approved' })
  @ApiOkResponse({ description: PAYEE_DESCRIPTION })
  @ApiBadRequestResponse({ description: 'not a CBU or CVU' })
  @ApiNotFoundResponse({ description: 'the payee book has no entry for this account' })
  get(@Param('address') address: string) {
    return this.service().getPayee(address);
  }

  @RequiresRole('operator')
  @Audited('payee.add')
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Add an account to the payee book, or label it (this does not approve it as a payee)' })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['address'],
      properties: {
        address: { type: 'string', pattern: '^[0-9]{22}$', description: 'a CBU or CVU' },
        personId: { type: 'string', pattern: '^[0-9]{11}$', description: "the holder's CUIT or CUIL expected" },
        label: { type: 'string', minLength: 1, maxLength: 100 },
      },
    },
  })
  @ApiBadRequestResponse({ description: 'not a CBU/CVU, not a CUIT, a bad label or an unknown field' })
  add(@Body() body: Record<string, unknown>) {
    return this.service().addPayee(body);
  }

  @RequiresRole('approver')
  @Audited('payee.block')
  @Post(':address/block')
  @HttpCode(200)
  @ApiOperation({ summary: 'Refuse every transfer to this account from now on (idempotent)' })
  @ApiBadRequestResponse({ description: 'not a CBU or CVU' })
  block(@Param('address') address: string, @Req() request: IncomingMessage) {
    return this.service().blockPayee(address, recordedActorOf(request));
  }

  @RequiresRole('approver')
  @Audited('payee.unblock')
  @Post(':address/unblock')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept transfers to this account again (idempotent)' })
  @ApiNotFoundResponse({ description: 'the payee book has no entry for this account' })
  unblock(@Param('address') address: string, @Req() request: IncomingMessage) {
    return this.service().unblockPayee(address, recordedActorOf(request));
  }

  private service(): PayeeService {
    if (this.payees === undefined) throw new ServiceUnavailableException('the payee book is not available');
    return this.payees;
  }
}
