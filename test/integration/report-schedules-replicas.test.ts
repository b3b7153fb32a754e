/**
 * Scheduled reports with two replicas on one PostgreSQL database (two apps in this process, one fake Slack, one
 * simulator, one clock): only the leader runs the scheduler, a run is claimed in the database before it is posted
 * (insert-if-absent per schedule and minute), so a report is posted once, also when the leader stops right after
 * posting and the other replica takes over and looks back over the last hour.
 */
import { freshDatabase } from '../support/postgres.js';
import { seedPhoneCampaign } from '../support/reportData.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { TestClock } from '../support/testClock.js';

const ADMIN = 'U0ADMIN';
const OPS = 'C0OPS';
const DAILY = 'C0DAILY';

const clock = new TestClock(Date.parse('2026-03-02T14:58:00Z')); // 08:58 in Mexico City
let a: TestApp;
let b: TestApp;
let id: number;

beforeAll(async () => {
  const env = {
    ADMIN_USER_IDS: ADMIN,
    DATABASE_URL: await freshDatabase('reports'),
    LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent',
  };
  const start = { clock, reports: { tickMs: 40 } };
  // Two API keys of one organization: the service's limiter is one per key and process (src/outreach/limiter.ts), and
  // its shared windows are those of the app that made it; replicas in their own processes each have their own.
  a = await startTestApp({ env, start, sim: { orgs: { 'sim-key': 'org-sim', 'sim-key-b': 'org-sim' } } });
  b = await startTestApp({
    env: { ...env, OUTREACH_API_KEY: 'sim-key-b' },
    start,
    shared: { sim: a.sim, fake: a.fake },
  });
  a.fake.addUser({ id: ADMIN, locale: 'en-US', tz: 'America/Mexico_City' });
  for (const c of [OPS, DAILY]) a.fake.addChannel({ id: c, members: [ADMIN] });
  id = seedPhoneCampaign(a.sim.control, { called: 8, queued: 2, spreadHours: 24 });
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const posts = () => a.fake.uploadedFiles().filter((f) => f.channel === DAILY && f.messageTs);
const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));
const leads = async (t: TestApp) => (await t.app.health.report()).leader === true;

it('one replica leads the scheduler; a report is posted once, also across a failover', async () => {
  expect([await leads(a), await leads(b)].filter(Boolean)).toHaveLength(1);
  const since = a.fake.responseUrlUses().length;
  await b.driver.command(`report ${id} daily 09:00 <#${DAILY}|daily>`, { userId: ADMIN, channelId: OPS });
  await a.fake.waitFor(() => a.fake.responseUrlUses()[since], 5000);
  // Written through one replica, read by both.
  expect(await a.app.services.reports.schedules.all()).toHaveLength(1);

  clock.set('2026-03-02T15:00:05Z');
  await a.fake.waitFor(() => posts().length >= 1, 15_000);
  await settle();
  expect(posts()).toHaveLength(1);

  // The leader stops; the other takes over and looks back over the last hour: the 09:00 run is claimed already.
  const [leader, other] = (await leads(a)) ? [a, b] : [b, a];
  await leader.app.stop();
  for (let i = 0; i < 100 && !(await leads(other)); i++) await settle(100);
  expect(await leads(other)).toBe(true);
  await settle();
  expect(posts()).toHaveLength(1);

  // The next day's run, by the new leader.
  clock.set('2026-03-03T15:00:05Z');
  await a.fake.waitFor(() => posts().length >= 2, 15_000);
  await settle();
  expect(posts()).toHaveLength(2);
  await leader.restart();
}, 60_000);

it('of two replicas claiming one run at once, exactly one gets it', async () => {
  const [s] = await a.app.services.reports.schedules.all();
  const slot = Date.parse('2026-03-04T15:00:00Z');
  const claims = await Promise.all([
    a.app.services.reports.schedules.claim(s!, slot, clock.now()),
    b.app.services.reports.schedules.claim(s!, slot, clock.now()),
  ]);
  expect(claims.filter(Boolean)).toHaveLength(1);
});
