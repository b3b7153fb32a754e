/**
 * The embedded store's coordination: in-memory rate windows with the PostgreSQL semantics (slots held until a window
 * after release, at most holdMs; reserve; pause), on an injected clock the test moves, and the always-leader leadership.
 */
import { LocalLeadership, LocalRateWindows } from '../../src/store/local-coordination.js';
import type { RateWindow, SlotTicket } from '../../src/store/coordination.js';
import { seededRandom } from '../support/seeded-random.js';

const W: RateWindow = { bucket: 'outreach:test', limit: 3, windowMs: 1000 };
const HOLD = { holdMs: 1250 };

function clocked(): { windows: LocalRateWindows; at: (ms: number) => void } {
  let t = 1_000_000;
  return { windows: new LocalRateWindows({ now: () => t }), at: (ms) => (t = 1_000_000 + ms) };
}

async function take(windows: LocalRateWindows, w = W, reserve?: number): Promise<SlotTicket> {
  const r = await windows.tryAcquire(w, { ...HOLD, ...(reserve !== undefined ? { reserve } : {}) });
  if (!r.ok) throw new Error(`expected a slot, told to wait ${r.waitMs} ms`);
  return r.ticket;
}

describe('LocalRateWindows', () => {
  it('gives `limit` slots, then says how long until the earliest frees', async () => {
    const { windows, at } = clocked();
    const a = await take(windows);
    at(10);
    await take(windows);
    at(20);
    await take(windows);
    at(30);
    expect(await windows.tryAcquire(W, HOLD)).toEqual({ ok: false, waitMs: 1250 - 30 });
    // Answer of the first came back at 100: its slot frees a window later, not at its hold's end.
    at(100);
    await windows.release(a, W.windowMs);
    expect(await windows.tryAcquire(W, HOLD)).toEqual({ ok: false, waitMs: 1000 });
    at(1099);
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(false);
    at(1100);
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(true);
  });

  it('a holder that never releases frees after holdMs; a late release never lengthens the hold', async () => {
    const { windows, at } = clocked();
    const tickets = [await take(windows), await take(windows), await take(windows)];
    at(1249);
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(false);
    at(1250);
    const again = await take(windows);
    expect(again.slot).toBe(tickets[0]?.slot);
    expect(again.token).not.toBe(tickets[0]?.token);
    // The old holder's release comes now: the slot is someone else's, untouched.
    at(1260);
    await windows.release(tickets[0] as SlotTicket, W.windowMs);
    at(1300);
    await windows.release(tickets[1] as SlotTicket, W.windowMs); // its hold ended at 1250 already
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(true);
  });

  it('reserve leaves that many slots free for others, and waits for reserve + 1 to free', async () => {
    const { windows, at } = clocked();
    await take(windows, W, 2);
    at(10);
    expect(await windows.tryAcquire(W, { ...HOLD, reserve: 2 })).toEqual({ ok: false, waitMs: 1240 });
    // People's requests (no reserve) still find the two kept free.
    await take(windows);
    at(20);
    await take(windows);
    // All three must be free again: the last, taken at 20, frees at 1270.
    expect(await windows.tryAcquire(W, { ...HOLD, reserve: 2 })).toEqual({ ok: false, waitMs: 1250 });
  });

  it('pause holds every slot of the bucket until the given time; other buckets go on', async () => {
    const { windows, at } = clocked();
    await windows.pause(W.bucket, 1_000_000 + 500);
    expect(await windows.tryAcquire(W, HOLD)).toEqual({ ok: false, waitMs: 500 });
    expect((await windows.tryAcquire({ ...W, bucket: 'other' }, HOLD)).ok).toBe(true);
    await windows.pause(W.bucket, 1_000_000 + 100); // never shortens a pause
    at(499);
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(false);
    at(500);
    expect((await windows.tryAcquire(W, HOLD)).ok).toBe(true);
  });

  it('refuses a reserve that leaves no slot and a hold shorter than the window, naming the bucket', async () => {
    const { windows } = clocked();
    await expect(windows.tryAcquire(W, { holdMs: 1250, reserve: 3 })).rejects.toThrow(/outreach:test.*reserve/);
    await expect(windows.tryAcquire(W, { holdMs: 500 })).rejects.toThrow(/holdMs >= windowMs/);
  });

  it('never lets more than `limit` starts into any window, however six callers interleave', async () => {
    // Six callers on a clock only the test moves (a loaded machine cannot bunch them up or spread them out): each
    // asks, holds a slot it got for 0-5 ms and releases it, or after a refusal asks again within the wait it was told
    // (at most 5 ms). Each start is taken at the windows' clock when they granted it.
    let now = 0;
    const windows = new LocalRateWindows({ now: () => now });
    const w: RateWindow = { bucket: 'fast', limit: 5, windowMs: 50 };
    const random = seededRandom(23);
    const starts: number[] = [];
    // Each caller's next step: when, and what (ask, or release the slot it holds).
    const callers = Array.from({ length: 6 }, () => ({
      at: random() * 5,
      holding: undefined as SlotTicket | undefined,
    }));
    while (now < 400) {
      const c = callers.reduce((x, y) => (y.at < x.at ? y : x));
      now = c.at;
      if (c.holding) {
        await windows.release(c.holding, w.windowMs);
        c.holding = undefined;
        c.at = now + random() * 5;
        continue;
      }
      const r = await windows.tryAcquire(w, { holdMs: 60 });
      if (r.ok) {
        starts.push(now);
        c.holding = r.ticket;
        c.at = now + random() * 5;
      } else {
        c.at = now + Math.max(0.1, Math.min(r.waitMs, random() * 5));
      }
    }
    let most = 0;
    for (let i = 0; i < starts.length; i++) {
      let j = i;
      while (j < starts.length && (starts[j] as number) < (starts[i] as number) + w.windowMs) j++;
      most = Math.max(most, j - i);
    }
    // 400 ms at 5 per ~55 ms: the budget was used, not just respected.
    expect(starts.length).toBeGreaterThan(20);
    expect(most).toBe(5);
  });
});

describe('LocalLeadership', () => {
  it('leads from the start and tells listeners false when stopped', async () => {
    const l = new LocalLeadership();
    const seen: boolean[] = [];
    l.onChange((v) => seen.push(v));
    expect(l.isLeader()).toBe(true);
    await l.stop();
    await l.stop();
    expect(l.isLeader()).toBe(false);
    expect(seen).toEqual([false]);
  });
});
