/**
 * Watches that call people in (src/watch/attention.ts), end to end through the simulator and the fake Slack, on a
 * clock the test moves: the thread's assignee (looked up by email) mentioned when the end user writes, once per turn;
 * the owner when nobody is assigned; one reminder for a customer left waiting (the watch's minutes, during the
 * campaign's schedule only), none after a reply or a note; what survives a restart.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Clock } from '../../src/clock.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';
const PRIVATE = 'G0LEGAL';
const OWNER = 'U0ALICE';
const MARIA = 'U0MARIA';
/** In the public channel only. */
const BRUNO = 'U0BRUNO';
/** In neither channel. */
const CARLA = 'U0CARLA';
const MIN = 60_000;

/** Wednesday 2026-11-25 10:00 in Mexico City (UTC-6): inside a weekday 09:00-18:00 schedule. */
const WEDNESDAY_10AM = Date.parse('2026-11-25T16:00:00Z');
/** Saturday 2026-11-28 10:00 in Mexico City. */
const SATURDAY_10AM = Date.parse('2026-11-28T16:00:00Z');
/** Monday 2026-11-30 09:05 in Mexico City. */
const MONDAY_0905 = Date.parse('2026-11-30T15:05:00Z');

const WEEKDAYS = {
  mon: { startTime: '09:00', stopTime: '18:00', active: true },
  tue: { startTime: '09:00', stopTime: '18:00', active: true },
  wed: { startTime: '09:00', stopTime: '18:00', active: true },
  thu: { startTime: '09:00', stopTime: '18:00', active: true },
  fri: { startTime: '09:00', stopTime: '18:00', active: true },
  sat: { startTime: '09:00', stopTime: '18:00', active: false },
};

class TestClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

interface Setup {
  h: WatchHarness;
  clock: TestClock;
  campaignId: number;
  threadId: string;
  parent: FakeMessage;
}

/** A watched campaign with one ended call whose Slack thread exists. */
async function setup(
  opts: {
    at?: number;
    assignee?: string;
    scheduling?: typeof WEEKDAYS;
    reminderMinutes?: number;
    /** Channels speak Spanish (DEFAULT_LOCALE) and the owner reads Spanish (their Slack locale). */
    spanish?: boolean;
  } = {},
): Promise<Setup> {
  const clock = new TestClock(opts.at ?? WEDNESDAY_10AM);
  const h = await startWatchHarness({
    clock,
    ...(opts.spanish ? { defaultLocale: 'es' as const } : {}),
    // Conversations are read at every cycle (the test's cycles follow each other within milliseconds).
    tuning: { campaignCheckMs: 0, threadMaxGapMs: 0 },
    fake: {
      users: [
        { id: OWNER, name: 'alice', ...(opts.spanish ? { locale: 'es-MX' } : {}) },
        { id: MARIA, name: 'maria', email: 'Maria.Lopez@example.com' },
        { id: BRUNO, name: 'bruno' },
        { id: CARLA, name: 'carla' },
      ],
      channels: [
        { id: CH, members: [OWNER, MARIA, BRUNO] },
        { id: PRIVATE, isPrivate: true, members: [OWNER] },
      ],
    },
  });
  const c = h.phoneCampaign(2, 'Spring promo', {
    timezone: 'America/Mexico_City',
    ...(opts.scheduling ? { scheduling: opts.scheduling } : {}),
  });
  await runCommand(h, `watch ${c.id}`, { channelId: CH, userId: OWNER });
  if (opts.reminderMinutes !== undefined) {
    const sub = (await h.svc.state.subscriptionsIn(CH))[0]!;
    await h.svc.state.putSubscription({ ...sub, reminderMinutes: opts.reminderMinutes });
  }
  const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
  const threadId = call.thread_id as string;
  if (opts.assignee) {
    h.sim.control.updateThread(threadId, {
      assigned_to: [{ id: 'svc-user-1', email: opts.assignee, first_name: 'Maria', last_name: 'López' }],
    });
  }
  // The live transcript: the end user talks while the call runs (nobody is called in for that).
  h.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, ¿hablo con Contact 1?' });
  h.sim.control.addMessage(threadId, { sent_by: 'EU', content: 'Sí, soy yo' });
  await h.cycle();
  h.sim.control.updateCall(call.id as string, { status: 'ended' });
  await h.cycle();
  await h.cycle();
  const parent = callMessages(h.fake, CH, call.id as string)[0]!;
  return { h, clock, campaignId: c.id, threadId, parent };
}

