import { BOOTSTRAP_CREDENTIALS } from '@giro/transfer-module';
import { CLI_ACTOR } from './cli-actor';

describe('CLI_ACTOR', () => {
  it('is a bootstrap credential to the approval rule: it mints keys, never approves', () => {
    expect(BOOTSTRAP_CREDENTIALS).toContain(CLI_ACTOR.keyId);
  });
});
