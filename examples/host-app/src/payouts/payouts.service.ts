import { isFinalStatus, type MovementStatus, TransferService } from '@giro/transfer-module';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { HOST_CONFIG, type HostConfig } from '../host-config';
import { Payout, type PayoutStatus } from './payout.entity';

export interface PayoutRequest {
  recipientCbu: string;
  recipientCuit: string;
  /** A decimal string, e.g. "1500.00". */
  amount: string;
  /** Shown to the recipient (≤ 100 characters). */
  reference: string;
}

@Injectable()
export class PayoutsService {
  constructor(
    @InjectRepository(Payout) private readonly payouts: Repository<Payout>,
    private readonly transfers: TransferService,
    @Inject(HOST_CONFIG) private readonly config: HostConfig,
  ) {}

  /**
   * Records the payout with an originId reserved from giro, then asks giro to send it. If this process dies
   * in between, `send(payout)` again repeats the very same request: giro answers with the movement it
   * already has (or records it now), and the bank is never asked to pay twice.
   */
  async payOut(request: PayoutRequest): Promise<Payout> {
    const originId = await this.transfers.allocateOriginId();
    const payout = this.payouts.create({ ...request, originId, status: 'requested' });
    await this.payouts.insert(payout);
    return this.send(payout);
  }

  async send(payout: Payout): Promise<Payout> {
    const { payer } = this.config;
    const { movement } = await this.transfers.requestTransfer({
      originId: payout.originId,
      from: { addressType: 'CBU_CVU', address: payer.cbu, owner: { personIdType: 'CUI', personId: payer.cuit } },
      to: {
        addressType: 'CBU_CVU',
        address: payout.recipientCbu,
        owner: { personIdType: 'CUI', personId: payout.recipientCuit },
      },
      body: { currencyId: '032', amount: payout.amount, description: payout.reference, concept: 'VAR' },
    });
    return this.markFrom(payout.originId, movement.status);
  }

  /** Brings the payout in line with the movement's status (giro's events call this too). */
  async markFrom(originId: number, status: MovementStatus): Promise<Payout> {
    const next: PayoutStatus = !isFinalStatus(status) ? 'in_flight' : status === 'COMPLETED' ? 'paid' : 'cancelled';
    await this.payouts.update({ originId }, { status: next });
    return this.payouts.findOneByOrFail({ originId });
  }

  byOriginId(originId: number): Promise<Payout> {
    return this.payouts.findOneByOrFail({ originId });
  }
}
