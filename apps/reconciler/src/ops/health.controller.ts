import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import { type CertificateExpiries, judgeCertificates } from '../certificates/certificate-expiry';
import type { BankProbe } from './bank-probe';
import { CachedCheck } from './cached-check';

export const BANK_PROBE = Symbol('BANK_PROBE');
export const CERTIFICATE_CHECK = Symbol('CERTIFICATE_CHECK');

/** The certificates in use, and how long before one expires readiness warns (CERT_EXPIRY_WARNING_DAYS). */
export interface CertificateCheck {
  expiries: () => CertificateExpiries;
  warningDays: number;
}

/**
 * How long a readiness answer is reused: probes and load balancers call every few seconds, and each check is a
 * database ping and a mutual-TLS handshake with the bank. Nobody can make the reconciler shake hands with the
 * bank more than once per period.
 */
export const READINESS_CACHE_MS = 5_000;

/**
 * `GET /health/live`: 200 while the process serves requests (nothing else is checked: a restart would not fix a
 * bank that is down). `GET /health/ready`: 200 when the database answers and the bank can be reached, 503 naming
 * what is down; the answer is at most READINESS_CACHE_MS old. `GET /health` is `/health/ready`, as it always was.
 */
@ApiTags('operations')
@SkipThrottle()
@Controller('health')
export class HealthController {
  private readonly readiness: CachedCheck<HealthCheckResult>;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(BANK_PROBE) private readonly probeBank: BankProbe,
    @Inject(CERTIFICATE_CHECK) private readonly certificateCheck: CertificateCheck,
  ) {
    this.readiness = new CachedCheck(
      () =>
        this.health.check([
          () => this.database.pingCheck('database', { timeout: 3000 }),
          () => this.bankReachability(),
          () => this.certificates(),
        ]),
      READINESS_CACHE_MS,
    );
  }

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'The same as /health/ready' })
  check() {
    return this.readiness.get();
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({
    summary: `Database and bank reachability, bank certificates not expired (an answer at most ${READINESS_CACHE_MS / 1000} s old)`,
  })
  ready() {
    return this.readiness.get();
  }

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'The process is up and serving' })
  live() {
    return this.health.check([]);
  }

  private certificates() {
    const indicator = this.indicators.check('certificates');
    const expiries = this.certificateCheck.expiries();
    const verdict = judgeCertificates(expiries, new Date(), this.certificateCheck.warningDays);
    const details = {
      client: expiries.client.toISOString(),
      ...(expiries.ca && { ca: expiries.ca.toISOString() }),
    };
    if (verdict.state === 'expired') return indicator.down({ ...details, message: verdict.problems.join('; ') });
    return indicator.up({ ...details, ...(verdict.state === 'expiring' && { warning: verdict.problems.join('; ') }) });
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
