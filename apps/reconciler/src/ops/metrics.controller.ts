import type { ServerResponse } from 'node:http';
import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { ReconcilerMetrics } from './reconciler-metrics';

/** `GET /metrics`: the Prometheus text format. */
@ApiTags('operations')
@SkipThrottle()
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
