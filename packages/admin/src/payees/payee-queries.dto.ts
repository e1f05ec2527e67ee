import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../shared/http/admin-queries.dto';

/** `GET /admin/payees?q=&limit=&after=`: a keyset page of the payee book, searched by `q`. */
export class SearchPayeesQuery extends PageQuery {
  @ApiPropertyOptional({
    description:
      "an account's first digits, a CUIT (asked for or reported by the bank), or the start of a holder's name or a label (case and accents ignored)",
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'q must be at most 100 characters' })
  q?: string;
}
