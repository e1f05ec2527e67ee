import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../shared/http/admin-queries.dto';

/** `GET /admin/payees?q=&limit=&after=`: a keyset page of the payee book, searched by `q`. */
export class SearchPayeesQuery extends PageQuery {
  @ApiPropertyOptional({
    description:
      "an account's first digits or a CUIT (asked for or reported by the bank), listed by account; or the start of a holder's name or a label (case and accents ignored), listed by the name or label matched, then the account. Without it, every payee by account",
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'q must be at most 100 characters' })
  q?: string;
}
