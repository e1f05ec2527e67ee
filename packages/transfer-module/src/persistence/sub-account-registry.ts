import { SubAccountEntity } from './entities';
import { SubAccountConflictError, SubAccountNotFoundError } from './persistence.errors';
import type { StoreContext } from './store-context';

/** A registered client sub-account (PSP mode), as the store returns it. */
export interface SubAccountRecord {
  address: string;
  ownerPersonId: string;
  ownerName: string | null;
  createdAt: Date;
  /** When it was disabled; null while it may be sent from. */
  disabledAt: Date | null;
}

export interface SubAccountRegistration {
  address: string;
  ownerPersonId: string;
  ownerName: string | null;
}

/**
 * MovementStore's client sub-accounts (PSP mode): registered, listed, disabled; read when a transfer is sent
 * from one. The callers check the values (a CVU, a CUIT): the registry keeps them.
 */
export class SubAccountRegistry {
  constructor(private readonly context: StoreContext) {}

  /**
   * Registers the sub-account, or enables it again (its name updated) when it is registered to the same holder.
   * SubAccountConflictError when it is registered to another.
   */
  async register(registration: SubAccountRegistration): Promise<SubAccountRecord> {
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const existing = await manager.findOneBy(SubAccountEntity, { address: registration.address });
      if (existing && existing.ownerPersonId !== registration.ownerPersonId) {
        throw new SubAccountConflictError(registration.address);
      }
      const row: SubAccountEntity = {
        address: registration.address,
        ownerPersonId: registration.ownerPersonId,
        ownerName: registration.ownerName,
        createdAtMs: existing?.createdAtMs ?? now,
        disabledAtMs: null,
      };
      // Query builders, not `save`, which opens a transaction of its own inside giro's.
      const unchanged = existing?.disabledAtMs === null && existing.ownerName === row.ownerName;
      if (existing) {
        await manager
          .createQueryBuilder()
          .update(SubAccountEntity)
          .set({ ownerName: row.ownerName, disabledAtMs: null })
          .where('"address" = :address', { address: row.address })
          .execute();
      } else await manager.createQueryBuilder().insert().into(SubAccountEntity).values(row).execute();
      const record = toSubAccountRecord(row);
      if (!unchanged) {
        await this.context.audit?.recordChange(manager, {
          target: record.address,
          before: existing ? toSubAccountRecord(existing) : null,
          after: record,
        });
      }
      return record;
    });
  }

  /** Every registered sub-account, by address. */
  async list(): Promise<SubAccountRecord[]> {
    return this.context.transactions.read(async (manager) =>
      (await manager.find(SubAccountEntity, { order: { address: 'ASC' } })).map(toSubAccountRecord),
    );
  }

  /** The sub-account with this address, disabled or not; null when none is registered. */
  async find(address: string): Promise<SubAccountRecord | null> {
    // A PSP's every create reads it: one statement, without a transaction around it.
    return this.context.transactions.readStatement(async (manager) => {
      const row = await manager.findOneBy(SubAccountEntity, { address });
      return row === null ? null : toSubAccountRecord(row);
    });
  }

  /** No transfer may be sent from it any more. Idempotent: the first time stays. SubAccountNotFoundError. */
  async disable(address: string): Promise<SubAccountRecord> {
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const row = await manager.findOneBy(SubAccountEntity, { address });
      if (row === null) throw new SubAccountNotFoundError(address);
      if (row.disabledAtMs === null) {
        row.disabledAtMs = now;
        await manager
          .createQueryBuilder()
          .update(SubAccountEntity)
          .set({ disabledAtMs: now })
          .where('"address" = :address', { address })
          .execute();
        await this.context.audit?.recordChange(manager, {
          target: address,
          before: { disabledAt: null },
          after: { disabledAt: new Date(now) },
        });
      }
      return toSubAccountRecord(row);
    });
  }
}

function toSubAccountRecord(row: SubAccountEntity): SubAccountRecord {
  return {
    address: row.address,
    ownerPersonId: row.ownerPersonId,
    ownerName: row.ownerName,
    createdAt: new Date(row.createdAtMs),
    disabledAt: row.disabledAtMs === null ? null : new Date(row.disabledAtMs),
  };
}
