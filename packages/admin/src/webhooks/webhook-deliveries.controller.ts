import { MovementService, WebhookService, WebhooksDisabledError } from '@giro/transfer-module';
import { Controller, Get, HttpCode, Logger, Optional, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, OriginIdParams } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import {
  WEBHOOK_ATTEMPT_SCHEMA,
  WEBHOOK_DELIVERY_PAGE_SCHEMA,
  WEBHOOK_DELIVERY_SCHEMA,
  WEBHOOK_DELIVERY_WITH_PAYLOAD_SCHEMA,
} from './webhook-openapi';
import { ListWebhookDeliveriesQuery, WebhookDeliveryParams } from './webhook-queries.dto';

const NOT_FOUND = 'no webhook delivery has this id';

/**
 * Webhook deliveries one by one — with the event as sent, and every attempt — and a transfer's deliveries (to
 * every endpoint): the viewer role reads them; delivering one again is the admin role's, like the endpoints.
 */
@AdminRoutes('webhooks')
@Controller('admin')
@ApiConflictResponse({
  description: 'webhooks are not enabled in this application (the TransferModule option `webhooks`)',
})
export class WebhookDeliveriesController {
  private readonly logger = new Logger('TransferAdmin');

  constructor(
    private readonly movements: MovementService,
    // Optional: see WebhooksController.
    @Optional() private readonly webhooks?: WebhookService,
  ) {}

  @RequiresRole('viewer')
  @Get('webhook-deliveries/:deliveryId')
  @ApiOperation({ summary: 'One delivery, with the event it carries (`payload`: the body as sent)' })
  @ApiOkResponse({ schema: WEBHOOK_DELIVERY_WITH_PAYLOAD_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(@Param() params: WebhookDeliveryParams) {
    return this.service().getDelivery(params.deliveryId);
  }

  @RequiresRole('viewer')
  @Get('webhook-deliveries/:deliveryId/attempts')
  @ApiOperation({ summary: 'Every attempt of a delivery, oldest first' })
  @ApiOkResponse({ schema: { type: 'array', items: WEBHOOK_ATTEMPT_SCHEMA } })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  attempts(@Param() params: WebhookDeliveryParams) {
    return this.service().listAttempts(params.deliveryId);
  }

  @RequiresRole('admin')
  @Audited('webhook.redeliver')
  @Post('webhook-deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver it again now (same event id), its retry schedule started over' })
  @ApiOkResponse({ schema: WEBHOOK_DELIVERY_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async redeliver(@Param() params: WebhookDeliveryParams) {
    const delivery = await this.service().redeliver(params.deliveryId);
    this.logger.log(
      { webhookDeliveryId: delivery.id, webhookEndpointId: delivery.endpointId },
      'webhook delivery sent again',
    );
    return delivery;
  }

  @RequiresRole('viewer')
  @Get('transfers/:originId/webhook-deliveries')
  @ApiOperation({ summary: "A transfer's webhook deliveries to every endpoint, newest first; filter by state" })
  @ApiOkResponse({ schema: WEBHOOK_DELIVERY_PAGE_SCHEMA })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  async forTransfer(@Param() params: OriginIdParams, @Query() query: ListWebhookDeliveriesQuery) {
    const service = this.service();
    // An unknown transfer is a 404, not an empty page.
    await this.movements.getMovement(params.originId);
    return service.listDeliveries(
      { originId: params.originId, ...(query.state !== undefined && { state: query.state }) },
      { limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.before !== undefined && { before: query.before }) },
    );
  }

  private service(): WebhookService {
    if (this.webhooks === undefined) throw new WebhooksDisabledError();
    return this.webhooks;
  }
}
