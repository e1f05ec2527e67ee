import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { EXPORT_DIALECTS } from '../export/transfer-export.dto';

/** `GET /admin/reports/daily?date=&account=`: the day (required; its format checked by the service) and one account. */
export class DailyCloseQuery {
  @ApiPropertyOptional({
    description: 'the Buenos Aires day, `YYYY-MM-DD` (required)',
    example: '2026-11-27',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  })
  @IsOptional()
  @IsString()
  date?: string;

  @ApiPropertyOptional({ description: 'one source account (CBU/CVU); absent: every source account' })
  @IsOptional()
  @IsString()
  account?: string;
}

/** `GET /admin/reports/daily.csv`: the close's query, and the CSV's dialect. */
export class DailyCloseCsvQuery extends DailyCloseQuery {
  @ApiPropertyOptional({
    enum: EXPORT_DIALECTS,
    description:
      'excel-es: for Excel in Spanish (`;`, a byte-order mark, a Spanish header, decimal comma); absent: for programs (`,`, a decimal point)',
  })
  @IsOptional()
  @IsIn(EXPORT_DIALECTS, { message: `dialect must be one of ${EXPORT_DIALECTS.join(', ')}` })
  dialect?: (typeof EXPORT_DIALECTS)[number];
}
