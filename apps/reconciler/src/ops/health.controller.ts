import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { BankProbe } from './bank-probe';

export const BANK_PROBE = Symbol('BANK_PROBE');

/** `GET /health`: 200 when the database answers and the bank can be reached, 503 (with the reason) otherwise. */
@ApiTags('operations')
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(BANK_PROBE) private readonly probeBank: BankProbe,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Database and bank reachability' })
  check() {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: 3000 }),
      () => this.bankReachability(),
    ]);
  }

  private async bankReachability() {
    const bank = this.indicators.check('bank');
    try {
      await this.probeBank();
      return bank.up();
    } catch (error) {
      return bank.down({ message: (error as Error).message });
    }
  }
}
