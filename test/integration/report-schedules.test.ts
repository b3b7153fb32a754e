/**
 * Scheduled reports end to end, on a clock the app is given (StartOptions.clock) and moved by the test; the
 * scheduler ticks every 40 ms of real time. node-cron is not mocked: it decides, in the campaign's timezone, which
 * minutes are a schedule's. Posts at the right local minute, once; survives restarts; a report missed while the app
 * was down is posted once when it comes back within the hour, not after; `off` stops it; a finished campaign gets a
 * last report and its schedule stops; a reader may not schedule.
 */
import {
  ADMIN,
  commandAnswer,
  OPS,
  READER,
  reportsIn,
  scheduleClock,
  startScheduleApp,
} from '../support/scheduled-reports.js';
import type { TestApp } from '../support/test-app.js';

const DAILY = 'C0DAILY';
const WEEKLY = 'C0WEEKLY';

const clock = scheduleClock();
let t: TestApp;
let id: number;

beforeAll(async () => {
  ({ t, campaignId: id } = await startScheduleApp(clock, { called: 12, queued: 3, spreadHours: 48 }));
  t.fake.addUser({ id: READER, locale: 'en-US', tz: 'America/New_York' });
  for (const c of [OPS, DAILY, WEEKLY]) t.fake.addChannel({ id: c, members: [ADMIN, READER] });
});
afterAll(async () => t.close());

const postsIn = (channel: string) => reportsIn(t.fake, channel);
const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms));
const command = (text: string, userId = ADMIN) => commandAnswer(t, text, userId);

async function waitForPosts(channel: string, n: number) {
  await t.fake.waitFor(() => postsIn(channel).length >= n, 10_000);
  await settle();
  expect(postsIn(channel)).toHaveLength(n);
}

describe('scheduled reports', () => {
  it('a reader may not schedule a report', async () => {
    const answer = await command(`report ${id} daily 09:00 <#${DAILY}|daily>`, READER);
    expect(answer).toContain("You can't schedule campaign reports");
    expect(await t.app.services.reports.schedules.all()).toEqual([]);
  });

  it('daily HH:MM is kept in the store and listed with its next run in the campaign’s timezone', async () => {
    const answer = await command(`report ${id} daily 9:00 <#${DAILY}|daily>`);
    expect(answer).toContain('every day at 09:00 (America/Mexico_City)');
    expect(answer).toContain('Next: 2026-03-02 09:00 CST');
    const list = await command('reports', READER);
    expect(list).toContain(
      `*#${id}* in <#${DAILY}>: every day at 09:00 (America/Mexico_City). Next: 2026-03-02 09:00 CST.`,
    );
  });

  it('posts at the local minute, once', async () => {
    clock.set('2026-03-02T14:59:59Z');
    await settle();
    expect(postsIn(DAILY)).toHaveLength(0);
    clock.set('2026-03-02T15:00:01Z');
    await waitForPosts(DAILY, 1);
    const message = JSON.stringify(t.fake.message(DAILY, postsIn(DAILY)[0]!.messageTs!)!.blocks);
    expect(message).toContain('Last 24 hours against the 24 hours before');
    clock.set('2026-03-02T15:00:50Z');
    await settle();
    expect(postsIn(DAILY)).toHaveLength(1);
  }, 20_000);

  it('survives a restart without posting again; a report missed while down is posted once on return', async () => {
    await t.restart(() => clock.set('2026-03-02T15:10:00Z'));
    await settle();
    expect(postsIn(DAILY)).toHaveLength(1);
    // Down over the next day's 09:00, back at 09:20: posted once.
    await t.restart(() => clock.set('2026-03-03T15:20:00Z'));
    await waitForPosts(DAILY, 2);
    await t.restart();
    await settle();
    expect(postsIn(DAILY)).toHaveLength(2);
    // Back more than an hour after 09:00: that one is skipped.
    await t.restart(() => clock.set('2026-03-04T16:30:00Z'));
    await settle();
    expect(postsIn(DAILY)).toHaveLength(2);
  }, 30_000);

  it('weekly <day> HH:MM (Spanish words) posts on that day only', async () => {
    const answer = await command(`reporte ${id} semanal miércoles 09:00 <#${WEEKLY}|weekly>`);
    expect(answer).toContain('every Wednesday at 09:00 (America/Mexico_City)');
    expect(answer).toContain('Next: 2026-03-11 09:00 CST');
    clock.set('2026-03-10T15:00:10Z'); // Tuesday
    await waitForPosts(DAILY, 3);
    expect(postsIn(WEEKLY)).toHaveLength(0);
    clock.set('2026-03-11T15:00:10Z'); // Wednesday
    await waitForPosts(WEEKLY, 1);
    await waitForPosts(DAILY, 4);
    const message = JSON.stringify(t.fake.message(WEEKLY, postsIn(WEEKLY)[0]!.messageTs!)!.blocks);
    expect(message).toContain('Last 7 days against the 7 days before');
  }, 30_000);

  it('off stops a schedule; off without one says there is none', async () => {
    expect(await command(`report ${id} off <#${DAILY}|daily>`)).toContain('turned off the scheduled report');
    expect(await command(`report ${id} off <#${DAILY}|daily>`)).toContain('has no scheduled report');
    clock.set('2026-03-12T15:00:10Z');
    await settle();
    expect(postsIn(DAILY)).toHaveLength(4);
  }, 20_000);

  it('a finished campaign gets one last report, then its schedule stops', async () => {
    t.sim.control.setCampaignStatus(id, 'finished');
    clock.set('2026-03-18T15:00:10Z');
    await waitForPosts(WEEKLY, 2);
    const last = JSON.stringify(t.fake.message(WEEKLY, postsIn(WEEKLY)[1]!.messageTs!)!.blocks);
    expect(last).toContain('This was the last scheduled report: the campaign is');
    // The schedule is removed right after that post.
    for (let i = 0; i < 50 && (await t.app.services.reports.schedules.all()).length > 0; i++) await settle(50);
    expect(await t.app.services.reports.schedules.all()).toEqual([]);
    clock.set('2026-03-25T15:00:10Z');
    await settle();
    expect(postsIn(WEEKLY)).toHaveLength(2);
    expect(await command('reports')).toContain('No report is scheduled');
  }, 20_000);
});
