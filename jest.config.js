/** @type {import('jest').Config} */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // unit: one module, no app; contract: the fakes and the client against the specs; integration: the real app.
  testMatch: ['<rootDir>/test/{unit,contract,integration}/**/*.test.ts'],
  // A test fails when the app sent outside text to the fake Slack as a live mention or link.
  // One real PostgreSQL per run for the PostgreSQL store and the replica tests (test/support/postgres.ts).
  globalSetup: '<rootDir>/test/support/postgresGlobalSetup.ts',
  globalTeardown: '<rootDir>/test/support/postgresGlobalTeardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/failOnRawMentions.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  testTimeout: 30000,
  // One worker per core (jest's default leaves one core idle: on these 2-core machines, half the speed).
  maxWorkers: '100%',
};
