import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresRole } from './admin-role.decorator';
import { AdminRoutes } from './admin-routes.decorator';
import { ADMIN_SWEEP } from './admin-sweep';
import { Audited } from './audited.decorator';
import type { AdminSweepRunner } from './transfer-admin.options';

@AdminRoutes('reconcile')
@Controller('admin/reconcile')
export class ReconcileController {
  constructor(@Inject(ADMIN_SWEEP) private readonly runSweep: AdminSweepRunner) {}

  /** Runs through the module's `runSweep` option (the reconciler's queues behind the sweep in progress). */
  @RequiresRole('operator')
  @Audited('sweep.run')
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run one sweep now and return its counts' })
  sweep() {
    return this.runSweep();
  }
}
