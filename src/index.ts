/** Entry point of `npm start`: read the environment once, start, stop cleanly on SIGTERM/SIGINT. */
import { ConfigError, configSecrets, describeConfig, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { startApp } from './main.js';
import { StoreCorruptError, StoreLockedError } from './store/embedded-store.js';

async function main(): Promise<void> {
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

main().catch((err: unknown) => {
  console.error(`outreach-slack stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
