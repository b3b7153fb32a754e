/**
 * The store contract (test/support/store-contract.ts) against the PostgreSQL store on the test run's server: a fresh
 * database per test; a second instance is a second pool on the same database (another replica), and a crash is a
 * store abandoned without close while another opens the same database.
 */
import { openPostgresStore, type PostgresStore } from '../../src/store/pg-store.js';
import { freshDatabase } from '../support/postgres.js';
import { describeStoreContract } from '../support/store-contract.js';

describeStoreContract('postgres', () => {
  const opened: PostgresStore[] = [];
  const open = async (url: string) => {
    const s = await openPostgresStore(url, { poolSize: 4 });
    opened.push(s);
    return s;
  };
  const urls = new Map<PostgresStore, string>();
  return {
    open: async () => {
      const url = await freshDatabase('contract');
      const s = await open(url);
      urls.set(s, url);
      return s;
    },
    openSecond: async (first) => {
      const url = urls.get(first as PostgresStore)!;
      const s = await open(url);
      urls.set(s, url);
      return s;
    },
    crashAndReopen: async (store) => {
      // The abandoned store does nothing more; its connections are closed at cleanup, as a dead process's would be.
      const url = urls.get(store as PostgresStore)!;
      const s = await open(url);
      urls.set(s, url);
      return s;
    },
    cleanup: async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
      urls.clear();
    },
  };
});