const replies = (s: Setup) => s.h.fake.threadReplies(CH, s.parent.ts);
const mentioning = (s: Setup, user: string) => replies(s).filter((r) => r.text.includes(`<@${user}>`));
const reminders = (s: Setup) => replies(s).filter((r) => r.metadata?.event_type === 'outreach_reminder');

/** The end user writes (after the call ended), and the app polls. */
async function endUserWrites(s: Setup, content: string): Promise<void> {
  s.h.sim.control.addMessage(s.threadId, { sent_by: 'EU', content });
  await s.h.cycle();
  await s.h.cycle();
}

describe('the assignee called in', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });

  it('mentions the assignee found by email when the end user writes, once per turn', async () => {
    s = await setup({ assignee: 'maria.lopez@example.com' });
    // The transcript of the running call mentioned nobody.
    expect(mentioning(s, MARIA)).toHaveLength(0);

    await endUserWrites(s, '¿Me pueden llamar mañana?');
    let mentions = mentioning(s, MARIA);
    expect(mentions).toHaveLength(1);
    expect(mentions[0]!.text).toContain('¿Me pueden llamar mañana?');

    // The same turn: the end user writes again before anyone answered.
    await endUserWrites(s, '¿Hola?');
    expect(mentioning(s, MARIA)).toHaveLength(1);
    expect(replies(s).some((r) => r.text.includes('¿Hola?'))).toBe(true);

    // The agent answers: the next message of the end user starts a new turn.
    s.h.sim.control.addMessage(s.threadId, { sent_by: 'AI', content: 'Claro, te llamamos mañana.' });
    await endUserWrites(s, 'Gracias, a las 10 por favor');
    mentions = mentioning(s, MARIA);
    expect(mentions).toHaveLength(2);
    expect(mentions[1]!.text).toContain('a las 10 por favor');

    // A person answers in Slack: a new turn again.
    await s.h.driver.userMessage({ channelId: CH, threadTs: s.parent.ts, text: 'note: I will call her' });
    await eventually(
      async () => (await s.h.svc.state.waiting.list()).length,
      (n) => n === 0,
    );
    await endUserWrites(s, 'Perfecto');
    expect(mentioning(s, MARIA)).toHaveLength(3);

    // The email was looked up in Slack once (cached), never the owner mentioned.
    expect(s.h.fake.calls('users.lookupByEmail')).toHaveLength(1);
    expect(mentioning(s, OWNER)).toHaveLength(0);
  });

  it('mentions the person who set the watch when no assignee is found in Slack, never ids from outside text', async () => {
    s = await setup({ assignee: 'nobody@elsewhere.example' });
    await endUserWrites(s, 'Escríbanme <@U0MARIA> <!channel>');
    expect(mentioning(s, OWNER)).toHaveLength(1);
    const lookups = s.h.fake.calls('users.lookupByEmail');
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.ok).toBe(false);
    // The end user's text is escaped: Maria is not mentioned through it (the raw-mention check fails the test too).
    expect(mentioning(s, MARIA)).toHaveLength(0);
    expect(s.h.fake.rawMentions()).toEqual([]);
  });
});

