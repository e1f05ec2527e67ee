import { ANOMALY_KIND_NAMES, type AnomalyKind, explainOriginId, isValidOriginId } from '@giro/transfer-module';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { TransferSearchQuery } from '../../transfers/transfer-search.dto';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** `:originId` in a path: a positive safe integer (the bank's idempotency key), checked by the domain's rule. */
export class OriginIdParams {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1001 })
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @ValidateBy({
    name: 'origin_id',
    validator: {
      validate: (value: unknown) => isValidOriginId(value),
      defaultMessage: (args) =>
        typeof args?.value === 'number'
          ? `originId ${explainOriginId(args.value)}`
          : `originId must be a positive integer, got ${JSON.stringify(args?.value)}`,
    },
  })
  originId!: number;
}

/** `limit` and `after` of a keyset-paginated list, as `GET /admin/transfers` takes them. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit must be an integer between 1 and ${MAX_PAGE_SIZE}` })
  @Min(1, { message: `limit must be an integer between 1 and ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `limit must be an integer between 1 and ${MAX_PAGE_SIZE}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'the `nextCursor` of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

/** `GET /admin/transfers`: the search (transfer-search.dto.ts), its sort, and a page of it. */
export class ListTransfersQuery extends IntersectionType(TransferSearchQuery, PageQuery) {}

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/**
 * `GET /admin/cancellations?acknowledged=false&limit=&after=`: with `limit` or `after`, a page `{ items, nextCursor }`
 * like the transfers list; without either, the whole list as a bare array, as this route always answered.
 */
export class ListCancellationsQuery extends PageQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'false: the ones the host has not registered yet' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'acknowledged must be true or false' })
  acknowledged?: boolean;
}

/** `GET /admin/anomalies?resolved=&originId=&kind=&limit=&after=` */
export class ListAnomaliesQuery extends PageQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'false: the ones still open; true: the resolved ones' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'resolved must be true or false' })
  resolved?: boolean;

  @ApiPropertyOptional({ type: Number, description: "only this movement's anomalies" })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @ValidateBy({
    name: 'origin_id',
    validator: {
      validate: (value: unknown) => isValidOriginId(value),
      defaultMessage: () => 'originId must be a positive integer (a safe integer)',
    },
  })
  originId?: number;

  @ApiPropertyOptional({ enum: ANOMALY_KIND_NAMES, description: 'only anomalies of this kind' })
  @IsOptional()
  @IsIn(ANOMALY_KIND_NAMES, { message: `kind must be one of ${ANOMALY_KIND_NAMES.join(', ')}` })
  kind?: AnomalyKind;
}

/** `:id` of an anomaly in a path: a positive integer (its history row's id). */
export class AnomalyIdParams {
  @ApiProperty({ type: 'integer', minimum: 1, example: 7 })
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value))
  @ValidateBy({
    name: 'anomaly_id',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1,
      defaultMessage: (args) => `id must be a positive integer, got ${JSON.stringify(args?.value)}`,
    },
  })
  id!: number;
}

/** `POST /admin/cancellations/:originId/ack`'s optional body. */
export class AcknowledgeCancellationBody {
  @ApiPropertyOptional({ maxLength: 100, description: "the host's own registration id, shown in the cancellation" })
  @IsOptional()
  @IsString({ message: 'reference must be a string' })
  @Length(1, 100, { message: 'reference must be from 1 to 100 characters' })
  reference?: string;
}
