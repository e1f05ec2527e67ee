import type { ServerResponse } from 'node:http';
import { Controller, Get, Header, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { MetricsTokenGuard } from './metrics-token.guard';
import { ReconcilerMetrics } from './reconciler-metrics';

/** `GET /metrics`: the Prometheus text format; behind METRICS_TOKEN when it is set. */
@ApiTags('operations')
@ApiBearerAuth()
@SkipThrottle()
@UseGuards(MetricsTokenGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ReconcilerMetrics) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiProduces('text/plain')
  @Header('Cache-Control', 'no-store')
  async scrape(@Res({ passthrough: true }) response: ServerResponse): Promise<string> {
    response.setHeader('Content-Type', this.metrics.contentType);
    return this.metrics.metrics();
  }
}
