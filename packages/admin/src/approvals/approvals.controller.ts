import type { IncomingMessage } from 'node:http';
import { ApprovalService, MAX_APPROVAL_BATCH } from '@giro/transfer-module';
import {
  Body,
  Controller,
  HttpCode,
  Logger,
  Optional,
  Param,
  Post,
  Req,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { OriginIdParams } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { originIdsSchema } from '../shared/http/origin-ids-schema';

const REASON = { type: 'string', minLength: 1, maxLength: 500, description: 'why it is rejected' } as const;
const ORIGIN_IDS = originIdsSchema(MAX_APPROVAL_BATCH);

/**
 * Maker–checker: approving or rejecting the transfers stored AWAITING_APPROVAL (`APPROVAL_REQUIRED_ABOVE`), one
 * or several at once. Only the approver and admin roles decide, and never about a transfer their own key — or a key
 * of the same person (persistence/approval-four-eyes.ts) — created.
 * The waiting ones are listed by `GET /admin/transfers?status=AWAITING_APPROVAL`.
 */
@AdminRoutes('approvals')
@Controller('admin/transfers')
export class ApprovalsController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
  constructor(@Optional() private readonly approvals?: ApprovalService) {}

  @RequiresRole('approver')
  @Audited('transfer.approve')
  @Post(':originId/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a transfer awaiting approval: it becomes PENDING and is sent' })
  @ApiOkResponse({ description: 'the movement after the approval (PENDING, or further if the bank answered at once)' })
  @ApiForbiddenResponse({
    description:
      'the key that created the transfer, a key taken for the same person (one minted the other, or one credential minted both), or the admin token cannot approve it',
  })
  @ApiConflictResponse({ description: 'not awaiting approval (decided already, or it never waited), or expired' })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  async approve(@Param() params: OriginIdParams, @Req() request: IncomingMessage) {
    const actor = recordedActorOf(request);
    const movement = await this.service().approve(params.originId, actor);
    this.logger.log({ originId: movement.originId, keyId: actor.keyId }, 'transfer approved');
    return movement;
  }

  @RequiresRole('approver')
  @Audited('transfer.reject')
  @Post(':originId/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a transfer awaiting approval, with a reason: it ends REJECTED, never sent' })
  @ApiBody({
    schema: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: REASON } },
  })
  @ApiBadRequestResponse({ description: 'a missing or bad `reason`: `violations` names it' })
  @ApiConflictResponse({ description: 'not awaiting approval (decided already, or it never waited), or expired' })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  async reject(
    @Param() params: OriginIdParams,
    @Body() body: Record<string, unknown>,
    @Req() request: IncomingMessage,
  ) {
    const actor = recordedActorOf(request);
    const movement = await this.service().reject(params.originId, body, actor);
    this.logger.log({ originId: movement.originId, keyId: actor.keyId }, 'transfer rejected');
    return movement;
  }

  @RequiresRole('approver')
  @Audited('transfer.approve_many')
  @Post('approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve several transfers; each one is decided on its own' })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['originIds'],
      properties: { originIds: ORIGIN_IDS },
    },
  })
  @ApiOkResponse({
    description:
      '`{ items }`, one per originId in order: `{ originId, outcome: "approved", movement }` or `{ originId, outcome: "refused", error: { name, message } }`',
  })
  @ApiBadRequestResponse({ description: 'a missing, empty, too long or repeated `originIds`: `violations` names it' })
  async approveMany(@Body() body: Record<string, unknown>, @Req() request: IncomingMessage) {
    return { items: await this.service().approveMany(body, recordedActorOf(request)) };
  }

  @RequiresRole('approver')
  @Audited('transfer.reject_many')
  @Post('reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject several transfers with one reason; each one is decided on its own' })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['originIds', 'reason'],
      properties: { originIds: ORIGIN_IDS, reason: REASON },
    },
  })
  @ApiOkResponse({ description: '`{ items }`, as for approve' })
  @ApiBadRequestResponse({ description: 'a bad `originIds` or `reason`: `violations` names it' })
  async rejectMany(@Body() body: Record<string, unknown>, @Req() request: IncomingMessage) {
    return { items: await this.service().rejectMany(body, recordedActorOf(request)) };
  }

  private service(): ApprovalService {
    if (this.approvals === undefined) {
      throw new ServiceUnavailableException(
        'approvals are not available: this application provides no ApprovalService',
      );
    }
    return this.approvals;
  }
}
