import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Payout } from './payout.entity';
import { PayoutEventsListener } from './payout-events.listener';
import { PayoutsService } from './payouts.service';

@Module({
  imports: [TypeOrmModule.forFeature([Payout])],
  providers: [PayoutsService, PayoutEventsListener],
  exports: [PayoutsService],
})
export class PayoutsModule {}
