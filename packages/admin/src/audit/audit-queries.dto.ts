import { explainOriginId, isValidOriginId } from '@giro/transfer-module';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsOptional, IsString, Length, ValidateBy } from 'class-validator';
import { PageQuery } from '../shared/http/admin-queries.dto';

export const AUDIT_OUTCOMES = ['ok', 'refused'] as const;

/** `GET /admin/audit?actor=&action=&originId=&outcome=&from=&to=&limit=&after=`: every filter together. */
export class ListAuditQuery extends PageQuery {
  @ApiPropertyOptional({
    description: "only this actor's rows: an API key's id or name (`admin-token` for ADMIN_TOKEN)",
  })
  @IsOptional()
  @IsString({ message: 'actor must be a key id or name of 1 to 64 characters' })
  @Length(1, 64, { message: 'actor must be a key id or name of 1 to 64 characters' })
  actor?: string;

  @ApiPropertyOptional({
    description: 'only this action (`transfer.create`, `key.revoke`…)',
    example: 'cancellation.ack',
  })
  @IsOptional()
  @IsString({ message: 'action must be a string of 1 to 64 characters' })
  @Length(1, 64, { message: 'action must be a string of 1 to 64 characters' })
  action?: string;

  @ApiPropertyOptional({ type: Number, description: "only this transfer's rows" })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @ValidateBy({
    name: 'origin_id',
    validator: {
      validate: (value: unknown) => isValidOriginId(value),
      defaultMessage: (args) =>
        typeof args?.value === 'number'
          ? `originId ${explainOriginId(args.value)}`
          : 'originId must be a positive integer (a safe integer)',
    },
  })
  originId?: number;

  @ApiPropertyOptional({ enum: AUDIT_OUTCOMES, description: 'ok: done; refused: refused or failed' })
  @IsOptional()
  @IsIn(AUDIT_OUTCOMES, { message: `outcome must be one of ${AUDIT_OUTCOMES.join(', ')}` })
  outcome?: (typeof AUDIT_OUTCOMES)[number];

  @ApiPropertyOptional({ format: 'date-time', description: 'rows at or after this time (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time, e.g. 2026-11-21T12:00:00Z' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'rows before this time (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time, e.g. 2026-11-22T00:00:00Z' })
  to?: string;
}