describe('no customer left waiting', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });

  it('posts one reminder after the watch’s minutes, mentioning the assignee; never a second one', async () => {
    s = await setup({ assignee: 'maria.lopez@example.com', scheduling: WEEKDAYS });
    await endUserWrites(s, '¿Alguien me puede ayudar?');
    s.clock.advance(14 * MIN);
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);

    s.clock.advance(2 * MIN);
    await s.h.cycle();
    const [reminder] = await eventually(
      () => reminders(s),
      (r) => r.length === 1,
    );
    expect(reminder!.text).toContain(`<@${MARIA}>`);
    expect(reminder!.text).toContain('15 minutes');

    // Still nobody answered, more time passes, the end user writes again in the same wait: no second reminder.
    s.clock.advance(30 * MIN);
    await endUserWrites(s, '¿Siguen ahí?');
    s.clock.advance(30 * MIN);
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(1);
  });

  it('reminds after the minutes set on the watch', async () => {
    s = await setup({ reminderMinutes: 5 });
    await endUserWrites(s, '¿Hola?');
    s.clock.advance(4 * MIN);
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);
    s.clock.advance(2 * MIN);
    await s.h.cycle();
    const found = await eventually(
      () => reminders(s),
      (r) => r.length === 1,
    );
    // Nobody is assigned: the person who set the watch is called in.
    expect(found[0]!.text).toContain(`<@${OWNER}>`);
    expect(found[0]!.text).toContain('5 minutes');
  });

  it.each([
    ['a reply to the customer', 'Hola, te ayudo ahora'],
    ['an internal note', 'note: calling her back'],
  ])('posts no reminder after %s in the thread', async (_what, text) => {
    s = await setup({ assignee: 'maria.lopez@example.com' });
    await endUserWrites(s, '¿Me ayudan?');
    await s.h.driver.userMessage({ channelId: CH, threadTs: s.parent.ts, text });
    await eventually(
      async () => (await s.h.svc.state.waiting.list()).length,
      (n) => n === 0,
    );
    s.clock.advance(60 * MIN);
    await s.h.cycle();
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);
  });

  it('posts no reminder after a person answered from the service’s own app (sent_by_user)', async () => {
    s = await setup();
    await endUserWrites(s, '¿Me ayudan?');
    s.h.sim.control.addMessage(s.threadId, { sent_by: 'AI', content: 'Soy Carla, te ayudo', sent_by_user: 'svc-7' });
    await s.h.cycle();
    await s.h.cycle();
    expect(await s.h.svc.state.waiting.list()).toHaveLength(0);
    s.clock.advance(60 * MIN);
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);
  });

  it('posts no reminder outside the campaign’s schedule; it comes when the schedule opens, if still waiting', async () => {
    s = await setup({ at: SATURDAY_10AM, scheduling: WEEKDAYS });
    await endUserWrites(s, 'Escribo el sábado');
    s.clock.advance(3 * 60 * MIN);
    await s.h.cycle();
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);
    // Monday 09:05 in Mexico City: the schedule runs.
    s.clock.at = MONDAY_0905;
    await s.h.cycle();
    await eventually(
      () => reminders(s),
      (r) => r.length === 1,
    );
    expect(reminders(s)).toHaveLength(1);
  });

  it('keeps waiting, reminded and mentioned in the store across restarts', async () => {
    s = await setup({ assignee: 'maria.lopez@example.com' });
    await endUserWrites(s, 'Primera pregunta');
    expect(mentioning(s, MARIA)).toHaveLength(1);

    await s.h.restart();
    // The same turn after the restart: no second mention.
    await endUserWrites(s, 'Segunda pregunta');
    expect(mentioning(s, MARIA)).toHaveLength(1);
    s.clock.advance(16 * MIN);
    await s.h.cycle();
    await eventually(
      () => reminders(s),
      (r) => r.length === 1,
    );

    await s.h.restart();
    s.clock.advance(60 * MIN);
    await s.h.cycle();
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(1);
  });
});

describe('in Spanish', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });

  it('the mention and the reminder in the channel’s language, the owner’s DM in theirs', async () => {
    s = await setup({ assignee: 'maria.lopez@example.com', spanish: true });
    await endUserWrites(s, '¿Hay alguien?');
    expect(mentioning(s, MARIA)[0]!.text).toContain('el cliente escribió en esta conversación');
    s.clock.advance(16 * MIN);
    await s.h.cycle();
    const [reminder] = await eventually(
      () => reminders(s),
      (r) => r.length === 1,
    );
    expect(reminder!.text).toContain('lleva 15 minutos esperando una respuesta');
    s.h.sim.control.setCampaignStatus(s.campaignId, 'finished');
    await s.h.cycle();
    const [dm] = await eventually(
      () => s.h.fake.messages(OWNER).map((m) => m.text),
      (d) => d.length === 1,
    );
    expect(dm).toContain('terminó');
    expect(dm).toContain(`/campaign dejar ${s.campaignId}`);
  });
});

