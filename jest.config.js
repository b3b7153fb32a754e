import { existsSync } from 'node:fs';
import process from 'node:process';

/**
 * The browser tests (test/browser/) drive a Chromium installed on the machine (Debian's `chromium`); playwright-core
 * never downloads one. Found here once per run and handed to the tests in PLAYGROUND_CHROMIUM; without one they are
 * left out with one line saying so, unless PLAYGROUND_BROWSER_REQUIRED=1 (.ci/run), where they run and fail.
 */
const chromium = [process.env.PLAYGROUND_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);
const browserRequired = process.env.PLAYGROUND_BROWSER_REQUIRED === '1';
if (chromium) process.env.PLAYGROUND_CHROMIUM = chromium;
else if (!browserRequired) {
  process.stderr.write('Browser tests skipped: no Chromium found (install one: apt-get install -y chromium).\n');
}
const suites = chromium || browserRequired ? 'unit,contract,integration,browser' : 'unit,contract,integration';

/** @type {import('jest').Config} */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // unit: one module, no app; contract: the fakes and the client against the specs; integration: the real app.
  // browser: the playground's page in a real Chromium (when there is one, above).
  testMatch: [`<rootDir>/test/{${suites}}/**/*.test.ts`],
  // A test fails when the app sent outside text to the fake Slack as a live mention or link.
  // One real PostgreSQL per run for the PostgreSQL store and the replica tests (test/support/postgres.ts).
  globalSetup: '<rootDir>/test/support/postgres-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/postgres-global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/fail-on-raw-mentions.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  testTimeout: 30000,
  // One worker per core (jest's default leaves one core idle: on these 2-core machines, half the speed).
  maxWorkers: '100%',
};
