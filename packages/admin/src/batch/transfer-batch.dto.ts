import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** `POST /admin/transfers/batch?dryRun=true|false` */
export class TransferBatchQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'true: check every row and say what would happen, changing nothing',
  })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'dryRun must be true or false' })
  dryRun?: boolean;
}
