/**
 * A Map and a Set with a cap on their entries, for what a long-running process remembers per call, thread, person or
 * channel. Each such entry is let go explicitly when what it is about ends (the poller lets a post go, a worker's
 * queue empties); the cap is the second bound, for whatever ends another way (a record expired by the store, a
 * channel no longer watched). Past the cap, the entry written longest ago goes: a write moves its key to the end,
 * so what is still in use stays. `evicted` counts what the cap let go (a count that keeps rising means the cap is
 * doing the letting go: a path that forgets to, or a cap too small for the load).
 *
 * They are a Map and a Set in every other way, so a field can become bounded without its users changing.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  evicted = 0;

  constructor(
    readonly max: number,
    /** Told of each entry the cap lets go (a timer to clear, say). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    while (this.size > this.max) {
      const [oldKey, oldValue] = this.entries().next().value as [K, V];
      super.delete(oldKey);
      this.evicted++;
      this.onEvict?.(oldKey, oldValue);
    }
    return this;
  }
}

export class BoundedSet<T> extends Set<T> {
  evicted = 0;

  constructor(readonly max: number) {
    super();
  }

  override add(value: T): this {
    super.delete(value);
    super.add(value);
    while (this.size > this.max) {
      super.delete(this.values().next().value as T);
      this.evicted++;
    }
    return this;
  }
}

/** The size of each long-lived map of a part of the app, by name (`delivery.conversations`: 1234). */
export type MemoryFigures = Record<string, number>;
