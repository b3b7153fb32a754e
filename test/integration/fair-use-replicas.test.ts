/**
 * A person's share of commands and clicks is one share however many replicas serve them: two app processes on one
 * PostgreSQL, the person's requests spread over both in turn, are refused after the burst as with one replica (not
 * after twice the burst), and a Home tab clicker over the share gets one DM per streak, not one per replica.
 */
import { beforeAll, expect, it } from '@jest/globals';
import { replicaSetOfFile, seedPhoneCampaign } from '../support/replicas.js';

const BURST = 10;
// One action a minute once the burst is spent: no refill worth counting within the test.
const set = replicaSetOfFile({
  count: 2,
  env: { PERSON_ACTIONS_PER_MINUTE: '1', PERSON_ACTIONS_BURST: String(BURST) },
  // The shared count decides here, however slow a loaded machine opens the replicas' first database connections
  // (past the deadline a replica's own count would decide, as when the database is down: fair-use.test.ts).
  start: { fairUseSharedDeadlineMs: 2_500 },
});
let campaign: number;

const text = (x: unknown) => JSON.stringify(x);
/** How many refusals of `who` replica `i` logged (each once the person was told, or it chose not to DM again). */
const refusalsOn = (i: number, who: string) =>
  set
    .log(i)
    .split('\n')
    .filter((l) => l.includes('over their share') && l.includes(`"user":"${who}"`)).length;
const refusedOn = (i: number, who: string) => refusalsOn(i, who) > 0;

beforeAll(() => {
  campaign = seedPhoneCampaign(set.sim, 'Compartida', { status: 'pending' });
});

it("a person's commands over both replicas are refused after one burst", async () => {
  const who = 'U0SPREAD';
  const started = Date.now();
  const sent = await Promise.all(
    Array.from({ length: 3 * BURST }, () =>
      set.driver.command(`show ${campaign}`, { userId: who, channelId: 'C0OPS' }),
    ),
  );
  for (const r of sent) expect(r.status).toBe(200);
  const bodies = await Promise.all(
    sent.map((r) =>
      set.fake.waitFor(() => set.fake.responseUrlUses().find((u) => u.url === r.responseUrl)?.body, 20_000),
    ),
  );
  const elapsedMs = Date.now() - started;
  const shown = bodies.filter((b) => text(b).includes('Compartida')).length;
  const waits = bodies.filter((b) => /please wait/.test(text(b))).length;
  expect(shown + waits).toBe(3 * BURST);
  // The burst, plus one per minute the test took (PERSON_ACTIONS_PER_MINUTE=1): never a burst per replica.
  expect(shown).toBeGreaterThanOrEqual(BURST);
  expect(shown).toBeLessThanOrEqual(BURST + Math.floor(elapsedMs / 60_000));
  // Both replicas served them, and both refused some.
  expect([0, 1].map((i) => refusedOn(i, who))).toEqual([true, true]);
}, 60_000);

it('Home tab clicks over the share on both replicas: one DM per streak', async () => {
  const who = 'U0CLICKS';
  await set.driver.appHomeOpened({ userId: who });
  const view = await set.fake.waitFor(() => {
    const v = set.fake.publishedHome(who);
    return v && !text(v).includes('Reading the campaigns') ? v : undefined;
  }, 20_000);
  const clicks = await Promise.all(
    Array.from({ length: 2 * BURST + 4 }, () =>
      set.driver.blockAction({ userId: who, view: view.id as string, actionId: 'home_refresh' }),
    ),
  );
  for (const c of clicks) expect(c.status).toBe(200);
  await set.fake.waitFor(() => set.fake.messages(who).find((m) => text(m).includes('please wait')), 20_000);
  // Every refusal handled, on both replicas (each got half of the clicks, more than half the burst): the burst of 10
  // went through and the other 14 were refused (one a minute refills: none within the test's minute).
  const refused = 2 * BURST + 4 - BURST;
  await set.until('every refusal handled', () => refusalsOn(0, who) + refusalsOn(1, who) === refused, 30_000);
  expect([0, 1].map((i) => refusedOn(i, who))).toEqual([true, true]);
  expect(set.fake.messages(who).filter((m) => text(m).includes('please wait'))).toHaveLength(1);
}, 60_000);
