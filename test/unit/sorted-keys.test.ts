/**
 * SortedKeys (src/store/memory-store.ts), the key order behind every store's prefix listing and index: a small set is
 * an array, a big one a B+ tree; both must list exactly what a plain sorted array would, in code-point order.
 */
import { byKey, SortedKeys } from '../../src/store/memory-store.js';
import { seededRandom } from '../support/seeded-random.js';

describe('SortedKeys', () => {
  it.each([100, 5_000])('lists what a sorted array holds, by prefix, through adds and deletes (%i keys)', (n) => {
    const rand = seededRandom(n);
    const keys = new SortedKeys();
    const reference = new Set<string>();
    // Keys of the stores' shape (`<head>/<rest>`), some outside the BMP, which UTF-16 order would misplace.
    const keyOf = () => `${Math.floor(rand() * 40)}/${rand() < 0.05 ? '😀' : ''}call_${Math.floor(rand() * n * 2)}`;
    for (let i = 0; i < n * 3; i++) {
      const key = keyOf();
      if (rand() < 0.7) {
        keys.add(key);
        reference.add(key);
      } else {
        keys.delete(key);
        reference.delete(key);
      }
    }
    const sorted = [...reference].sort(byKey);
    expect(keys.size).toBe(sorted.length);
    expect(keys.withPrefix()).toEqual(sorted);
    for (const prefix of ['1/', '39/', '7/call_1', '5/😀', 'x', '']) {
      expect(keys.withPrefix(prefix)).toEqual(sorted.filter((k) => k.startsWith(prefix)));
      expect([...keys.iterate(prefix)]).toEqual(sorted.filter((k) => k.startsWith(prefix)));
    }
  });

  it('takes a key once, and forgets a deleted one, on either side of the switch to a tree', () => {
    const keys = new SortedKeys();
    for (let i = 0; i < 2_000; i++) keys.add(`k${String(i).padStart(5, '0')}`);
    keys.add('k00010');
    expect(keys.size).toBe(2_000);
    keys.delete('k00010');
    keys.delete('absent');
    expect(keys.size).toBe(1_999);
    expect(keys.withPrefix('k0001')).toHaveLength(9);
  });
});
