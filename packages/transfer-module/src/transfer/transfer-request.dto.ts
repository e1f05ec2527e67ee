import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import {
  CONCEPT_CODES,
  type ConceptCode,
  type CurrencyId,
  explainCbuCvu,
  explainCuit,
  explainOriginId,
  isConceptCode,
  MAX_WIRE_AMOUNT,
  PESO_CURRENCY_ID,
  parseAmount,
} from '../domain';
import { DomainRule, literal, object, onText, required, text, whenPresent } from './domain-rule.decorator';

// The SPEC §2.1 transfer request as class-validator DTOs, for a ValidationPipe
// (`new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })`). Constraint names and messages are the
// domain's. Rules that depend on the module's options (the maximum amount, the description's length and
// characters) are checked by the TransferService, which runs validateTransferIntent as well.

export class TransferOwnerDto {
  @DomainRule('required', required)
  @DomainRule('type', text)
  @DomainRule('person_id_type', literal('CUI'))
  personIdType!: 'CUI';

  @DomainRule('required', required)
  @DomainRule('type', text)
  @DomainRule('cuit', onText(explainCuit))
  personId!: string;
}

export class TransferPartyDto {
  @DomainRule('required', required)
  @DomainRule('type', text)
  @DomainRule('address_type', literal('CBU_CVU'))
  addressType!: 'CBU_CVU';

  @DomainRule('required', required)
  @DomainRule('type', text)
  @DomainRule('cbu_cvu', onText(explainCbuCvu))
  address!: string;

  @DomainRule('required', required)
  @DomainRule('type', object)
  @ValidateNested()
  @Type(() => TransferOwnerDto)
  owner!: TransferOwnerDto;
}

export class TransferBodyDto {
  @DomainRule('required', required)
  @DomainRule('type', text)
  @DomainRule('currency', literal(PESO_CURRENCY_ID))
  currencyId!: CurrencyId;

  /** A JSON number or a decimal string ("1234.50"); at most 2 decimals; > 0. */
  @DomainRule('required', required)
  @DomainRule(
    'amount',
    whenPresent((value) => {
      const parsed = parseAmount(value, { max: MAX_WIRE_AMOUNT });
      return parsed.ok ? undefined : parsed.reason;
    }),
  )
  amount!: number | string;

  @DomainRule('required', required)
  @DomainRule('type', text)
  description!: string;

  /** Default VAR. */
  @DomainRule(
    'concept',
    whenPresent((value) =>
      isConceptCode(value) ? undefined : `must be one of ${CONCEPT_CODES.join(', ')}, got ${JSON.stringify(value)}`,
    ),
  )
  concept?: ConceptCode;
}

export class TransferRequestDto {
  /** Optional: allocated by giro when absent. A positive safe integer, unique forever. */
  @DomainRule('origin_id', whenPresent(explainOriginId))
  originId?: number;

  @DomainRule('required', required)
  @DomainRule('type', object)
  @ValidateNested()
  @Type(() => TransferPartyDto)
  from!: TransferPartyDto;

  @DomainRule('required', required)
  @DomainRule('type', object)
  @ValidateNested()
  @Type(() => TransferPartyDto)
  to!: TransferPartyDto;

  @DomainRule('required', required)
  @DomainRule('type', object)
  @ValidateNested()
  @Type(() => TransferBodyDto)
  body!: TransferBodyDto;
}
