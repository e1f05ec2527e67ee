import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { typeProblem, type Violation, type ViolationParams } from '../domain';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions, type ResolvedWebhookOptions } from '../options';
import {
  WEBHOOK_DELIVERY_STATES,
  type WebhookDeliveryCounts,
  type WebhookDeliveryState,
  type WebhookEndpointChanges,
  WebhookEndpointNotFoundError,
  type WebhookEndpointRecord,
  WebhookStore,
} from '../persistence';
import { newEventId } from './event-id';
import { webhookPayload } from './transfer-event-outbox';
import { WebhooksDisabledError, WebhookValidationError } from './webhook.errors';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types';
import { explainWebhookSecret, newWebhookSecret } from './webhook-signature';
import { explainWebhookUrl, normalizedWebhookUrl } from './webhook-target';
import {
  toAttemptView,
  toDeliveryView,
  toEndpointView,
  type WebhookAttemptView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from './webhook-views';

/** The id of the endpoint a deployment configures in its environment (WEBHOOK_URL, WEBHOOK_SECRET). */
export const ENVIRONMENT_ENDPOINT_ID = 'ep_environment';

const ENDPOINT_FIELDS = ['url', 'eventTypes', 'description', 'enabled'] as const;
const MAX_DESCRIPTION_LENGTH = 200;
/** Types an endpoint may choose (a test event goes to the endpoint it is sent to, whatever it chose). */
const SUBSCRIBABLE_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test');

/** An endpoint just created or rotated, with its secret: the only time the secret is shown. */
export interface WebhookEndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

/**
 * Webhook endpoints and their deliveries, for the admin API and a host's own code: register an endpoint (its
 * secret generated and shown once), change or delete it, rotate its secret (the previous one keeps signing for
 * `webhooks.secretGraceMs`), see each delivery and its attempts, deliver again, send a test event. Every method
 * throws WebhooksDisabledError when the module has no `webhooks` option, WebhookValidationError naming each bad
 * field, and the store's WebhookEndpointNotFoundError / WebhookDeliveryNotFoundError.
 */
@Injectable()
export class WebhookService {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(WebhookStore) private readonly store: WebhookStore,
  ) {}

  /** `{ url, eventTypes?, description? }` → the endpoint and its new secret. */
  async createEndpoint(input: unknown): Promise<WebhookEndpointWithSecret> {
    const rules = this.rules();
    const fields = readEndpointFields(input, rules, { urlRequired: true });
    if (fields.enabled !== undefined)
      throw invalid('enabled', 'unknown', 'is set with PATCH, after creation', {
        allowed: ['url', 'eventTypes', 'description'],
      });
    const secret = newWebhookSecret();
    const record = await this.store.createEndpoint({
      id: `ep_${randomBytes(12).toString('base64url')}`,
      url: fields.url as string,
      description: fields.description ?? null,
      eventTypes: fields.eventTypes ?? [],
      secret,
    });
    return { endpoint: this.view(record), secret };
  }

  /**
   * The one endpoint of a deployment's environment (WEBHOOK_URL and WEBHOOK_SECRET): created, or updated to
   * these values, enabled. Its secret is the one given (`whsec_…`).
   */
  async configureEnvironmentEndpoint(input: {
    url: string;
    secret: string;
    eventTypes?: string[];
  }): Promise<WebhookEndpointView> {
    const rules = this.rules();
    const fields = readEndpointFields({ url: input.url, eventTypes: input.eventTypes }, rules, { urlRequired: true });
    const problem = explainWebhookSecret(input.secret);
    if (problem !== undefined) throw invalid('secret', 'webhook_secret', problem, {});
    const record = await this.store.upsertEndpoint({
      id: ENVIRONMENT_ENDPOINT_ID,
      url: fields.url as string,
      description: 'configured by WEBHOOK_URL',
      eventTypes: fields.eventTypes ?? [],
      secret: input.secret,
    });
    return this.view(record);
  }

  async listEndpoints(): Promise<WebhookEndpointView[]> {
    this.rules();
    return (await this.store.listEndpoints()).map((record) => this.view(record));
  }

  async getEndpoint(id: string): Promise<WebhookEndpointView> {
    this.rules();
    return this.view(await this.endpoint(id));
  }

  /** Any of `{ url, eventTypes, description, enabled }`; `enabled: true` also enables one the receiver disabled (410). */
  async updateEndpoint(id: string, input: unknown): Promise<WebhookEndpointView> {
    const fields = readEndpointFields(input, this.rules(), { urlRequired: false });
    const changes: WebhookEndpointChanges = {};
    if (fields.url !== undefined) changes.url = fields.url;
    if (fields.eventTypes !== undefined) changes.eventTypes = fields.eventTypes;
    if (fields.description !== undefined) changes.description = fields.description;
    if (fields.enabled !== undefined) changes.enabled = fields.enabled;
    return this.view(await this.store.updateEndpoint(id, changes));
  }

  /** Deletes it with its deliveries and their attempts. */
  async deleteEndpoint(id: string): Promise<void> {
    this.rules();
    await this.store.deleteEndpoint(id);
  }

  /** A new secret, shown once; the previous one keeps signing beside it for `webhooks.secretGraceMs`. */
  async rotateSecret(id: string): Promise<WebhookEndpointWithSecret> {
    const { secretGraceMs } = this.rules();
    const secret = newWebhookSecret();
    const graceEnds = new Date(this.options.clock.now().getTime() + secretGraceMs);
    return { endpoint: this.view(await this.store.rotateEndpointSecret(id, secret, graceEnds)), secret };
  }

  /** Deliveries, newest first: of one endpoint, of one transfer, in one state. */
  async listDeliveries(
    filter: { endpointId?: string; originId?: number; state?: string },
    page: { limit: number; before?: string },
  ): Promise<{ items: WebhookDeliveryView[]; nextCursor: string | null }> {
    this.rules();
    if (filter.state !== undefined && !(WEBHOOK_DELIVERY_STATES as readonly string[]).includes(filter.state)) {
      throw invalid('state', 'enum', `must be one of ${WEBHOOK_DELIVERY_STATES.join(', ')}`, {
        allowed: WEBHOOK_DELIVERY_STATES,
      });
    }
    const { items, nextCursor } = await this.store.listDeliveries({
      ...filter,
      state: filter.state as WebhookDeliveryState | undefined,
      ...page,
    });
    return { items: items.map(toDeliveryView), nextCursor };
  }

  /** One delivery with the event it carries (the payload as sent, parsed). */
  async getDelivery(deliveryId: number): Promise<WebhookDeliveryView & { payload: unknown }> {
    this.rules();
    const record = await this.store.getDelivery(deliveryId);
    return { ...toDeliveryView(record), payload: JSON.parse(record.payload) };
  }

  async listAttempts(deliveryId: number): Promise<WebhookAttemptView[]> {
    this.rules();
    return (await this.store.listAttempts(deliveryId)).map(toAttemptView);
  }

  /** Delivers it again now, its retry schedule started over (same event id). */
  async redeliver(deliveryId: number): Promise<WebhookDeliveryView> {
    this.rules();
    await this.store.redeliver(deliveryId);
    return toDeliveryView(await this.store.getDelivery(deliveryId));
  }

  /** Delivers every dead delivery of the endpoint again; how many. */
  async redeliverDead(endpointId: string): Promise<{ redelivered: number }> {
    this.rules();
    await this.endpoint(endpointId);
    return { redelivered: await this.store.redeliverDead(endpointId) };
  }

  /** A `webhook.test` event to this endpoint alone, delivered like any other. */
  async sendTestEvent(endpointId: string): Promise<WebhookDeliveryView> {
    this.rules();
    const at = this.options.clock.now();
    const payload = webhookPayload('webhook.test', at, { endpointId, message: 'a test event from giro' });
    const record = await this.store.addTestEvent(endpointId, {
      id: newEventId(),
      type: 'webhook.test',
      originId: null,
      payload,
    });
    return toDeliveryView(record);
  }

  /**
   * Deliveries waiting (pending; failing: pending after a failed attempt), dead, and when the oldest pending
   * event was written: the state of the outbox, the same from every replica (the reconciler's metrics).
   */
  async countDeliveries(): Promise<WebhookDeliveryCounts> {
    this.rules();
    return this.store.countDeliveries();
  }

  private rules(): ResolvedWebhookOptions {
    if (this.options.webhooks === undefined) throw new WebhooksDisabledError();
    return this.options.webhooks;
  }

  private async endpoint(id: string): Promise<WebhookEndpointRecord> {
    const record = await this.store.findEndpoint(id);
    if (record === null) throw new WebhookEndpointNotFoundError(id);
    return record;
  }

  private view(record: WebhookEndpointRecord): WebhookEndpointView {
    return toEndpointView(record, this.options.clock.now());
  }
}

