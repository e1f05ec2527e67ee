import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { TransferSearchQuery } from '../transfers/transfer-search.dto';

export const EXPORT_DIALECTS = ['excel-es'] as const;

/** `GET /admin/transfers/export.csv`: the search's filters, and the CSV's dialect. */
export class TransferExportQuery extends TransferSearchQuery {
  @ApiPropertyOptional({
    enum: EXPORT_DIALECTS,
    description:
      'excel-es: for Excel in Spanish (`;`, a byte-order mark, a Spanish header, decimal comma); absent: for programs (`,`, a decimal point)',
  })
  @IsOptional()
  @IsIn(EXPORT_DIALECTS, { message: `dialect must be one of ${EXPORT_DIALECTS.join(', ')}` })
  dialect?: (typeof EXPORT_DIALECTS)[number];
}
