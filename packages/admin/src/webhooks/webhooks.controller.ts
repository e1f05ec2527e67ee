import { type WebhookEndpointWithSecret, WebhookService, WebhooksDisabledError } from '@giro/transfer-module';
import { Body, Controller, Delete, Get, HttpCode, Logger, Optional, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import {
  CREATE_WEBHOOK_ENDPOINT_SCHEMA,
  UPDATE_WEBHOOK_ENDPOINT_SCHEMA,
  WEBHOOK_DELIVERY_PAGE_SCHEMA,
  WEBHOOK_DELIVERY_SCHEMA,
  WEBHOOK_ENDPOINT_SCHEMA,
  WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA,
} from './webhook-openapi';
import { ListWebhookDeliveriesQuery, WebhookEndpointParams } from './webhook-queries.dto';

const NOT_FOUND = 'no webhook endpoint has this id';
const DISABLED = 'webhooks are not enabled in this application (the TransferModule option `webhooks`)';

/**
 * Webhook endpoints (Standard Webhooks): registered, changed, deleted, their secrets rotated, a test event sent,
 * their dead deliveries sent again — the admin role, since an endpoint decides where giro's events (and the
 * requests giro makes) go and its secret proves them; reading them, the viewer role. The body is read by
 * WebhookService (a 400 names each bad field). A secret is in an answer only when it is made: never in a read,
 * never in a log line (only the endpoint's id is logged).
 */
@AdminRoutes('webhooks')
@Controller('admin/webhooks')
@ApiConflictResponse({ description: DISABLED })
export class WebhooksController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 409 here, as without webhooks.
  constructor(@Optional() private readonly webhooks?: WebhookService) {}

  @RequiresRole('admin')
  @Audited('webhook.create')
  @Post()
  @ApiOperation({ summary: 'Register a webhook endpoint; the answer holds its signing secret, shown this once' })
  @ApiBody({ schema: CREATE_WEBHOOK_ENDPOINT_SCHEMA })
  @ApiCreatedResponse({ schema: WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA })
  @ApiBadRequestResponse({
    description: 'a bad URL (not https, a loopback or private address not allowed), an unknown event type or field',
  })
  async create(@Body() body: Record<string, unknown>): Promise<WebhookEndpointWithSecret> {
    const created = await this.service().createEndpoint(body);
    this.logger.log({ webhookEndpointId: created.endpoint.id }, 'webhook endpoint created');
    return created;
  }

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({ summary: 'Every webhook endpoint, without secrets' })
  @ApiOkResponse({ schema: { type: 'array', items: WEBHOOK_ENDPOINT_SCHEMA } })
  list() {
    return this.service().listEndpoints();
  }

  @RequiresRole('viewer')
  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint, without its secret' })
  @ApiOkResponse({ schema: WEBHOOK_ENDPOINT_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(@Param() params: WebhookEndpointParams) {
    return this.service().getEndpoint(params.id);
  }

  @RequiresRole('admin')
  @Audited('webhook.update')
  @Patch(':id')
  @ApiOperation({ summary: 'Change its URL, event types or description; disable it, or enable it again' })
  @ApiBody({ schema: UPDATE_WEBHOOK_ENDPOINT_SCHEMA })
  @ApiOkResponse({ schema: WEBHOOK_ENDPOINT_SCHEMA })
  @ApiBadRequestResponse({ description: 'a bad field: `violations` names each' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async update(@Param() params: WebhookEndpointParams, @Body() body: Record<string, unknown>) {
    const endpoint = await this.service().updateEndpoint(params.id, body);
    this.logger.log({ webhookEndpointId: endpoint.id, enabled: endpoint.enabled }, 'webhook endpoint changed');
    return endpoint;
  }

  @RequiresRole('admin')
  @Audited('webhook.delete')
  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete it, with its deliveries and their attempts' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async remove(@Param() params: WebhookEndpointParams): Promise<void> {
    await this.service().deleteEndpoint(params.id);
    this.logger.log({ webhookEndpointId: params.id }, 'webhook endpoint deleted');
  }

  @RequiresRole('admin')
  @Audited('webhook.rotate_secret')
  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret, shown this once; the previous one keeps signing beside it for the grace period',
  })
  @ApiOkResponse({ schema: WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async rotateSecret(@Param() params: WebhookEndpointParams): Promise<WebhookEndpointWithSecret> {
    const rotated = await this.service().rotateSecret(params.id);
    this.logger.log({ webhookEndpointId: params.id }, 'webhook endpoint secret rotated');
    return rotated;
  }

  @RequiresRole('admin')
  @Audited('webhook.test')
  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send it a `webhook.test` event, delivered (and retried) like any other' })
  @ApiAcceptedResponse({ description: 'the delivery, pending', schema: WEBHOOK_DELIVERY_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  sendTest(@Param() params: WebhookEndpointParams) {
    return this.service().sendTestEvent(params.id);
  }

  @RequiresRole('viewer')
  @Get(':id/deliveries')
  @ApiOperation({ summary: "The endpoint's deliveries, newest first, cursor-paginated; filter by state" })
  @ApiOkResponse({ schema: WEBHOOK_DELIVERY_PAGE_SCHEMA })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async deliveries(@Param() params: WebhookEndpointParams, @Query() query: ListWebhookDeliveriesQuery) {
    const service = this.service();
    // An unknown endpoint is a 404, not an empty page.
    await service.getEndpoint(params.id);
    return service.listDeliveries(
      { endpointId: params.id, ...(query.state !== undefined && { state: query.state }) },
      { limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.before !== undefined && { before: query.before }) },
    );
  }

  @RequiresRole('admin')
  @Audited('webhook.redeliver_dead')
  @Post(':id/redeliver-dead')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver every dead delivery of the endpoint again (same event ids, schedule restarted)' })
  @ApiOkResponse({ schema: { type: 'object', properties: { redelivered: { type: 'integer', example: 3 } } } })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async redeliverDead(@Param() params: WebhookEndpointParams) {
    const result = await this.service().redeliverDead(params.id);
    this.logger.log({ webhookEndpointId: params.id, ...result }, 'dead webhook deliveries sent again');
    return result;
  }

  private service(): WebhookService {
    if (this.webhooks === undefined) throw new WebhooksDisabledError();
    return this.webhooks;
  }
}
