/**
 * A Slack event delivered twice (same event_id: a retry, or the same event at two replicas) is handled once: its id
 * is claimed in the store with insert-if-absent, and only the claimer relays it.
 */
import { describe, expect, it } from '@jest/globals';
import { openPostgresStore } from '../../src/store/pg-store.js';
import { WatchState } from '../../src/watch/state.js';
import { freshDatabase } from '../support/postgres.js';
import {
  callMessages,
  eventHandled,
  eventually,
  linesLogger,
  runCommand,
  startWatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';
const TTL = { retentionMs: 7 * 24 * 3600_000, eventTtlMs: 3600_000 };

describe('event ids claimed in the store', () => {
  it('two replicas on one database claiming the same ids at once: each id is handled by exactly one', async () => {
    const url = await freshDatabase('claims');
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    try {
      const left = new WatchState(a, TTL);
      const right = new WatchState(b, TTL);
      const ids = Array.from({ length: 20 }, (_, i) => `Ev0CLAIM${i}`);
      const results = await Promise.all(
        ids.flatMap((id) => [left.claimEvent(id), right.claimEvent(id), left.claimEvent(id)]),
      );
      for (let i = 0; i < ids.length; i++) {
        expect(results.slice(i * 3, i * 3 + 3).filter(Boolean)).toHaveLength(1);
      }
      // Still claimed later (a retry minutes after), for either replica.
      expect(await right.claimEvent(ids[0]!)).toBe(false);
      expect(await left.claimEvent('Ev0NEW')).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a handled id is forgotten after its hour (it expires)', async () => {
    let now = Date.parse('2030-01-01T10:00:00Z');
    const url = await freshDatabase('claims');
    const store = await openPostgresStore(url, { now: () => now });
    try {
      const state = new WatchState(store, { ...TTL, now: () => now });
      expect(await state.claimEvent('Ev0OLD')).toBe(true);
      now += 59 * 60_000;
      expect(await state.claimEvent('Ev0OLD')).toBe(false);
      now += 2 * 60_000;
      expect(await store.sweep()).toBeGreaterThanOrEqual(1);
      expect(await state.events.get('Ev0OLD')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('the same thread reply delivered twice at the same moment is relayed once', async () => {
    const log: string[] = [];
    const h = await startWatchHarness({ logger: linesLogger(log) });
    try {
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
      await h.cycle();
      const parent = callMessages(h.fake, CH, call.id as string)[0]!;
      const first = h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text: 'only once', eventId: 'Ev0TWIN' });
      const payload = (await first).ack.payload.event as Record<string, unknown>;
      // Two more deliveries of that event racing each other (Slack's retries reaching the app at once).
      await Promise.all([
        h.driver.event(payload, { eventId: 'Ev0TWIN', retryNum: 1, retryReason: 'http_timeout' }),
        h.driver.event(payload, { eventId: 'Ev0TWIN', retryNum: 2, retryReason: 'http_timeout' }),
      ]);
      const sends = () => h.sim.control.requests().filter((r) => r.route === 'sendMessage');
      await eventually(sends, (s) => s.length >= 1);
      // The app is done with all three deliveries: whatever it was to relay, it has.
      expect(await eventHandled(log, 'Ev0TWIN', 3)).toBe(true);
      expect(sends().map((r) => (r.body as { content: string }).content)).toEqual(['only once']);
    } finally {
      await h.close();
    }
  });
});
