import { GiroError, type SweepReport } from '@giro/transfer-module';
import {
  DEFAULT_STATEMENT_COLUMNS,
  parseStatementColumns,
  type StatementColumnNames,
} from './statements/statement-columns';

/** How `POST /admin/reconcile` runs one sweep; it answers with the report. */
export type AdminSweepRunner = () => Promise<SweepReport>;

export interface TransferAdminModuleOptions {
  /**
   * The bearer token every admin route requires (`Authorization: Bearer <adminToken>`), at least 16
   * characters. Compared in constant time; never logged or echoed.
   */
  adminToken: string;
  /**
   * How `POST /admin/reconcile` runs a sweep. Default: the transfer module's `SweepService.sweep()`. An
   * application that sweeps on a schedule passes its own runner, so that the admin's sweeps queue behind
   * the scheduled ones (the reconciler does). A runner that refuses to start one throws
   * `SweepUnavailableError`: the route answers 503.
   */
  runSweep?: AdminSweepRunner;
  /**
   * The headers a bank statement names its columns by, as `field:Header` pairs (`date:Fecha,amount:Importe,
   * reference:Referencia`); the fields not named keep their default header (`date`, `amount`, `reference`,
   * `description`).
   */
  statementColumns?: string;
}

/** A TransferAdminModule option is missing or invalid; the message names it (never its value). */
export class TransferAdminModuleOptionsError extends GiroError {
  override readonly name = 'TransferAdminModuleOptionsError';

  constructor(message: string) {
    super('INVALID_OPTIONS', `TransferAdminModule option ${message}`);
  }
}

/** The shortest admin token accepted: a guessable token would make the bearer check pointless. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

const OPTION_KEYS: readonly string[] = [
  'adminToken',
  'runSweep',
  'statementColumns',
] satisfies (keyof TransferAdminModuleOptions)[];

/** The options checked at start-up: a mistake stops the application with a message that names the option. */
export function checkTransferAdminOptions(options: TransferAdminModuleOptions): TransferAdminModuleOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TransferAdminModuleOptionsError('object is required: { adminToken, runSweep? }');
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new TransferAdminModuleOptionsError(`${key} is not an option (known: ${OPTION_KEYS.join(', ')})`);
    }
  }
  const { adminToken, runSweep } = options;
  if (typeof adminToken !== 'string' || adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new TransferAdminModuleOptionsError(
      `adminToken must be a string of at least ${MIN_ADMIN_TOKEN_LENGTH} characters`,
    );
  }
  if (runSweep !== undefined && typeof runSweep !== 'function') {
    throw new TransferAdminModuleOptionsError('runSweep must be a function returning a sweep report');
  }
  statementColumnsOf(options);
  return options;
}

/** The statement columns the options name (the defaults without `statementColumns`). */
export function statementColumnsOf(options: TransferAdminModuleOptions): StatementColumnNames {
  if (options.statementColumns === undefined) return DEFAULT_STATEMENT_COLUMNS;
  if (typeof options.statementColumns !== 'string') {
    throw new TransferAdminModuleOptionsError('statementColumns must be a string of field:Header pairs');
  }
  try {
    return parseStatementColumns(options.statementColumns);
  } catch (error) {
    throw new TransferAdminModuleOptionsError(`statementColumns: ${(error as Error).message}`);
  }
}
