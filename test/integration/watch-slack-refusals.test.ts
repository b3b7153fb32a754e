/**
 * Slack refusing a post: a channel's refusal stops that channel's watches only (their owners told by DM why and how
 * to fix it) and they resume by themselves once the bot is back; workspace hiccups and rate limits only delay; a
 * token-wide refusal stops everything only when auth.test agrees, and everything resumes once auth.test is good.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  BOT_USER,
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const ONE = 'C0ONE';
const TWO = 'C0TWO';

describe('Slack refusing posts', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h?.close();
  });

  /** Campaign A watched in ONE by Ann, campaign B watched in TWO by Bob. */
  async function twoChannels() {
    const a = h.phoneCampaign(3, 'Spring promo').id;
    const b = h.phoneCampaign(3, 'Summer promo').id;
    await runCommand(h, `watch ${a}`, { channelId: ONE, userId: 'U0ANN' });
    await runCommand(h, `watch ${b}`, { channelId: TWO, userId: 'U0BOB' });
    return { a, b };
  }

  const dmsTo = (user: string) => h.fake.messages(user).map((m) => m.text);

  it("one channel's no_permission leaves another channel's watch running; the owner is told; an invite resumes it", async () => {
    h = await startWatchHarness();
    const { a, b } = await twoChannels();
    h.fake.failNext('chat.postMessage', { error: 'no_permission', channel: ONE }, Infinity);

    const callA = h.sim.control.createCall(a, { status: 'in-progress' });
    const callB = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    expect((await h.svc.state.subscriptions.get(`${a}/${ONE}`))?.suspended?.error).toBe('no_permission');
    expect((await h.svc.state.subscriptions.get(`${b}/${TWO}`))?.suspended).toBeUndefined();
    expect(callMessages(h.fake, TWO, callB.id as string)).toHaveLength(1);

    const told = await eventually(
      () => dmsTo('U0ANN'),
      (t) => t.some((x) => x.includes('stopped posting')),
    );
    const dm = told.find((x) => x.includes('stopped posting'))!;
    expect(dm).toContain(`#${a}`);
    expect(dm).toContain(`<#${ONE}>`);
    expect(dm).toContain('no longer lets me post'); // the reason
    expect(dm).toContain('/invite @Outreach'); // the fix
    expect(dmsTo('U0BOB')).toEqual([]);

    // The other channel keeps receiving calls.
    const callB2 = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    expect(callMessages(h.fake, TWO, callB2.id as string)).toHaveLength(1);
    expect(h.sim.control.requests().some((r) => r.path.endsWith(`/campaigns/${b}/calls`))).toBe(true);

    // The bot invited back: Slack tells the app, the watch resumes and what waited goes out.
    h.fake.clearFailures();
    await h.driver.event({
      type: 'member_joined_channel',
      user: BOT_USER,
      channel: ONE,
      channel_type: 'C',
      inviter: 'U0ANN',
    });
    await eventually(
      async () => (await h.svc.state.subscriptions.get(`${a}/${ONE}`))?.suspended,
      (s) => s === undefined,
    );
    await h.svc.delivery.idle();
    await eventually(
      () => callMessages(h.fake, ONE, callA.id as string),
      (m) => m.length === 1,
    );
    expect(callMessages(h.fake, ONE, callA.id as string)).toHaveLength(1);
    await eventually(
      () => dmsTo('U0ANN'),
      (t) => t.some((x) => x.includes('again')),
    );
    expect(dmsTo('U0ANN').find((x) => x.includes('again'))).toContain(`<#${ONE}>`);
  });

  it('someone else joining the channel does not resume it; a periodic re-check does once the bot is back', async () => {
    h = await startWatchHarness({ tuning: { channelRecheckMs: 150 } });
    const { id } = h.phoneCampaign(1);
    h.fake.addChannel({ id: 'G0SECRET', name: 'secret', isPrivate: true });
    await runCommand(h, `watch ${id} <#G0SECRET|secret>`, { userId: 'U0ANN' });
    h.fake.updateChannel('G0SECRET', { isMember: false });
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    await h.cycle();
    expect((await h.svc.state.subscriptions.get(`${id}/G0SECRET`))?.suspended?.error).toBe('channel_not_found');

    await h.driver.event({ type: 'member_joined_channel', user: 'U0CAROL', channel: 'G0SECRET', channel_type: 'G' });
    await new Promise((r) => setTimeout(r, 400));
    expect((await h.svc.state.subscriptions.get(`${id}/G0SECRET`))?.suspended).toBeDefined();

    // Invited back while the app missed the event: conversations.info finds it reachable.
    h.fake.updateChannel('G0SECRET', { isMember: true });
    await eventually(
      async () => (await h.svc.state.subscriptions.get(`${id}/G0SECRET`))?.suspended,
      (s) => s === undefined,
    );
    await eventually(
      () => callMessages(h.fake, 'G0SECRET', call.id as string),
      (m) => m.length === 1,
    );
    expect(callMessages(h.fake, 'G0SECRET', call.id as string)).toHaveLength(1);
  });

  it('an archived channel resumes when it is unarchived', async () => {
    h = await startWatchHarness();
    const { id } = h.phoneCampaign(1);
    await runCommand(h, `watch ${id}`, { channelId: ONE, userId: 'U0ANN' });
    h.fake.updateChannel(ONE, { isArchived: true });
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    await h.cycle();
    expect((await h.svc.state.subscriptions.get(`${id}/${ONE}`))?.suspended?.error).toBe('is_archived');
    const dm = await eventually(
      () => dmsTo('U0ANN'),
      (t) => t.some((x) => x.includes('archived')),
    );
    expect(dm.find((x) => x.includes('archived'))).toContain('Unarchive');

    h.fake.updateChannel(ONE, { isArchived: false });
    await h.driver.event({ type: 'channel_unarchive', channel: ONE, user: 'U0ANN' });
    await eventually(
      () => callMessages(h.fake, ONE, call.id as string),
      (m) => m.length === 1,
    );
    expect((await h.svc.state.subscriptions.get(`${id}/${ONE}`))?.suspended).toBeUndefined();
  });

  it('org_login_required, team_added_to_org and rate limits only delay a post', async () => {
    h = await startWatchHarness();
    const { a, b } = await twoChannels();
    h.fake.failNext('chat.postMessage', { error: 'org_login_required', channel: ONE }, 2);
    h.fake.failNext('chat.postMessage', { error: 'team_added_to_org', channel: ONE }, 2);
    h.fake.failNext('chat.postMessage', { error: 'ratelimited', channel: TWO }, 2);
    h.fake.failNext('chat.postMessage', { status: 429, retryAfter: 1, channel: TWO });
    const callA = h.sim.control.createCall(a, { status: 'in-progress' });
    const callB = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    await eventually(
      () => [callMessages(h.fake, ONE, callA.id as string), callMessages(h.fake, TWO, callB.id as string)],
      ([x, y]) => x!.length === 1 && y!.length === 1,
      10_000,
    );
    expect(callMessages(h.fake, ONE, callA.id as string)).toHaveLength(1);
    expect(callMessages(h.fake, TWO, callB.id as string)).toHaveLength(1);
    expect((await h.svc.state.allSubscriptions()).filter((s) => s.suspended)).toEqual([]);
    expect(
      h.fake
        .calls('chat.postMessage')
        .filter((c) => c.error)
        .map((c) => c.error),
    ).toEqual(expect.arrayContaining(['org_login_required', 'team_added_to_org', 'ratelimited']));
    expect(
      dmsTo('U0ANN')
        .concat(dmsTo('U0BOB'))
        .filter((t) => t.includes('stopped')),
    ).toEqual([]);
  });

  it('a spurious invalid_auth with auth.test still good stops nothing; the post goes out on a later try', async () => {
    h = await startWatchHarness();
    const { a, b } = await twoChannels();
    h.fake.failNext('chat.postMessage', { error: 'invalid_auth', channel: ONE });
    const callA = h.sim.control.createCall(a, { status: 'in-progress' });
    const callB = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    await eventually(
      () => callMessages(h.fake, ONE, callA.id as string),
      (m) => m.length === 1,
    );
    expect((await h.svc.state.allSubscriptions()).filter((s) => s.suspended)).toEqual([]);
    expect(callMessages(h.fake, ONE, callA.id as string)).toHaveLength(1);
    expect(callMessages(h.fake, TWO, callB.id as string)).toHaveLength(1);
    expect(h.fake.calls('auth.test').length).toBeGreaterThanOrEqual(1);
    expect(h.svc.health.paused).toBe(false);

    const callB2 = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    expect(callMessages(h.fake, TWO, callB2.id as string)).toHaveLength(1);
  });

  it('a revoked token pauses everything, confirmed by auth.test, and it all resumes when auth.test is good again', async () => {
    h = await startWatchHarness({ tuning: { authRecheckMs: 100 } });
    const { a, b } = await twoChannels();
    h.fake.revokeToken(h.fake.botToken);
    const callA = h.sim.control.createCall(a, { status: 'in-progress' });
    await h.cycle();
    // Nothing is marked suspended: the watches are intact, only paused.
    expect((await h.svc.state.allSubscriptions()).filter((s) => s.suspended)).toEqual([]);
    expect(h.fake.calls('auth.test').some((c) => c.error === 'token_revoked')).toBe(true);
    expect(h.svc.health.paused).toBe(true);

    // While paused nothing is polled (the cursors stay) and nothing is posted.
    h.sim.control.clearRequests();
    const callB = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    expect(h.sim.control.requests().filter((r) => r.route === 'listCampaignCalls')).toEqual([]);
    const postsWhilePaused = h.fake.calls('chat.postMessage').length;
    await new Promise((r) => setTimeout(r, 350));
    expect(h.fake.calls('chat.postMessage').length).toBe(postsWhilePaused);

    h.fake.restoreToken(h.fake.botToken);
    await eventually(
      () => h.svc.health.paused,
      (p) => !p,
    );
    await h.cycle();
    await eventually(
      () => [callMessages(h.fake, ONE, callA.id as string), callMessages(h.fake, TWO, callB.id as string)],
      ([x, y]) => x!.length === 1 && y!.length === 1,
    );
    expect(callMessages(h.fake, ONE, callA.id as string)).toHaveLength(1);
    expect(callMessages(h.fake, TWO, callB.id as string)).toHaveLength(1);
  });

  it('missing_scope stops everything only when the token lacks the scope, and resumes once it has it', async () => {
    const granted = ['commands', 'chat:write', 'chat:write.public', 'channels:read', 'groups:read'];
    h = await startWatchHarness({ fake: { scopes: granted }, tuning: { authRecheckMs: 100 } });
    const { a, b } = await twoChannels();

    // Claimed for one call while auth.test reports the scope: tried again, nothing stops.
    h.fake.failNext('chat.postMessage', { error: 'missing_scope', needed: 'chat:write', channel: ONE });
    const callA = h.sim.control.createCall(a, { status: 'in-progress' });
    await h.cycle();
    await eventually(
      () => callMessages(h.fake, ONE, callA.id as string),
      (m) => m.length === 1,
    );
    expect((await h.svc.state.allSubscriptions()).filter((s) => s.suspended)).toEqual([]);
    expect(h.svc.health.paused).toBe(false);

    // The app reinstalled without chat:write: auth.test agrees, everything pauses until the scope is back.
    h.fake.setScopes(granted.filter((x) => x !== 'chat:write'));
    h.fake.failNext('chat.postMessage', { error: 'missing_scope', needed: 'chat:write' }, Infinity);
    const callB = h.sim.control.createCall(b, { status: 'in-progress' });
    await h.cycle();
    expect(h.svc.health.paused).toBe(true);
    expect(h.svc.health.tokenProblem).toBe('missing_scope');
    h.fake.clearFailures();
    await new Promise((r) => setTimeout(r, 300));
    expect(h.svc.health.paused).toBe(true);

    h.fake.setScopes(granted);
    await eventually(
      () => h.svc.health.paused,
      (p) => !p,
    );
    await h.cycle();
    await eventually(
      () => callMessages(h.fake, TWO, callB.id as string),
      (m) => m.length === 1,
    );
    expect(callMessages(h.fake, TWO, callB.id as string)).toHaveLength(1);
    expect((await h.svc.state.allSubscriptions()).filter((s) => s.suspended)).toEqual([]);
  });
});
