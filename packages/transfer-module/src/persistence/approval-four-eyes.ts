import type { EntityManager } from 'typeorm';
import { BOOTSTRAP_CREDENTIALS, samePersonRelation } from '../domain';
import type { EngineAdapter } from './engine/engine-adapter';
import { MovementHistoryEntity } from './entities';
import type { RecordedActor } from './movement-records';
import { ApprovalSamePersonError, BootstrapApprovalError, SelfApprovalError } from './persistence.errors';

/** Deeper than any chain of keys minting keys a company makes; a bound on a walk over rows anyone could edit. */
const MAX_LINEAGE = 32;

const MINTER = 'SELECT "created_by_key_id" FROM "giro_api_keys" WHERE "key_id" = ?';

/**
 * Refuses, in the approval's transaction, an approval that is not a second person's: by a bootstrap credential
 * (BootstrapApprovalError), by the key that created the transfer (SelfApprovalError), or by a key taken for the
 * creator's (ApprovalSamePersonError: one minted the other, or one credential minted both). A transfer created
 * without a named key (a host's own call) is checked for the bootstrap credentials only.
 */
export async function checkFourEyes(
  manager: EntityManager,
  engine: EngineAdapter,
  originId: number,
  approver: RecordedActor,
): Promise<void> {
  if (BOOTSTRAP_CREDENTIALS.includes(approver.keyId)) throw new BootstrapApprovalError(originId, approver.keyId);
  const creator = await creatorOf(manager, originId);
  if (creator === null) return;
  if (creator === approver.keyId) throw new SelfApprovalError(originId, approver.keyId);
  const relation = samePersonRelation(
    await lineageOf(manager, engine, creator),
    await lineageOf(manager, engine, approver.keyId),
  );
  if (relation !== undefined) throw new ApprovalSamePersonError(originId, creator, approver.keyId, relation);
}

/** The key that created a transfer (its intent's history row), or null when no one was named. */
async function creatorOf(manager: EntityManager, originId: number): Promise<string | null> {
  const intent = await manager
    .createQueryBuilder(MovementHistoryEntity, 'h')
    .where('h.originId = :originId', { originId })
    .andWhere("h.source = 'intent'")
    .getOne();
  return intent?.actorKeyId ?? null;
}

/** The key, its minter, its minter's minter…, up to a bootstrap credential, an unknown minter or a repeat. */
async function lineageOf(manager: EntityManager, engine: EngineAdapter, keyId: string): Promise<string[]> {
  const lineage = [keyId];
  let current = keyId;
  while (!BOOTSTRAP_CREDENTIALS.includes(current) && lineage.length < MAX_LINEAGE) {
    const [row] = await manager.query(engine.sql(MINTER), [current]);
    const minter = (row?.created_by_key_id ?? null) as string | null;
    if (minter === null || lineage.includes(minter)) break;
    lineage.push(minter);
    current = minter;
  }
  return lineage;
}
