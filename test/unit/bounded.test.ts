import { describe, expect, it } from '@jest/globals';
import { BoundedMap, BoundedSet } from '../../src/bounded.js';

describe('bounded maps and sets', () => {
  it('hold at most their cap under many distinct keys, letting go of the one written longest ago', () => {
    const evicted: Array<[number, string]> = [];
    const m = new BoundedMap<number, string>(100, (k, v) => evicted.push([k, v]));
    for (let i = 0; i < 10_000; i++) m.set(i, `v${i}`);
    expect(m.size).toBe(100);
    expect([...m.keys()]).toEqual(Array.from({ length: 100 }, (_, i) => 9_900 + i));
    expect(m.evicted).toBe(9_900);
    expect(evicted[0]).toEqual([0, 'v0']);

    // A write moves its key to the end: what is still in use stays.
    m.set(9_900, 'again');
    m.set(20_000, 'new');
    expect(m.has(9_900)).toBe(true);
    expect(m.has(9_901)).toBe(false);

    const s = new BoundedSet<string>(3);
    for (const x of ['a', 'b', 'c', 'a', 'd']) s.add(x);
    expect([...s]).toEqual(['c', 'a', 'd']);
    expect(s.evicted).toBe(1);
  });

  it('are a Map and a Set otherwise (delete, clear, iteration)', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('x', 1).set('y', 2);
    expect(m.delete('x')).toBe(true);
    m.set('z', 3);
    expect(Object.fromEntries(m)).toEqual({ y: 2, z: 3 });
    m.clear();
    expect(m.size).toBe(0);
    expect(m).toBeInstanceOf(Map);
    expect(new BoundedSet(1)).toBeInstanceOf(Set);
  });
});
