/**
 * One replica of the app in its own process, for test/support/replicas.ts: what src/index.ts does (config from the
 * environment, startApp, a clean stop on SIGTERM), plus the start options tests pass to startApp in process
 * (watch and upload tuning, known bot ids) read as JSON from REPLICA_START_OPTIONS. Run as
 * `node --import tsx test/support/replica-process.ts`. Logs go to stdout (the harness writes them to a file).
 */
import { loadConfig } from '../../src/config.js';
import { startApp, type StartOptions } from '../../src/main.js';

const START_OPTIONS_ENV = 'REPLICA_START_OPTIONS';

const opts = JSON.parse(process.env[START_OPTIONS_ENV] ?? '{}') as StartOptions;
const app = await startApp(loadConfig(process.env), opts);

const stop = (signal: string) => {
  process.stdout.write(`${JSON.stringify({ msg: 'replica stopping', signal })}\n`);
  app.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`replica stop failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
