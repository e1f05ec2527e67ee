// The benchmark's own specs (`npx jest -c bench/jest.config.js`), compiled like the unit project's.
const { projects } = require('../jest.config.js');

const unit = projects.find((project) => project.displayName === 'unit');

module.exports = {
  ...unit,
  displayName: 'bench',
  testMatch: ['<rootDir>/bench/src/**/*.spec.ts'],
};
