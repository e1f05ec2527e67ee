import { CreateTransferSchema1795291200000 } from './1795291200000-create-transfer-schema';

export { CreateTransferSchema1795291200000 } from './1795291200000-create-transfer-schema';

/** Add these to a host's own TypeORM data source (with TRANSFER_ENTITIES); run them with runTransferMigrations. */
export const TRANSFER_MIGRATIONS = [CreateTransferSchema1795291200000];
