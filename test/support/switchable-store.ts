/**
 * A Store that can be made unable to persist, for tests of what the app does while nothing is durable (a full disk,
 * a database gone). It wraps a real store: while `broken`, every write fails with StoreUnavailableError and
 * `status()` says not durable; after `heal()` writes work again, but the status stays not durable until someone
 * `probe()`s, as with the real stores.
 */
import {
  StoreUnavailableError,
  type Collection,
  type CollectionSpec,
  type Store,
  type StoreStatus,
} from '../../src/store/store.js';

export class SwitchableStore implements Store {
  private broken = false;
  private status_: StoreStatus = { durable: true };
  private readonly listeners = new Set<(s: StoreStatus) => void>();
  /** Writes refused while broken. */
  refused = 0;
  /** Per collection, how many of its next writes fail as if the process had died before making them. */
  private readonly dying = new Map<string, number>();

  constructor(private readonly inner: Store) {}

  get kind() {
    return this.inner.kind;
  }

  /** Writes fail from now on (and the status says so, as after a failed write). */
  breakNow(problem = 'the disk is full (test)'): void {
    this.broken = true;
    this.setStatus({ durable: false, problem, since: Date.now() });
  }

  /**
   * The next `n` writes to one collection fail with a plain error, the store staying durable: what a process that
   * dies just before those writes leaves behind (everything it wrote to other collections before is kept).
   */
  dieBeforeWritesTo(collection: string, n = 1): void {
    this.dying.set(collection, n);
  }

  /** Writes work again; the status changes at the next probe. */
  heal(): void {
    this.broken = false;
  }

  private setStatus(s: StoreStatus): void {
    const changed = s.durable !== this.status_.durable;
    this.status_ = s;
    if (changed) for (const l of this.listeners) l({ ...s });
  }

  private check(what: string, collection: string): void {
    const dying = this.dying.get(collection) ?? 0;
    if (dying > 0) {
      this.dying.set(collection, dying - 1);
      throw new Error(`the process died before ${what} (test)`);
    }
    if (!this.broken) return;
    this.refused++;
    throw new StoreUnavailableError(`${what} could not be saved: ${this.status_.problem ?? 'not durable'}`);
  }

  collection<T>(spec: CollectionSpec | string): Collection<T> {
    const c = this.inner.collection<T>(spec);
    const guard =
      <A extends unknown[], R>(what: string, fn: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        this.check(`${what} in ${c.name}`, c.name);
        return fn(...a);
      };
    return {
      name: c.name,
      get: (k) => c.get(k),
      getVersioned: (k) => c.getVersioned(k),
      list: (o) => c.list(o),
      count: (o) => c.count(o),
      put: guard('a change', (k: string, v: T, o) => c.put(k, v, o)),
      insertIfAbsent: guard('an insertion', (k: string, v: T, o) => c.insertIfAbsent(k, v, o)),
      compareAndSet: guard('a change', (k: string, ver: number, v: T, o) => c.compareAndSet(k, ver, v, o)),
      delete: guard('a deletion', (k: string) => c.delete(k)),
      deletePrefix: guard('a deletion', (p: string) => c.deletePrefix(p)),
    };
  }

  sweep(now?: number): Promise<number> {
    return this.inner.sweep(now);
  }

  status(): StoreStatus {
    return { ...this.status_ };
  }

  async probe(): Promise<StoreStatus> {
    if (!this.broken) this.setStatus({ durable: true });
    return this.status();
  }

  onStatus(listener: (s: StoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
