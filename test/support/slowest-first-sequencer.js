// The order jest hands suites to its two workers. It starts the suites that took longest last time first, but on a
// fresh clone (CI) it knows no durations and starts the biggest files first. The slowest suites are small files
// (their work is in helpers), so they started last and ran side by side at the end, two suites that each want more
// than a core on a machine of two. Started first, longest first, the rest fills the other worker around them.
const { relative } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

/** Seconds each of the slowest suites took in CI (2 cores, Node 20, 2026-11-24). */
const SLOW_SUITES = {
  'test/chaos/chaos-postgres.e2e-spec.ts': 200,
  'test/packaging/outside-apps.e2e-spec.ts': 170,
  'test/chaos/chaos-sqlite.e2e-spec.ts': 130,
  'test/model/transfer-model.e2e-spec.ts': 57,
  'test/webhook-sigkill.e2e-spec.ts': 33,
  'test/security/admin-server.e2e-spec.ts': 28,
  'test/transfer-faults.e2e-spec.ts': 27,
  'test/fuzz/bank-answers.e2e-spec.ts': 24,
};

class SlowestFirstSequencer extends TestSequencer {
  async sort(tests) {
    const seconds = (test) => SLOW_SUITES[relative(test.context.config.rootDir, test.path)] ?? 0;
    // A stable sort: the other suites keep jest's own order (last durations, or file sizes).
    return [...(await super.sort(tests))].sort((a, b) => seconds(b) - seconds(a));
  }
}

module.exports = SlowestFirstSequencer;
