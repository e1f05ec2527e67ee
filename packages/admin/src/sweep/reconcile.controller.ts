import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import type { AdminSweepRunner } from '../transfer-admin.options';
import { ADMIN_SWEEP } from './admin-sweep';

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
