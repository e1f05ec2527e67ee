import { ApprovalPolicy, DEFAULT_APPROVAL_EXPIRY_MS } from './approval-policy';
import type { DecimalAmount } from './money';

const amount = (text: string) => text as DecimalAmount;

describe('ApprovalPolicy', () => {
  it('makes a transfer wait only when its amount is more than the threshold', () => {
    const policy = ApprovalPolicy.from({ requiredAbove: '1000' });
    expect(policy.requiredAbove).toBe('1000.00');
    expect(policy.requiresApproval(amount('1000.00'))).toBe(false);
    expect(policy.requiresApproval(amount('1000.01'))).toBe(true);
    expect(policy.requiresApproval(amount('0.01'))).toBe(false);
  });

  it('makes every transfer wait with a threshold of 0', () => {
    const policy = ApprovalPolicy.from({ requiredAbove: 0 });
    expect(policy.requiresApproval(amount('0.01'))).toBe(true);
  });

  it('expires after 24 hours unless told otherwise', () => {
    expect(ApprovalPolicy.from({ requiredAbove: '5' }).expiresAt(1_000)).toBe(1_000 + DEFAULT_APPROVAL_EXPIRY_MS);
    expect(ApprovalPolicy.from({ requiredAbove: '5', expiresAfterMs: 120_000 }).expiresAt(1_000)).toBe(121_000);
  });

  it.each([
    [{ requiredAbove: '-1' }, /^requiredAbove must be an amount ≥ 0/],
    [{ requiredAbove: '10.001' }, /^requiredAbove must be/],
    [{ requiredAbove: 'mil' }, /^requiredAbove must be/],
    [{}, /^requiredAbove must be/],
    [{ requiredAbove: '1', expiresAfterMs: 1_000 }, /^expiresAfterMs must be a whole number of ms from 60000/],
    [{ requiredAbove: '1', expiresAfterMs: 1.5e12 }, /^expiresAfterMs must be/],
    [{ requiredAbove: '1', expiresIn: 5 }, /^expiresIn is not an approvals key/],
    ['1000', /^approvals must be an object/],
  ])('refuses %j naming the field and the rule', (options, message) => {
    expect(() => ApprovalPolicy.from(options)).toThrow(message);
  });
});
