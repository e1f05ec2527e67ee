import type { WebhookDeliveryView } from '@giro/transfer-module';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/http/admin-queries.dto';

export const WEBHOOK_DELIVERY_STATES: readonly WebhookDeliveryView['state'][] = ['pending', 'delivered', 'dead'];

/** `:id` of a webhook endpoint: `ep_` and its random part (ids are made by giro, never chosen). */
export class WebhookEndpointParams {
  @ApiProperty({ example: 'ep_3kq9Zf2m1XbV0cYt8uQw' })
  @IsString()
  @Matches(/^ep_[A-Za-z0-9_-]{1,64}$/, { message: 'id must be a webhook endpoint id (ep_…)' })
  id!: string;
}

const POSITIVE_ID = 'deliveryId must be a positive integer';

/** `:deliveryId` of a webhook delivery. */
export class WebhookDeliveryParams {
  @ApiProperty({ example: 412 })
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value))
  @IsInt({ message: POSITIVE_ID })
  @Min(1, { message: POSITIVE_ID })
  deliveryId!: number;
}

const LIMIT = `limit must be an integer between 1 and ${MAX_PAGE_SIZE}`;

/** `GET /admin/webhooks/:id/deliveries?state=&limit=&before=` (and a transfer's deliveries). */
export class ListWebhookDeliveriesQuery {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATES, description: 'only deliveries in this state' })
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATES, { message: `state must be one of ${WEBHOOK_DELIVERY_STATES.join(', ')}` })
  state?: WebhookDeliveryView['state'];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT })
  @Min(1, { message: LIMIT })
  @Max(MAX_PAGE_SIZE, { message: LIMIT })
  limit?: number;

  @ApiPropertyOptional({ description: 'the `nextCursor` of the previous page (newest first)' })
  @IsOptional()
  @IsString()
  @Matches(/^[1-9][0-9]{0,15}$/, { message: 'before must be the nextCursor of a previous page' })
  before?: string;
}
