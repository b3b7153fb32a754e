/**
 * Who gets the next free slot of the shared rate limiter (limiter.ts holds the slots; this decides the order).
 *
 * - Lanes by priority: people's requests (`interactive`) before the poller's, the poller's before uploads' (`bulk`).
 * - Floors: a lane with requests waiting can count on a few slots whatever the lanes above it want (by default 3 of
 *   12 for the poller and 1 of 12 for uploads), so a flood of commands delays the poller and uploads but never stops
 *   them: the lanes above take a free slot only while enough stay free, or held by those lanes, to cover the floors
 *   of the lanes below that wait. With everyone waiting that is 8 for people, 3 for the poller, 1 for uploads; with
 *   no poller or upload waiting, people get all 12.
 * - Within people's lane, persons take turns (round robin, first come first served within one person), and one
 *   person holds at most `perPersonSlots` (default half) at once, so someone else's command finds a slot at once
 *   even while one person's burst is being served. Requests made for no one in particular (work shared by
 *   everyone) take their turn like one more person, without that cap.
 */
import type { Priority } from './api.js';

/** Lanes in the order they are served. */
const LANES: readonly Priority[] = ['interactive', 'poller', 'bulk'];

export interface FairShareOptions {
  /** Slots in all (the limiter's requests per window). */
  slots: number;
  /** Slots each lane can count on while it has requests waiting. Default: poller slots/4, bulk slots/12 (3 and 1). */
  floors?: Partial<Record<Priority, number>>;
  /** Most slots one person's requests hold at once. Default: half the slots, rounded up. */
  perPersonSlots?: number;
}

export interface FairShareEntry {
  readonly priority: Priority;
  /** The person the request is made for (Slack user id); undefined: no one in particular. */
  readonly person?: string | undefined;
}

/** Requests of one lane, by person, served in turns. */
class Lane<E extends FairShareEntry> {
  private readonly byPerson = new Map<string, E[]>();
  /** Persons with requests waiting, in the order of their next turn. */
  private readonly turns: string[] = [];
  size = 0;

  push(key: string, e: E): void {
    const q = this.byPerson.get(key);
    if (q) q.push(e);
    else {
      this.byPerson.set(key, [e]);
      this.turns.push(key);
    }
    this.size++;
  }

  /**
   * Takes the first request of the first person in turn that `may` take a slot; that person goes to the back. With
   * `peek`, only says which request that would be.
   */
  take(may: (key: string) => boolean, peek = false): E | undefined {
    for (let i = 0; i < this.turns.length; i++) {
      const key = this.turns[i] as string;
      if (!may(key)) continue;
      const q = this.byPerson.get(key) as E[];
      if (peek) return q[0];
      const e = q.shift() as E;
      this.turns.splice(i, 1);
      if (q.length > 0) this.turns.push(key);
      else this.byPerson.delete(key);
      this.size--;
      return e;
    }
    return undefined;
  }

  remove(key: string, e: E): boolean {
    const q = this.byPerson.get(key);
    const i = q ? q.indexOf(e) : -1;
    if (!q || i < 0) return false;
    q.splice(i, 1);
    if (q.length === 0) {
      this.byPerson.delete(key);
      this.turns.splice(this.turns.indexOf(key), 1);
    }
    this.size--;
    return true;
  }

  drain(): E[] {
    const all = this.turns.flatMap((k) => this.byPerson.get(k) ?? []);
    this.byPerson.clear();
    this.turns.length = 0;
    this.size = 0;
    return all;
  }
}

/** The key of no one in particular: a turn like a person's, without the per-person cap. */
const NO_ONE = '';

export class FairShareQueue<E extends FairShareEntry> {
  readonly slots: number;
  readonly floors: Readonly<Record<Priority, number>>;
  readonly perPersonSlots: number;
  private readonly lanes = new Map<Priority, Lane<E>>(LANES.map((p) => [p, new Lane<E>()]));
  private readonly heldByLane = new Map<Priority, number>(LANES.map((p) => [p, 0]));
  private readonly heldByPerson = new Map<string, number>();
  private heldCount = 0;

