/**
 * Entry point of `npm start`: read the environment once, start, stop cleanly on SIGTERM/SIGINT. With no Slack
 * token and no service credentials (or `--playground`, `npm run playground`) it starts the playground instead: a
 * local Slack in the browser running the real app (src/playground/).
 */
import { ConfigError, configSecrets, describeConfig, loadConfig, loadPlaygroundSettings, startMode } from './config.js';
import { createLogger } from './log.js';
import { startApp } from './main.js';
import { startPlayground } from './playground/start.js';
import { StoreCorruptError } from './store/embedded/durable-file.js';
import { StoreLockedError } from './store/embedded/lock.js';

function refuse(err: unknown): never {
  if (err instanceof ConfigError || err instanceof StoreCorruptError || err instanceof StoreLockedError) {
    console.error(`outreach-slack cannot start: ${err.message}`);
    process.exit(1);
  }
  throw err;
}

async function main(): Promise<void> {
  let mode;
  try {
    mode = startMode(process.env, { playground: process.argv.includes('--playground') });
  } catch (err) {
    refuse(err);
  }
  if (mode === 'playground') return playground();
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`outreach-slack cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel, {
    secrets: configSecrets(config),
    ...(config.logFormat ? { format: config.logFormat } : {}),
  });
  logger.info({ config: describeConfig(config) }, 'starting');
  let app;
  try {
    app = await startApp(config, { logger });
  } catch (err) {
    if (err instanceof StoreCorruptError || err instanceof StoreLockedError || err instanceof ConfigError) {
      console.error(`outreach-slack cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    app
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err: String(err) }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** The playground: one line saying where to open it; warnings and refusals only after that (LOG_LEVEL: warn). */
async function playground(): Promise<void> {
  let running;
  try {
    running = await startPlayground({ settings: loadPlaygroundSettings({ LOG_LEVEL: 'warn', ...process.env }) });
  } catch (err) {
    refuse(err);
  }
  console.log(`Playground: open ${running.url}`);
  const stop = () => {
    running
      .close()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(`outreach-slack stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
