/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
  // Longest suites first, from recorded durations on a clean clone (the file says why).
  testSequencer: '<rootDir>/test/harness/longest-first-sequencer.js',
  setupFiles: [
    '<rootDir>/test/harness/quiet-temporal-logs.ts',
    // A client retry firing after its connection closed fails no later file (the file says why).
    '<rootDir>/test/harness/closed-channel-retries.ts',
  ],
  // Each file's CPU in its worker, when `npm run profile:cpu` asks for it (the file says how).
  setupFilesAfterEnv: ['<rootDir>/test/harness/suite-cpu.ts'],
  // Jest runs every module in a vm context, where each read of a global such as Math goes through
  // Node's interceptor: 30 to 100 times slower than outside (nodejs/node#31658, jestjs/jest#5163).
  // These are passed to each module as parameters instead (measured on 2 cores: 5,000 synthetic
  // vectors 5.6 s to 0.5 s; the embedded memory store suite 27 to 11 s of CPU, demo-data 17.5 to
  // 13.9 s). Not Date or timers (fake timers replace them), nor a name some module declares
  // itself with let, const or class at its top level (Error, Buffer, URL, TextEncoder...): that
  // module would fail to load with "Identifier 'X' has already been declared".
  sandboxInjectedGlobals: [
    ...['Math', 'JSON', 'Object', 'Array', 'Number', 'String', 'Boolean', 'Symbol', 'BigInt', 'Reflect'],
    ...['Map', 'Set', 'WeakMap', 'Promise', 'RegExp', 'TypeError', 'RangeError'],
    ...['ArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array'],
    ...['Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array'],
    ...['parseInt', 'parseFloat', 'isNaN', 'isFinite', 'encodeURIComponent', 'decodeURIComponent'],
    'structuredClone',
  ],
  // Starting workers and bundling workflows on 2 cores takes a while, and a loaded CI machine runs
  // the same tests two to four times slower than an idle one (seen on 2026-11-30: a one-minute test
  // took four): the limit is there to end a hang, not to time a test.
  testTimeout: 300_000,
  // Four on 2 cores: many end-to-end suites spend their time waiting (a heartbeat timeout, a host
  // declared lost, an alarm's period), and other workers run suites meanwhile (measured on 2 cores:
  // 576 s with three, 516 s with four).
  maxWorkers: 4,
  // Each test file loads its modules into a fresh registry, and a worker keeps what earlier files
  // left reachable: its heap grows past a gigabyte and every collection walks it. A worker that
  // ends a file above this is replaced (measured on 2 cores, whole run: 1,030 to 909 s of CPU and
  // 631 to 554 s; 600MB restarts too often, 948 s of CPU).
  workerIdleMemoryLimit: '900MB',
  // The Temporal native bridge can keep a handle open after the last test.
  forceExit: true,
  // Transpile only, with SWC (the tsconfig's isolatedModules keeps that safe): `npm test` type-checks
  // the whole project once before jest starts. SWC transpiles in native code: on 2 cores the unit and
  // workflow tests took 10 s less CPU than with ts-jest's TypeScript on a cold cache, 6 s warm.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
};
