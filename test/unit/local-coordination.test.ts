/**
 * The embedded store's coordination: in-memory rate windows with the PostgreSQL semantics (slots held until a window
 * after release, at most holdMs; reserve; pause), on an injected clock, and the always-leader leadership.
 */
import { LocalLeadership, LocalRateWindows } from '../../src/store/local-coordination.js';
import type { RateWindow, SlotTicket } from '../../src/store/coordination.js';

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

  it('never lets more than `limit` starts into any window on the real clock', async () => {
    // Each start is taken at the windows' own reading of the clock when they granted it: the test's own reading after
    // the await would come late on a loaded machine and bunch starts up that were granted a window apart.
    let read = 0;
    const windows = new LocalRateWindows({ now: () => (read = performance.timeOrigin + performance.now()) });
    const w: RateWindow = { bucket: 'fast', limit: 5, windowMs: 50 };
    const starts: number[] = [];
    const worker = async (): Promise<void> => {
      const until = performance.now() + 400;
      while (performance.now() < until) {
        const asked = windows.tryAcquire(w, { holdMs: 60 });
        const at = read; // the windows decide synchronously, on this reading
        const r = await asked;
        if (!r.ok) {
          await new Promise((res) => setTimeout(res, Math.min(r.waitMs, 5)));
          continue;
        }
        starts.push(at);
        await new Promise((res) => setTimeout(res, Math.random() * 5));
        await windows.release(r.ticket, w.windowMs);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker(), worker(), worker()]);
    starts.sort((a, b) => a - b);
    let most = 0;
    for (let i = 0; i < starts.length; i++) {
      let j = i;
      while (j < starts.length && (starts[j] as number) < (starts[i] as number) + w.windowMs) j++;
      most = Math.max(most, j - i);
    }
    expect(starts.length).toBeGreaterThan(20);
    expect(most).toBeLessThanOrEqual(5);
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
