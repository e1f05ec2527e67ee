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
 * A bootstrap credential counts as the minter of the keys it minted itself, not of the keys those minted: every
 * lineage ends at one, so further up it would take everyone for one person. Two people are two lineages that meet
 * only there.
 *
 * What it cannot know: keys minted before giro recorded minters, and a key handed from one person to another.
 */
export function samePersonRelation(
  creator: readonly string[],
  approver: readonly string[],
): SamePersonRelation | undefined {
  const [creatorKey] = creator;
  const [approverKey] = approver;
  const creatorMinters = mintersOf(creator);
  const approverMinters = mintersOf(approver);
  if (creatorKey !== undefined && approverMinters.includes(creatorKey)) return 'minted_approver';
  if (approverKey !== undefined && creatorMinters.includes(approverKey)) return 'minted_by_approver';
  if (creatorMinters.some((keyId) => approverMinters.includes(keyId))) return 'common_minter';
  return undefined;
}

/** The minters up a lineage that make two keys one person's: all of them but a bootstrap credential further up. */
function mintersOf(lineage: readonly string[]): string[] {
  return lineage.slice(1).filter((keyId, index) => index === 0 || !BOOTSTRAP_CREDENTIALS.includes(keyId));
}
