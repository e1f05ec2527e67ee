import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** `POST /admin/statements?account=`: the source account (CBU/CVU) the statement is of. */
export class ImportStatementQuery {
  @ApiProperty({
    description: 'the source account (CBU/CVU, 22 digits) the statement is of',
    example: '0000003100010000000001',
  })
  @IsString()
  @Matches(/^[0-9]{22}$/, { message: 'account must be a CBU or CVU of 22 digits' })
  account!: string;
}

/** `GET /admin/statements/:id` */
export class StatementIdParams {
  @ApiProperty({ description: "the import's id", format: 'uuid' })
  @IsString()
  @Matches(/^[0-9a-f-]{36}$/, { message: 'id must be an import id' })
  id!: string;
}
