// Jest projects split the suite the way Credo splits unit and e2e runs: unit tests sit beside their code;
// integration, e2e and k8s tests live under test/ and cross a process or need a real service.
const { swcOptions } = require('./scripts/swc-options.cjs')

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions()],
    '^.+\\.(mjs|cjs|js)$': '<rootDir>/test/jest/esm-transform.cjs',
  },
  transformIgnorePatterns: [],
  moduleNameMapper: {
    '^@idplane/common$': '<rootDir>/common/index.ts',
    '^@idplane/common/(.*)$': '<rootDir>/common/$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/data/'],
  setupFiles: ['reflect-metadata', '<rootDir>/test/jest/fast-check-seed.cjs'],
}

// IDPLANE_EMBEDDED_SUITES (paths, space-separated; .ci/run sets it) adds the project `embedded`: those suites run a second
// time in the same jest run with DATABASE_URL, AMQP_URL and SMTP_URL removed from their environment, so on PGlite, the
// in-process queue and mail files (test/jest/embedded-defaults.cjs). One run instead of a second jest start after the
// first finished: the second pass's start-up and its idle tail were about a minute of CI's 30.
const embeddedSuites = (process.env.IDPLANE_EMBEDDED_SUITES ?? '').split(/\s+/).filter(Boolean)
const embeddedProject = {
  ...shared,
  displayName: 'embedded',
  testMatch: embeddedSuites.map((suite) => `<rootDir>/${suite}`),
  setupFiles: [...shared.setupFiles, '<rootDir>/test/jest/embedded-defaults.cjs'],
}

module.exports = {
  // testTimeout is a global option (ignored inside projects); e2e and k8s files raise it where they need more.
  testTimeout: 60000,
  // Three worker processes on a 2-core machine (jest would run everything in one process there): most test time is
  // spent waiting on agent processes, API restarts and timers; with two workers the cores were about a quarter idle over
  // a whole run (1,727 s user + 502 s system in 1,533 s). JEST_WORKERS overrides it. A worker whose heap grew past the
  // limit after a file is replaced, so the in-process PGlite databases of earlier files do not accumulate in one heap.
  maxWorkers: Number(process.env.JEST_WORKERS) || 3,
  workerIdleMemoryLimit: '1GB',
  // Suites that need chromium, helm or kube-apiserver last while .ci/run installs those in the background.
  testSequencer: '<rootDir>/test/jest/sequencer.cjs',
  // On PostgreSQL, each file's fresh database is a copy of one migrated template (test/jest/database-template.cjs).
  globalSetup: '<rootDir>/test/jest/global-setup.cjs',
  globalTeardown: '<rootDir>/test/jest/global-teardown.cjs',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{common,api,agent,operator,console}/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.(int|e2e|k8s)\\.test\\.ts$', '/node_modules/'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int.test.ts'],
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'] },
    { ...shared, displayName: 'k8s', testMatch: ['<rootDir>/test/k8s/**/*.k8s.test.ts'] },
    ...(embeddedSuites.length > 0 ? [embeddedProject] : []),
  ],
}