interface EndpointFields {
  url?: string;
  eventTypes?: string[];
  description?: string | null;
  enabled?: boolean;
}

function readEndpointFields(
  input: unknown,
  rules: ResolvedWebhookOptions,
  options: { urlRequired: boolean },
): EndpointFields {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new WebhookValidationError([
      { field: '', rule: 'type', ...typeProblem('object', input), message: 'the body must be a JSON object' },
    ]);
  }
  const body = input as Record<string, unknown>;
  const violations: Violation[] = [];
  for (const key of Object.keys(body)) {
    if (!(ENDPOINT_FIELDS as readonly string[]).includes(key)) {
      violations.push({
        field: key,
        rule: 'unknown',
        params: { allowed: ENDPOINT_FIELDS },
        message: `is not a field (known: ${ENDPOINT_FIELDS.join(', ')})`,
      });
    }
  }
  const fields: EndpointFields = {};
  if (body.url === undefined) {
    if (options.urlRequired) violations.push({ field: 'url', rule: 'required', params: {}, message: 'is required' });
  } else {
    const problem = explainWebhookUrl(body.url, rules);
    if (problem === undefined) fields.url = normalizedWebhookUrl(body.url as string);
    else violations.push({ field: 'url', rule: 'webhook_url', params: {}, message: problem });
  }
  if (body.eventTypes !== undefined) {
    const types = body.eventTypes;
    if (!Array.isArray(types) || types.some((type) => !(SUBSCRIBABLE_TYPES as readonly unknown[]).includes(type))) {
      violations.push({
        field: 'eventTypes',
        rule: 'event_types',
        params: { allowed: SUBSCRIBABLE_TYPES },
        message: `must be an array of ${SUBSCRIBABLE_TYPES.join(', ')} (empty: all)`,
      });
    } else fields.eventTypes = [...new Set(types as string[])];
  }
  if (body.description !== undefined) {
    const description = body.description;
    if (description !== null && (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH)) {
      violations.push({
        field: 'description',
        rule: 'max_length',
        params: { max: MAX_DESCRIPTION_LENGTH },
        message: `must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters, or null`,
      });
    } else fields.description = description as string | null;
  }
  if (body.enabled !== undefined) {
    if (typeof body.enabled !== 'boolean')
      violations.push({
        field: 'enabled',
        rule: 'type',
        ...typeProblem('boolean', body.enabled),
        message: 'must be true or false',
      });
    else fields.enabled = body.enabled;
  }
  if (violations.length > 0) throw new WebhookValidationError(violations);
  return fields;
}

function invalid(field: string, rule: string, message: string, params: ViolationParams): WebhookValidationError {
  return new WebhookValidationError([{ field, rule, params, message }]);
}
