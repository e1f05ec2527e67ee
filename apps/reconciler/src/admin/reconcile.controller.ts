import { Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type ReconcilerSweepRunner, SWEEP_RUNNER } from '../sweep/sweep.providers';
import { AdminTokenGuard } from './admin-token.guard';

@ApiTags('reconcile')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'missing or wrong bearer token' })
@UseGuards(AdminTokenGuard)
@Controller('admin/reconcile')
export class ReconcileController {
  constructor(@Inject(SWEEP_RUNNER) private readonly runner: ReconcilerSweepRunner) {}

  /** Runs after the sweep in progress, if any: sweeps never overlap. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run one sweep now and return its counts' })
  sweep() {
    return this.runner.runOnce();
  }
}
