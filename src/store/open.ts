/**
 * The Store of a configuration: PostgreSQL when DATABASE_URL is set (any number of replicas), else the embedded store
 * in STATE_DIR (one process), into which an old STATE_FILE is converted on first start.
 */
import { convertStateFile } from './convert-state-file.js';
import { openEmbeddedStore, type EmbeddedStore } from './embedded/store.js';
import { openPostgresStore, type PostgresStore } from './pg-store.js';
import type { StoreLogger } from './store.js';

/** The part of the app's Config the store needs (the store imports nothing else of the app). */
export interface StoreConfig {
  stateDir: string;
  /** The legacy single-file state, converted into stateDir on first start. */
  stateFile?: string;
  databaseUrl?: string;
  /** While the store cannot make changes durable, it tries a write this often (ms); default 5000. */
  retryMs?: number;
}

export async function openStore(config: StoreConfig, logger?: StoreLogger): Promise<EmbeddedStore | PostgresStore> {
  const retry = config.retryMs !== undefined ? { retryMs: config.retryMs } : {};
  if (config.databaseUrl) {
    // PostgreSQL: records, leases and rate windows shared by every replica on this database.
    return openPostgresStore(config.databaseUrl, retry);
  }
  const store = await openEmbeddedStore(config.stateDir, { ...(logger ? { logger } : {}), ...retry });
  if (config.stateFile) {
    try {
      await convertStateFile(store, config.stateFile, logger ? { logger } : {});
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
  }
  return store;
}
