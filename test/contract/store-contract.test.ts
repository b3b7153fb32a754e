/** The store contract (test/support/store-contract.ts) for every implementation. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/embedded/store.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/store.js';
import { describeStoreContract } from '../support/store-contract.js';

describeStoreContract('memory', () => {
  const opened: Store[] = [];
  return {
    open: async () => {
      const s = createMemoryStore();
      opened.push(s);
      return s;
    },
    cleanup: async () => {
      for (const s of opened.splice(0)) await s.close();
    },
  };
});

describeStoreContract('embedded', () => {
  const dirs: string[] = [];
  const opened: EmbeddedStore[] = [];
  const open = async (dir: string) => {
    const s = await openEmbeddedStore(dir);
    opened.push(s);
    return s;
  };
  return {
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'store-contract-'));
      dirs.push(dir);
      return open(dir);
    },
    crashAndReopen: async (store) => {
      const s = store as EmbeddedStore;
      await s.crash();
      return open(s.dir);
    },
    cleanup: async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
      for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
    },
  };
});
