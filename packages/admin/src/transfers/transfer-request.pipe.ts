import { type TransferInput, TransferService } from '@giro/transfer-module';
import { Injectable, type PipeTransform } from '@nestjs/common';

/**
 * The body of `POST /admin/transfers` as the transfer to request: TransferService.validateRequest, the domain's
 * rules with the module's `transferRules` — the one validation of the body (requestTransfer does not repeat it).
 * A refused body is a TransferValidationError, which the admin routes answer 400 (TransferErrorsFilter).
 *
 * No class-validator DTO: the domain's rules already cover every field (check digits, amounts, unknown fields,
 * the configured limits), and a DTO would be a second copy of them to keep in step; the request's OpenAPI
 * schema is derived from the same description the domain validates with (transferRequestOpenApiSchema).
 */
@Injectable()
export class TransferRequestPipe implements PipeTransform<unknown, TransferInput> {
  constructor(private readonly transfers: TransferService) {}

  transform(body: unknown): TransferInput {
    return this.transfers.validateRequest(body);
  }
}
