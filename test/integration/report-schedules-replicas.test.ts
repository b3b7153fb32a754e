/**
 * Scheduled reports with two replicas on one PostgreSQL database (two apps in this process, one fake Slack, one
 * simulator, one clock): only the leader runs the scheduler, a run is claimed in the database before it is posted
 * (insert-if-absent per schedule and minute), so a report is posted once, also when the leader stops right after
 * posting and the other replica takes over and looks back over the last hour.
 */
import {
  ADMIN,
  commandAnswer,
  OPS,
  reportsIn,
  scheduleClock,
  startSchedulePair,
} from '../support/scheduled-reports.js';
import type { ReplicaPair, TestApp } from '../support/test-app.js';

const DAILY = 'C0DAILY';

const clock = scheduleClock();
let pair: ReplicaPair;
let a: TestApp;
let b: TestApp;
let id: number;

beforeAll(async () => {
  const env = { LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' };
  ({ pair, campaignId: id } = await startSchedulePair(clock, { called: 8, queued: 2, spreadHours: 24 }, { env }));
  ({ a, b } = pair);
  for (const c of [OPS, DAILY]) a.fake.addChannel({ id: c, members: [ADMIN] });
}, 60_000);
afterAll(async () => {
  await pair?.close();
});

const posts = () => reportsIn(a.fake, DAILY);
const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));
const leads = async (t: TestApp) => (await t.app.health.report()).leader === true;

it('one replica leads the scheduler; a report is posted once, also across a failover', async () => {
  expect([await leads(a), await leads(b)].filter(Boolean)).toHaveLength(1);
  await commandAnswer(b, `report ${id} daily 09:00 <#${DAILY}|daily>`);
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
