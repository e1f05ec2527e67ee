import {
  businessDayBounds,
  explainCbuCvu,
  explainCuit,
  isValidCbuCvu,
  isValidCuit,
  isValidOriginId,
  MOVEMENT_SORTS,
  MOVEMENT_STATUSES,
  type MovementSearch,
  type MovementSort,
  type MovementStatus,
  parseAmount,
} from '@giro/transfer-module';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, MaxLength, MinLength, ValidateBy } from 'class-validator';

// The search of `GET /admin/transfers` and `GET /admin/transfers/export.csv`: what an operator knows of a
// transfer, each filter optional, all of them together (AND). Days are Buenos Aires days.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_RULE = 'must be a day (YYYY-MM-DD, in Buenos Aires) or an ISO 8601 time with its offset';

/** A day or a time as the instants it spans: `[start, end)`; undefined when it is neither. */
function timeSpan(value: unknown): { start: Date; end: Date } | undefined {
  if (typeof value !== 'string') return undefined;
  if (DAY.test(value)) {
    try {
      return businessDayBounds(value);
    } catch {
      return undefined;
    }
  }
  const at = TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : { start: new Date(at), end: new Date(at + 1) };
}

const isTime = (name: string) =>
  ValidateBy({
    name: 'time',
    validator: { validate: (value) => timeSpan(value) !== undefined, defaultMessage: () => `${name} ${TIME_RULE}` },
  });

const isAmount = (name: string) =>
  ValidateBy({
    name: 'amount',
    validator: {
      validate: (value) => typeof value === 'string' && parseAmount(value).ok,
      defaultMessage: (args) => {
        const result = parseAmount(args?.value);
        return `${name} ${result.ok ? 'must be a decimal string' : result.reason}`;
      },
    },
  });

export class TransferSearchQuery {
  @ApiPropertyOptional({ enum: MOVEMENT_STATUSES, description: 'only movements in this status' })
  @IsOptional()
  @IsIn(MOVEMENT_STATUSES, { message: `status must be one of ${MOVEMENT_STATUSES.join(', ')}` })
  status?: MovementStatus;

  @ApiPropertyOptional({ description: 'created on or after: a day (YYYY-MM-DD, Buenos Aires) or an ISO 8601 time' })
  @IsOptional()
  @isTime('createdFrom')
  createdFrom?: string;

  @ApiPropertyOptional({ description: 'created on or before: a day (the whole day, Buenos Aires) or an ISO 8601 time' })
  @IsOptional()
  @isTime('createdTo')
  createdTo?: string;

  @ApiPropertyOptional({
    description: 'a scheduled transfer sent at or after: a day (YYYY-MM-DD, Buenos Aires) or an ISO 8601 time',
  })
  @IsOptional()
  @isTime('executeFrom')
  executeFrom?: string;

  @ApiPropertyOptional({
    description: 'a scheduled transfer sent on or before: a day (the whole day, Buenos Aires) or an ISO 8601 time',
  })
  @IsOptional()
  @isTime('executeTo')
  executeTo?: string;

  @ApiPropertyOptional({ description: 'amount at least this much, a decimal with a point (`1000` or `1000.50`)' })
  @IsOptional()
  @isAmount('amountMin')
  amountMin?: string;

  @ApiPropertyOptional({ description: 'amount at most this much' })
  @IsOptional()
  @isAmount('amountMax')
  amountMax?: string;

  @ApiPropertyOptional({ description: "the source account's CBU or CVU (22 digits)" })
  @IsOptional()
  @ValidateBy({
    name: 'cbu_cvu',
    validator: {
      validate: (value) => typeof value === 'string' && isValidCbuCvu(value),
      defaultMessage: (args) => `from ${explainAddress(args?.value)}`,
    },
  })
  from?: string;

  @ApiPropertyOptional({ description: "the destination's CBU or CVU (22 digits)" })
  @IsOptional()
  @ValidateBy({
    name: 'cbu_cvu',
    validator: {
      validate: (value) => typeof value === 'string' && isValidCbuCvu(value),
      defaultMessage: (args) => `to ${explainAddress(args?.value)}`,
    },
  })
  to?: string;

  @ApiPropertyOptional({ description: 'the CUIT or CUIL (11 digits) of either party' })
  @IsOptional()
  @ValidateBy({
    name: 'cuit',
    validator: {
      validate: (value) => typeof value === 'string' && isValidCuit(value),
      defaultMessage: (args) =>
        `cuit ${typeof args?.value === 'string' ? (explainCuit(args.value) ?? 'is not valid') : 'must be 11 digits'}`,
    },
  })
  cuit?: string;

  @ApiPropertyOptional({ type: Number, description: 'only this originId' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value))
  @ValidateBy({
    name: 'origin_id',
    validator: {
      validate: (value) => isValidOriginId(value),
      defaultMessage: () => 'originId must be a positive integer (a safe integer)',
    },
  })
  originId?: number;

  @ApiPropertyOptional({ description: 'only the movement(s) the network identified by this id (`details.networkId`)' })
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'networkId must be a non-empty string of at most 200 characters' })
  @MaxLength(200, { message: 'networkId must be a non-empty string of at most 200 characters' })
  networkId?: string;

  @ApiPropertyOptional({ description: 'text the description holds (case-insensitive; `%` and `_` are literal)' })
  @IsOptional()
  @IsString({ message: 'text must be a string' })
  @Length(1, 100, { message: 'text must be from 1 to 100 characters' })
  text?: string;

  @ApiPropertyOptional({
    enum: MOVEMENT_SORTS,
    description:
      '`originId` (the default), `createdAt` (oldest first), `-createdAt` (newest first) or `executeAt` (the moment a scheduled transfer is sent, earliest first; only transfers with one)',
  })
  @IsOptional()
  @IsIn(MOVEMENT_SORTS, { message: `sort must be one of ${MOVEMENT_SORTS.join(', ')}` })
  sort?: MovementSort;
}

function explainAddress(value: unknown): string {
  return typeof value === 'string' ? (explainCbuCvu(value) ?? 'is not a valid CBU or CVU') : 'must be 22 digits';
}

/** The store's search for a validated query (its days and times as instants, its amounts canonical). */
export function movementSearchOf(query: TransferSearchQuery): MovementSearch {
  const search: MovementSearch = {};
  if (query.status !== undefined) search.status = query.status;
  if (query.createdFrom !== undefined) search.createdFrom = timeSpan(query.createdFrom)?.start;
  if (query.createdTo !== undefined) search.createdBefore = timeSpan(query.createdTo)?.end;
  if (query.executeFrom !== undefined) search.executeFrom = timeSpan(query.executeFrom)?.start;
  if (query.executeTo !== undefined) search.executeBefore = timeSpan(query.executeTo)?.end;
  if (query.amountMin !== undefined) search.amountMin = canonicalAmount(query.amountMin);
  if (query.amountMax !== undefined) search.amountMax = canonicalAmount(query.amountMax);
  if (query.from !== undefined) search.fromAddress = query.from;
  if (query.to !== undefined) search.toAddress = query.to;
  if (query.cuit !== undefined) search.personId = query.cuit;
  if (query.originId !== undefined) search.originId = query.originId;
  if (query.networkId !== undefined) search.networkId = query.networkId;
  if (query.text !== undefined) search.text = query.text;
  return search;
}

function canonicalAmount(value: string): MovementSearch['amountMin'] {
  const result = parseAmount(value);
  if (!result.ok) throw new RangeError(`movementSearchOf: amount ${JSON.stringify(value)} was not validated`);
  return result.value;
}
