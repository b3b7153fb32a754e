/**
 * Where a report may be scheduled, and whether a scheduled run may post, end to end on a clock the test moves:
 *
 * - scheduling refuses a private channel the bot is not in (saying how to invite it), a channel the person is not in
 *   when it is not the one they typed in, and a channel id typed by hand unless both the person and the bot are in it;
 * - a Slack Connect channel gets the confirmation a watch gets there: only a permitted person's press sets it;
 * - when it runs: a channel the bot was removed from, or one shared with another organization since without a
 *   confirmation, gets nothing; the schedule's owner is told by DM why (with the button that confirms, for the latter),
 *   and the next run after the fix posts.
 */
import type { AuditEntry } from '../../src/slack/audit.js';
import {
  ADMIN,
  answered,
  commandAnswer,
  OPS,
  READER,
  reportsIn,
  scheduleClock,
  startScheduleApp,
} from '../support/scheduled-reports.js';
import type { TestApp } from '../support/test-app.js';

const SECRET = 'G0SECRET';
const ELSEWHERE = 'C0ELSEWHERE';
const OUTSIDE = 'C0OUTSIDE';
const SHARED = 'C0PARTNER';
const LEAVE = 'C0LEAVE';
const LATER = 'C0LATER';
const TYPED = 'C0TYPED99';

const clock = scheduleClock();
let t: TestApp;
let id: number;
const audits: AuditEntry[] = [];

beforeAll(async () => {
  ({ t, campaignId: id } = await startScheduleApp(clock, { called: 12, queued: 3, spreadHours: 48 }));
  t.fake.addUser({ id: READER, locale: 'en-US' });
  const members = [ADMIN, READER];
  t.fake.addChannel({ id: OPS, members });
  t.fake.addChannel({ id: SECRET, isPrivate: true, isMember: false, members });
  t.fake.addChannel({ id: ELSEWHERE, members: [READER] });
  t.fake.addChannel({ id: OUTSIDE, isMember: false, members });
  t.fake.addChannel({ id: SHARED, isExtShared: true, members });
  t.fake.addChannel({ id: LEAVE, members });
  t.fake.addChannel({ id: LATER, members });
  t.fake.addChannel({ id: TYPED, members });
  t.app.deps.audit.subscribe((e) => audits.push(e));
});
afterAll(async () => t.close());

const postsIn = (channel: string) => reportsIn(t.fake, channel);
const scheduled = async (channel: string) =>
  (await t.app.services.reports.schedules.all()).find((s) => s.campaignId === id && s.channelId === channel);

const command = (text: string, userId = ADMIN, channelId = OPS) => commandAnswer(t, text, userId, channelId);

async function press(actionId: string, value: string, userId: string, channelId: string): Promise<string> {
  return answered(t, (await t.driver.blockAction({ actionId, value, userId, channelId })).responseUrl!);
}

/** The value of a button in an answer (JSON text). */
function buttonValue(answer: string, actionId: string): string {
  const m = new RegExp(`"action_id":"${actionId}","value":"((?:[^"\\\\]|\\\\.)*)"`).exec(answer);
  expect(m).not.toBeNull();
  return JSON.parse(`"${m![1]!}"`) as string;
}

