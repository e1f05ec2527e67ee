// The order jest hands suites to its workers. It starts the suites that took longest last time first, but on a
// fresh clone (CI) it knows no durations and starts the biggest files first. The slowest suites are small files
// (their work is in helpers), so they started last and ran side by side at the end, suites that each want more
// than a core on a machine of two. Started first, longest first, the rest fills the other workers around them.
const { relative } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

/**
 * The slowest suites in CI, longest first. The packaging suite leads: the longest of all, and its packing and
 * installs run at a low priority, so it takes the CPU the other workers leave while they wait.
 */
const SLOWEST_FIRST = [
  'test/packaging/outside-apps.e2e-spec.ts',
  'test/chaos/chaos-postgres.e2e-spec.ts',
  'test/chaos/chaos-sqlite.e2e-spec.ts',
  'test/model/transfer-model.e2e-spec.ts',
  'test/webhook-sigkill.e2e-spec.ts',
  'test/security/admin-server.e2e-spec.ts',
  'test/transfer-faults.e2e-spec.ts',
  'test/fuzz/bank-answers.e2e-spec.ts',
];

class SlowestFirstSequencer extends TestSequencer {
  async sort(tests) {
    const rank = (test) => {
      const index = SLOWEST_FIRST.indexOf(relative(test.context.config.rootDir, test.path));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    // A stable sort: the other suites keep jest's own order (last durations, or file sizes).
    return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirstSequencer;
