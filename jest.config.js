/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
  // Longest suites first, from recorded durations on a clean clone (the file says why).
  testSequencer: '<rootDir>/test/harness/longest-first-sequencer.js',
  setupFiles: ['<rootDir>/test/harness/quiet-temporal-logs.ts'],
  // Starting workers and bundling workflows on 2 cores takes a while.
  testTimeout: 120_000,
  // Four on 2 cores: many end-to-end suites spend their time waiting (a heartbeat timeout, a host
  // declared lost, an alarm's period), and other workers run suites meanwhile (measured on 2 cores:
  // 576 s with three, 516 s with four).
  maxWorkers: 4,
  // The Temporal native bridge can keep a handle open after the last test.
  forceExit: true,
  // Transpile only (isolatedModules in tsconfig.json): `npm test` type-checks the whole project once
  // before jest starts, instead of ts-jest type-checking each suite's imports again (minutes of CPU).
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};