describe('scheduling checks the channel', () => {
  it('a private channel the bot is not in: refused, with how to invite it', async () => {
    const answer = await command(`report ${id} daily 09:00 <#${SECRET}|secret>`);
    expect(answer).toContain(`I can't post in <#${SECRET}>`);
    expect(answer).toContain('/invite @Outreach');
    expect(await scheduled(SECRET)).toBeUndefined();
    expect(audits).toContainEqual(
      expect.objectContaining({ action: `schedule reports in ${SECRET}`, result: 'failed', campaignId: id }),
    );
  });

  it('a channel the person is not in (not the one they typed in): refused', async () => {
    const answer = await command(`report ${id} daily 09:00 <#${ELSEWHERE}|elsewhere>`);
    expect(answer).toContain(`You're not in <#${ELSEWHERE}>, so I won't schedule reports there for you`);
    expect(await scheduled(ELSEWHERE)).toBeUndefined();
  });

  it('a channel id typed by hand: refused unless both the person and the bot are in it', async () => {
    t.fake.deleteChannel('C0GONE123');
    for (const raw of ['C0GONE123', OUTSIDE, ELSEWHERE]) {
      const answer = await command(`report ${id} daily 09:00 ${raw}`);
      expect(answer).toContain(`I can't use \`${raw}\`: it is not a channel both you and I are in`);
      expect(answer).toContain('pick the channel from Slack');
      expect(await scheduled(raw)).toBeUndefined();
    }
    // Not joined on the strength of a typed id.
    expect(t.fake.calls('conversations.join').map((c) => c.args.channel)).not.toContain(OUTSIDE);
    expect(await command(`report ${id} daily 09:00 ${TYPED}`)).toContain('scheduled the report');
    expect(await scheduled(TYPED)).toMatchObject({ by: ADMIN, time: '09:00' });
  });

  it('a Slack Connect channel asks first; only a permitted person’s press sets the schedule', async () => {
    const ask = await command(`report ${id} daily 09:00 <#${SHARED}|partner>`);
    expect(ask).toContain('is a Slack Connect channel');
    expect(ask).toContain('If the report of');
    expect(await scheduled(SHARED)).toBeUndefined();
    const value = buttonValue(ask, 'report_schedule_confirm');
    expect(await press('report_schedule_confirm', value, READER, OPS)).toContain("You can't schedule campaign reports");
    expect(await scheduled(SHARED)).toBeUndefined();
    expect(await press('report_schedule_confirm', value, ADMIN, OPS)).toContain('scheduled the report');
    expect(await scheduled(SHARED)).toMatchObject({ by: ADMIN, confirmedShared: { by: ADMIN } });
    expect(audits).toContainEqual(
      expect.objectContaining({
        action: `schedule reports (daily 09:00 America/Mexico_City) in ${SHARED}`,
        result: 'ok',
        detail: expect.stringContaining('confirmed'),
      }),
    );
  });
});

describe('a scheduled run checks the channel again', () => {
  it('posts where it may; where the bot was removed or the channel became shared, the owner is told by DM', async () => {
    expect(await command(`report ${id} daily 09:00 <#${LEAVE}|leave>`)).toContain('scheduled the report');
    expect(await command(`report ${id} daily 09:00 <#${LATER}|later>`)).toContain('scheduled the report');
    t.fake.updateChannel(LEAVE, { isMember: false });
    t.fake.updateChannel(LATER, { isExtShared: true });
    const dmBefore = t.fake.messages(ADMIN).length;

    clock.set('2026-03-02T15:00:01Z');
    await t.fake.waitFor(() => postsIn(SHARED).length === 1 && postsIn(TYPED).length === 1, 25_000);
    const dms = await t.fake.waitFor(() => {
      const m = t.fake.messages(ADMIN).slice(dmBefore);
      return m.length >= 2 ? JSON.stringify(m) : undefined;
    }, 25_000);
    expect(postsIn(LEAVE)).toEqual([]);
    expect(postsIn(LATER)).toEqual([]);
    expect(dms).toContain(`I did not post the scheduled report of campaign #${id} in <#${LEAVE}>`);
    expect(dms).toContain(`I'm not in <#${LEAVE}>. Invite me there with \`/invite @Outreach\``);
    expect(dms).toContain(`I did not post the scheduled report of campaign #${id} in <#${LATER}>`);
    expect(dms).toContain('nobody confirmed that its reports may go there');
    expect(dms).toContain('report_schedule_confirm');

    // The owner confirms from the DM; the next day's run posts there. The bot invited back, that one posts too.
    const dm = t.fake.dmChannel(ADMIN)!;
    const later = t.fake.messages(ADMIN).find((m) => JSON.stringify(m.blocks).includes(`<#${LATER}>`))!;
    expect(
      await press(
        'report_schedule_confirm',
        buttonValue(JSON.stringify(later.blocks), 'report_schedule_confirm'),
        ADMIN,
        dm,
      ),
    ).toContain('scheduled the report');
    expect(await scheduled(LATER)).toMatchObject({ confirmedShared: { by: ADMIN } });
    t.fake.updateChannel(LEAVE, { isMember: true });
    clock.set('2026-03-03T15:00:01Z');
    await t.fake.waitFor(() => postsIn(LATER).length === 1 && postsIn(LEAVE).length === 1, 25_000);
  }, 90_000);
});
