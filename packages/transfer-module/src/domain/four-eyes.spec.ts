import { samePersonRelation } from './four-eyes';

describe('samePersonRelation', () => {
  it('takes a key minted by the creator, directly or through keys it minted, for the creator', () => {
    expect(samePersonRelation(['admin-token'], ['sock', 'admin-token'])).toBe('minted_approver');
    expect(samePersonRelation(['cli'], ['sock', 'cli'])).toBe('minted_approver');
    expect(samePersonRelation(['boss'], ['sock', 'helper', 'boss', 'cli'])).toBe('minted_approver');
  });

  it('takes the minter of the creator for the creator', () => {
    expect(samePersonRelation(['ops', 'boss', 'cli'], ['boss', 'cli'])).toBe('minted_by_approver');
  });

  it('takes two keys one credential minted, the bootstrap token included, for one person', () => {
    expect(samePersonRelation(['ops', 'boss', 'cli'], ['sock', 'boss', 'cli'])).toBe('common_minter');
    expect(samePersonRelation(['ops', 'admin-token'], ['sock', 'admin-token'])).toBe('common_minter');
    expect(samePersonRelation(['ops', 'a', 'boss', 'cli'], ['sock', 'b', 'boss', 'cli'])).toBe('common_minter');
  });

  it('lets two lineages that meet only at a bootstrap credential through: two people, each with their own key', () => {
    expect(samePersonRelation(['alice-ops', 'alice', 'cli'], ['bob-approver', 'bob', 'cli'])).toBeUndefined();
    expect(samePersonRelation(['alice-ops', 'alice', 'admin-token'], ['bob-approver', 'bob', 'cli'])).toBeUndefined();
    expect(samePersonRelation(['alice', 'cli'], ['bob-approver', 'bob', 'cli'])).toBeUndefined();
    // The bootstrap token as the creator: only the keys it minted itself are its own.
    expect(samePersonRelation(['admin-token'], ['bob-approver', 'bob', 'admin-token'])).toBeUndefined();
  });

  it('knows nothing of keys whose minter is unknown: they differ, and that is all', () => {
    expect(samePersonRelation(['old-ops'], ['old-approver'])).toBeUndefined();
    expect(samePersonRelation(['host-maker'], ['k_checker'])).toBeUndefined();
  });
});
