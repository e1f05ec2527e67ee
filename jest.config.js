// Unit specs live beside the code (`*.spec.ts`); cross-package suites live in
// test/ (`*.e2e-spec.ts`). Both compile with swc, decorator metadata on.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@giro/transfer-module$': '<rootDir>/packages/transfer-module/src/index.ts',
    '^@giro/transfer-module/(.*)$': '<rootDir>/packages/transfer-module/src/$1',
    '^@giro/sandbox-bank$': '<rootDir>/apps/sandbox-bank/src/index.ts',
    '^@giro/sandbox-bank/(.*)$': '<rootDir>/apps/sandbox-bank/src/$1',
    '^@giro/admin$': '<rootDir>/packages/admin/src/index.ts',
    '^@giro/admin/(.*)$': '<rootDir>/packages/admin/src/$1',
    '^@giro/client$': '<rootDir>/packages/client/src/index.ts',
    '^@test-support/(.*)$': '<rootDir>/test/support/$1',
  },
  setupFiles: ['reflect-metadata'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30_000,
  // Jest's default on 2 cores is 1 worker, which runs in-band: one stuck suite then blocks the rest. Not three: the
  // packaging suite's npm installs run at low priority, and three busy workers starved them past its setup's bound.
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/support/slowest-first-sequencer.js',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/{packages,apps}/*/src/**/*.spec.ts',
        // The operator console's plain modules (its pages are tested in Chromium, test/console/).
        '<rootDir>/packages/admin/console/**/*.spec.ts',
        '<rootDir>/bench/src/**/*.spec.ts',
      ],
    },
    {
      // The example host app uses giro as an installed package (its exports, dist/): no mapping into src/.
      ...shared,
      displayName: 'example',
      moduleNameMapper: {},
      testMatch: ['<rootDir>/examples/*/src/**/*.spec.ts'],
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
