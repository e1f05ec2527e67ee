import { SweepService } from '@giro/transfer-module';
import type { Provider } from '@nestjs/common';
import {
  type AdminSweepRunner,
  checkTransferAdminOptions,
  type TransferAdminModuleOptions,
  TransferAdminModuleOptionsError,
} from '../transfer-admin.options';
import { TRANSFER_ADMIN_MODULE_OPTIONS } from '../transfer-admin-module.definition';

/** Injection token of the function `POST /admin/reconcile` calls. */
export const ADMIN_SWEEP = Symbol('giro:AdminSweep');

/** The host's `runSweep`, or else the transfer module's SweepService (which must then be injectable here). */
export const adminSweepProvider: Provider = {
  provide: ADMIN_SWEEP,
  useFactory: (options: TransferAdminModuleOptions, sweeps: SweepService | undefined): AdminSweepRunner => {
    const { runSweep } = checkTransferAdminOptions(options);
    if (runSweep !== undefined) return runSweep;
    if (sweeps === undefined) {
      throw new TransferAdminModuleOptionsError(
        'runSweep is required when SweepService cannot be injected: import TransferModule with `isGlobal: true` ' +
          "(or pass the module that exports it in forRootAsync's `imports`), or give runSweep",
      );
    }
    return () => sweeps.sweep();
  },
  inject: [TRANSFER_ADMIN_MODULE_OPTIONS, { token: SweepService, optional: true }],
};