describe('the watch’s owner told by DM', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });
  const dms = () => s.h.fake.messages(OWNER).map((m) => m.text);

  it('when the campaign finishes, once', async () => {
    s = await setup();
    expect(dms()).toEqual([]);
    s.h.sim.control.setCampaignStatus(s.campaignId, 'finished');
    await s.h.cycle();
    const told = await eventually(dms, (d) => d.length === 1);
    expect(told[0]).toContain(`#${s.campaignId}`);
    expect(told[0]).toContain('has finished');
    expect(told[0]).toContain(`<#${CH}>`);
    await s.h.cycle();
    await s.h.cycle();
    expect(dms()).toHaveLength(1);
  });

  it('reads many watched campaigns from the campaign list, not one request each', async () => {
    s = await setup();
    const more = [1, 2, 3, 4, 5].map((k) => s.h.phoneCampaign(1, `Extra ${k}`));
    for (const [k, c] of more.entries()) {
      await runCommand(s.h, `watch ${c.id}`, { channelId: `C0EXTRA${k}`, userId: OWNER });
    }
    await s.h.cycle();
    s.h.sim.control.setCampaignStatus(more[1]!.id, 'finished');
    s.h.sim.control.setCampaignStatus(s.campaignId, 'finished');
    s.h.sim.control.clearRequests();
    await s.h.cycle();
    const told = await eventually(dms, (d) => d.length === 2);
    expect(told.some((t) => t.includes(`#${more[1]!.id}`))).toBe(true);
    expect(told.some((t) => t.includes(`#${s.campaignId}`))).toBe(true);
    const routes = s.h.sim.control.requests().map((r) => r.route);
    expect(routes.filter((r) => r === 'getCampaign')).toHaveLength(0);
    expect(routes.filter((r) => r === 'listCampaigns')).toHaveLength(1);
  });

  it('when the service pauses it, not when someone pauses it from Slack', async () => {
    s = await setup();
    await runCommand(s.h, `pause ${s.campaignId}`, { channelId: CH, userId: OWNER });
    await s.h.cycle();
    await s.h.cycle();
    expect(dms()).toEqual([]);
    await runCommand(s.h, `resume ${s.campaignId}`, { channelId: CH, userId: OWNER });
    await s.h.cycle();
    expect(dms()).toEqual([]);

    // The service's back office pauses it.
    s.h.sim.control.setCampaignStatus(s.campaignId, 'inactive');
    await s.h.cycle();
    const told = await eventually(dms, (d) => d.length === 1);
    expect(told[0]).toContain('paused by the Outreach service');
    expect(told[0]).toContain(`/campaign resume ${s.campaignId}`);
  });

  it('when resuming from Slack, or a poll, meets BILLING_LIMIT_REACHED (once a day)', async () => {
    s = await setup();
    await runCommand(s.h, `pause ${s.campaignId}`, { channelId: CH, userId: OWNER });
    s.h.sim.control.setBillingLimitReached(true);
    await runCommand(s.h, `resume ${s.campaignId}`, { channelId: CH, userId: OWNER });
    const told = await eventually(dms, (d) => d.length === 1);
    expect(told[0]).toContain('plan limit was reached');

    // A poll refused for the plan limit within the day: not told again.
    s.h.sim.control.injectFaults({ status: 402, match: /^GET \/api\/v1\.0\/campaigns\/\d+\/calls/ });
    await s.h.cycle();
    expect(dms()).toHaveLength(1);
  });

  it('when a poll meets BILLING_LIMIT_REACHED', async () => {
    s = await setup();
    s.h.sim.control.injectFaults({ status: 402, match: /^GET \/api\/v1\.0\/campaigns\/\d+\/calls/ });
    await s.h.cycle();
    const told = await eventually(dms, (d) => d.length === 1);
    expect(told[0]).toContain('plan limit was reached');
  });
});

