import { BOOTSTRAP_ADMIN_ACTOR } from './roles';

/**
 * The credentials that mint keys without being one: the bootstrap admin token and the command line on giro's host.
 * Whoever holds them can make any key, so they never approve, and a chain of minters ends at them.
 */
export const BOOTSTRAP_CREDENTIALS: readonly string[] = [BOOTSTRAP_ADMIN_ACTOR.keyId, 'cli'];

/**
 * Why two keys are taken for one person:
 * - `minted_approver`: the creator's key minted the approver's, or a key it minted did;
 * - `minted_by_approver`: the other way round;
 * - `common_minter`: one credential minted both (the bootstrap token too), or both descend from one key.
 */
export type SamePersonRelation = 'minted_approver' | 'minted_by_approver' | 'common_minter';

/**
 * Whether the creator and the approver of a transfer are to be taken for one person, each given as a lineage: the
 * key id first, then the key id that minted it, then that one's minter…, ending at a bootstrap credential or at a
 * minter giro does not know. Two different keys only: the same key is the creator's self-approval.
 *
 * What it cannot know: keys minted before giro recorded minters, and a key handed from one person to another.
 */
export function samePersonRelation(
  creator: readonly string[],
  approver: readonly string[],
): SamePersonRelation | undefined {
  const [creatorKey, creatorMinter] = creator;
  const [approverKey, approverMinter] = approver;
  if (creatorKey !== undefined && approver.slice(1).includes(creatorKey)) return 'minted_approver';
  if (approverKey !== undefined && creator.slice(1).includes(approverKey)) return 'minted_by_approver';
  if (creatorMinter !== undefined && creatorMinter === approverMinter) return 'common_minter';
  const creatorAncestors = new Set(creator.slice(1).filter((keyId) => !BOOTSTRAP_CREDENTIALS.includes(keyId)));
  if (approver.slice(1).some((keyId) => creatorAncestors.has(keyId))) return 'common_minter';
  return undefined;
}
