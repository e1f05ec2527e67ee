import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import type { Repository } from 'typeorm';
import { type BenchHmac, signedHeaders, TRANSFER_REQUEST_PATH } from '../../bank/raw-signing';
import { NaiveTransfer } from './naive-transfer.entity';

export const NAIVE_TRANSFERS = Symbol('NaiveTransfers');
export const NAIVE_CREDENTIALS = Symbol('NaiveCredentials');

export interface NaiveCredentials {
  token: string;
  hmacSecret: string;
  hmac: BenchHmac;
}

/**
 * How a transfer service is commonly first written in Nest: the repository's `save` before the call and
 * again with the answer, and the HttpService of @nestjs/axios for the call. Correct for a happy path; no
 * leases, no polling rules, no ambiguity handling.
 */
@Injectable()
export class NaiveTransferService {
  constructor(
    @Inject(NAIVE_TRANSFERS) private readonly transfers: Repository<NaiveTransfer>,
    @Inject(HttpService) private readonly http: HttpService,
    @Inject(NAIVE_CREDENTIALS) private readonly credentials: NaiveCredentials,
  ) {}

  async send(request: { originId: number }): Promise<NaiveTransfer> {
    const body = JSON.stringify(request);
    const transfer = await this.transfers.save(
      this.transfers.create({ originId: request.originId, request: body, status: 'PENDING', answer: null }),
    );
    const headers = signedHeaders({ path: TRANSFER_REQUEST_PATH, body, ...this.credentials });
    const { data } = await firstValueFrom(this.http.post<{ status: string }>(TRANSFER_REQUEST_PATH, body, { headers }));
    transfer.status = data.status;
    transfer.answer = JSON.stringify(data);
    return this.transfers.save(transfer);
  }
}