describe('the Home tab’s conversations waiting for a reply', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });

  async function openHome(userId: string): Promise<string> {
    const since = s.h.fake.seq();
    await s.h.driver.appHomeOpened({ userId });
    const done = (c: { seq: number; ok: boolean; args: Record<string, unknown> }) =>
      c.seq > since && c.ok && c.args.user_id === userId && !JSON.stringify(c.args.view).includes('Reading the');
    await s.h.fake.waitFor(() => s.h.fake.calls('views.publish').find(done), 8000);
    return JSON.stringify(s.h.fake.publishedHome(userId));
  }

  it('lists them oldest first with a link to each thread, and drops one once a person answered', async () => {
    s = await setup();
    const second = s.h.sim.control.createCall(s.campaignId, { status: 'ended', contactId: 2 });
    await s.h.cycle();
    await s.h.cycle();
    const secondParent = callMessages(s.h.fake, CH, second.id as string)[0]!;

    // The second call's customer writes first: theirs is the oldest wait.
    s.h.sim.control.addMessage(second.thread_id as string, { sent_by: 'EU', content: 'Primero yo' });
    await s.h.cycle();
    await s.h.cycle();
    s.clock.advance(3 * MIN);
    await endUserWrites(s, 'Después yo');
    expect(await s.h.svc.state.waiting.list()).toHaveLength(2);

    let home = await openHome(OWNER);
    expect(home).toContain('Waiting for a reply');
    const firstLink = `/archives/${CH}/p${secondParent.ts.replace('.', '')}`;
    const secondLink = `/archives/${CH}/p${s.parent.ts.replace('.', '')}`;
    expect(home).toContain(firstLink);
    expect(home).toContain(secondLink);
    expect(home.indexOf(firstLink)).toBeLessThan(home.indexOf(secondLink));

    // A person answers the oldest: it leaves the list.
    await s.h.driver.userMessage({ channelId: CH, threadTs: secondParent.ts, text: 'note: on it' });
    await eventually(
      async () => (await s.h.svc.state.waiting.list()).length,
      (n) => n === 1,
    );
    home = await openHome(OWNER);
    expect(home).not.toContain(firstLink);
    expect(home).toContain(secondLink);
  });

  it('shows each person only the conversations of channels they are in, private or public', async () => {
    s = await setup();
    // The same campaign watched in a private channel too: its customer's wait is recorded there as well.
    await runCommand(s.h, `watch ${s.campaignId}`, { channelId: PRIVATE, userId: OWNER });
    const call = s.h.sim.control.createCall(s.campaignId, { status: 'ended', contactId: 2 });
    await s.h.cycle();
    await s.h.cycle();
    const inPublic = callMessages(s.h.fake, CH, call.id as string)[0]!;
    const inPrivate = callMessages(s.h.fake, PRIVATE, call.id as string)[0]!;
    s.h.sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: 'Tengo una duda' });
    await s.h.cycle();
    await s.h.cycle();
    const waiting = (await s.h.svc.state.waiting.list()).map(([, w]) => w.channelId).sort();
    expect(waiting).toEqual([PRIVATE, CH].sort());
    const publicLink = `/archives/${CH}/p${inPublic.ts.replace('.', '')}`;
    const privateLink = `/archives/${PRIVATE}/p${inPrivate.ts.replace('.', '')}`;

    // In both: both.
    let home = await openHome(OWNER);
    expect(home).toContain(publicLink);
    expect(home).toContain(privateLink);
    // In the public channel only: not the private channel's customer, name or link.
    home = await openHome(BRUNO);
    expect(home).toContain('Waiting for a reply');
    expect(home).toContain(publicLink);
    expect(home).not.toContain(privateLink);
    expect(home).not.toContain(`in <#${PRIVATE}>`);
    // In neither: no list at all, though they may change campaigns.
    home = await openHome(CARLA);
    expect(home).toContain('campaign_create_open');
    expect(home).not.toContain('Waiting for a reply');
    expect(home).not.toContain(publicLink);

    // Looked up sparingly: a person's channels once, then kept; a person who joins is seen once that lapses.
    const lookups = (user: string) =>
      s.h.fake.calls('users.conversations').filter((c) => c.args.user === user && c.ok).length;
    expect([OWNER, BRUNO, CARLA].map(lookups)).toEqual([1, 1, 1]);
    await openHome(BRUNO);
    await openHome(BRUNO);
    expect(lookups(BRUNO)).toBe(1);
    s.h.fake.setMember(PRIVATE, BRUNO);
    s.h.app.settings.home.membershipTtlMs = 0;
    expect(await openHome(BRUNO)).toContain(privateLink);
  });
});