  constructor(opts: FairShareOptions) {
    this.slots = opts.slots;
    this.floors = {
      interactive: opts.floors?.interactive ?? 0,
      poller: opts.floors?.poller ?? Math.floor(opts.slots / 4),
      bulk: opts.floors?.bulk ?? Math.floor(opts.slots / 12),
    };
    this.perPersonSlots = opts.perPersonSlots ?? Math.ceil(opts.slots / 2);
    const floorSum = LANES.reduce((n, p) => n + this.floors[p], 0);
    if (LANES.some((p) => !Number.isInteger(this.floors[p]) || this.floors[p] < 0) || floorSum >= this.slots) {
      throw new RangeError('floors must be whole numbers >= 0 that leave at least one slot to share');
    }
    if (!Number.isInteger(this.perPersonSlots) || this.perPersonSlots < 1) {
      throw new RangeError('perPersonSlots must be an integer >= 1');
    }
  }

  /** Slots held now (a request started and its window not over yet). */
  held(priority?: Priority): number {
    return priority === undefined ? this.heldCount : (this.heldByLane.get(priority) ?? 0);
  }

  /** Requests waiting, by lane or in all. */
  size(priority?: Priority): number {
    if (priority !== undefined) return this.lanes.get(priority)?.size ?? 0;
    let n = 0;
    for (const l of this.lanes.values()) n += l.size;
    return n;
  }

  push(e: E): void {
    this.lane(e).push(this.keyOf(e), e);
  }

  /** Takes a request out of the queue before it got a slot (its caller gave up). False if it was not waiting. */
  remove(e: E): boolean {
    return this.lane(e).remove(this.keyOf(e), e);
  }

  /** Every waiting request, in no particular order; the queue is empty after. */
  drain(): E[] {
    return LANES.flatMap((p) => this.lanes.get(p)?.drain() ?? []);
  }

  /**
   * The request that gets the next free slot, now counted as holding it (give it back with `release`); undefined
   * when no slot is free or no waiting request may take one now (a person at their cap: asked again at each release).
   */
  next(): E | undefined {
    return this.choose(false);
  }

  /** The request `next()` would give a slot to now, left waiting (the shared windows ask before taking a slot). */
  peek(): E | undefined {
    return this.choose(true);
  }

  private choose(peek: boolean): E | undefined {
    const free = this.slots - this.heldCount;
    if (free <= 0) return undefined;
    for (const p of LANES) {
      const lane = this.lanes.get(p) as Lane<E>;
      if (lane.size === 0) continue;
      // Slots the other waiting lanes are still owed: taking one must leave them free.
      let owed = 0;
      for (const q of LANES) {
        if (q === p || (this.lanes.get(q) as Lane<E>).size === 0) continue;
        owed += Math.max(0, this.floors[q] - this.held(q));
      }
      if (free <= owed) continue;
      const e = lane.take(
        (key) => key === NO_ONE || p !== 'interactive' || (this.heldByPerson.get(key) ?? 0) < this.perPersonSlots,
        peek,
      );
      if (!e) continue;
      if (!peek) this.hold(e, +1);
      return e;
    }
    return undefined;
  }

  /** The slot `e` held is free again. */
  release(e: E): void {
    this.hold(e, -1);
  }

  private hold(e: E, delta: 1 | -1): void {
    this.heldCount += delta;
    this.heldByLane.set(e.priority, this.held(e.priority) + delta);
    const key = this.keyOf(e);
    if (key === NO_ONE) return;
    const n = (this.heldByPerson.get(key) ?? 0) + delta;
    if (n > 0) this.heldByPerson.set(key, n);
    else this.heldByPerson.delete(key);
  }

  private lane(e: E): Lane<E> {
    const lane = this.lanes.get(e.priority);
    if (!lane) throw new RangeError(`Unknown priority "${String(e.priority)}"`);
    return lane;
  }

  /** Persons take turns in people's lane only; the poller's and uploads' lanes are first come first served. */
  private keyOf(e: E): string {
    return e.priority === 'interactive' && e.person !== undefined && e.person !== NO_ONE ? e.person : NO_ONE;
  }
}
