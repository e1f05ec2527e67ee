import { approvalsFromEnvironment } from './approvals-environment';
import { readEnvironment } from './environment';

function read(env: Record<string, string>) {
  const read = readEnvironment(env);
  if (!read.ok) return { approvals: undefined, problems: read.problems };
  const problems: string[] = [];
  return { approvals: approvalsFromEnvironment(read.environment, problems), problems };
}

describe('approvals from the environment', () => {
  it('are off without APPROVAL_REQUIRED_ABOVE', () => {
    expect(read({})).toEqual({ approvals: undefined, problems: [] });
  });

  it('read the threshold, and the expiry as a duration', () => {
    expect(read({ APPROVAL_REQUIRED_ABOVE: '1000' })).toEqual({ approvals: { requiredAbove: '1000' }, problems: [] });
    expect(read({ APPROVAL_REQUIRED_ABOVE: '0', APPROVAL_EXPIRES_AFTER: '2h' }).approvals).toEqual({
      requiredAbove: '0',
      expiresAfterMs: 7_200_000,
    });
  });

  it.each([
    [{ APPROVAL_REQUIRED_ABOVE: '-5' }, /^APPROVAL_REQUIRED_ABOVE must be an amount ≥ 0/],
    [{ APPROVAL_REQUIRED_ABOVE: '1.234' }, /^APPROVAL_REQUIRED_ABOVE must be an amount/],
    [
      { APPROVAL_REQUIRED_ABOVE: '10', APPROVAL_EXPIRES_AFTER: 'tomorrow' },
      /^APPROVAL_EXPIRES_AFTER must be a duration/,
    ],
    [
      { APPROVAL_REQUIRED_ABOVE: '10', APPROVAL_EXPIRES_AFTER: '10s' },
      /^APPROVAL_EXPIRES_AFTER must be a whole number of ms from 60000/,
    ],
    [{ APPROVAL_EXPIRES_AFTER: '1h' }, /^APPROVAL_EXPIRES_AFTER is set but APPROVAL_REQUIRED_ABOVE is not/],
  ])('refuse %j, naming the variable and the rule', (vars, message) => {
    const { approvals, problems } = read(vars);
    expect(approvals).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(message)]);
  });
});
