/**
 * A Store that keeps everything in memory: for tests and the sandbox, where nothing needs to survive a restart.
 * It behaves like the lowdb store in what callers can observe: records are stored as JSON (detached from the caller's
 * object, read back as a restart would), key order is the same, and changes after `close()` are refused.
 */
import { StoreClosedError } from './lowdb-store.js';
import type { Collection, Store } from './store.js';

type Records = Record<string, unknown>;

export function createMemoryStore(): Store {
  const collections = new Map<string, Records>();
  const views = new Map<string, Collection<unknown>>();
  let closed = false;

  const records = (name: string): Records => {
    let r = collections.get(name);
    if (!r) {
      r = Object.create(null) as Records;
      collections.set(name, r);
    }
    return r;
  };

  const makeCollection = (name: string): Collection<unknown> => ({
    get: (key) => records(name)[key],
    has: (key) => key in records(name),
    entries: () => Object.entries(records(name)),
    values: () => Object.values(records(name)),
    size: () => Object.keys(records(name)).length,
    set: async (key, value) => {
      if (closed) throw new StoreClosedError(`the change to ${name}/${key}`);
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`Cannot store ${String(value)} as ${name}/${key}: not a JSON value.`);
      records(name)[key] = JSON.parse(text) as unknown;
    },
    delete: async (key) => {
      if (closed) throw new StoreClosedError(`the deletion of ${name}/${key}`);
      delete records(name)[key];
    },
  });

  return {
    collection<T>(name: string): Collection<T> {
      let view = views.get(name);
      if (!view) {
        view = makeCollection(name);
        views.set(name, view);
      }
      return view as Collection<T>;
    },
    flush: async () => {},
    close: async () => {
      closed = true;
    },
  };
}
