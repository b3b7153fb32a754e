/**
 * The audit trail: every change (who, what, which campaign, result) is one structured log line and, when
 * AUDIT_CHANNEL_ID is set, one message in that channel; refusals and failures too. Checked for each kind of change
 * through the real app (log lines read back from the app's own logger).
 */
import { WebClient } from '@slack/web-api';
import { createLogger } from '../../src/log.js';
import type { Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN = 'U0ADMIN';
const READER = 'U0READER';
const CHANNEL = 'C0OPS';
const AUDIT = 'C0AUDIT';

interface AuditLine {
  userId: string;
  action: string;
  campaignId?: number;
  result: string;
  detail?: string;
}

const text = (x: unknown) => JSON.stringify(x);

/** A logger writing JSON lines into `lines` (the app's real logger, with its redaction). */
function capturingLogger(lines: string[]) {
  return createLogger('info', { destination: { write: (s: string) => void lines.push(s) } });
}

function auditLines(lines: string[]): AuditLine[] {
  return lines
    .map((l) => JSON.parse(l) as { msg?: string; audit?: AuditLine })
    .filter((l) => l.msg === 'audit')
    .map((l) => l.audit as AuditLine);
}

function seed(t: TestApp) {
  const c = t.sim.control;
  const agent = c.addAgent({ name: 'Sofía' });
  const int = c.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const id = Number(
    c.seedCampaign({
      name: 'Cobranza <b>',
      agentId: agent.id,
      integrationId: int.id,
      status: 'active',
      contacts: [
        { contact: '+525512345678', name: 'Ana' },
        { contact: '+525512345679', name: 'Beto' },
      ],
    }).id,
  );
  return { id, agent, int };
}

describe('with AUDIT_CHANNEL_ID', () => {
  const lines: string[] = [];
  let t: TestApp;
  let id: number;

  beforeAll(async () => {
    t = await startTestApp({
      env: { ADMIN_USER_IDS: ADMIN, AUDIT_CHANNEL_ID: AUDIT, LOG_LEVEL: 'info' },
      start: { logger: capturingLogger(lines) },
    });
    id = seed(t).id;
  });
  afterAll(async () => {
    // The admin's Home tab is refreshed after each of their changes: let the last refresh finish first.
    await t.app.services.home.idle();
    await t.close();
  });

  /**
   * Runs `act` and returns the one audit line and the one audit-channel post it caused (waiting for `count` of
   * each when a path records several).
   */
  async function audited(act: () => Promise<unknown>, count = 1): Promise<{ line: AuditLine; post: string }[]> {
    const linesBefore = auditLines(lines).length;
    const postsBefore = t.fake.messages(AUDIT).length;
    await act();
    await t.fake.waitFor(
      () => auditLines(lines).length >= linesBefore + count && t.fake.messages(AUDIT).length >= postsBefore + count,
      5000,
    );
    const got = auditLines(lines).slice(linesBefore);
    const posts = t.fake.messages(AUDIT).slice(postsBefore);
    expect(got).toHaveLength(count);
    expect(posts).toHaveLength(count);
    return got.map((line, i) => ({ line, post: posts[i]!.text }));
  }

  async function command(line: string, userId = ADMIN) {
    const since = t.fake.responseUrlUses().length;
    await t.driver.command(line, { userId, channelId: CHANNEL });
    await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
  }

  it('a lifecycle change that worked', async () => {
    const [a] = await audited(() => command(`pause ${id}`));
    expect(a!.line).toEqual({ userId: ADMIN, action: 'pause', campaignId: id, result: 'ok' });
    expect(a!.post).toBe(`✅ <@${ADMIN}> pause campaign #${id} — ok`);
  });

  it('a change the service refused: failed, with the reason', async () => {
    const [a] = await audited(() => command(`activate ${id}`));
    expect(a!.line).toMatchObject({ userId: ADMIN, action: 'activate', campaignId: id, result: 'failed' });
    expect(a!.line.detail).toMatch(/inactive/);
    expect(a!.post).toMatch(new RegExp(`^⚠️ <@${ADMIN}> activate campaign #${id} — failed: .*inactive`));
  });

  it('a refusal of a read-only person', async () => {
    const [a] = await audited(() => command(`resume ${id}`, READER));
    expect(a!.line).toEqual({
      userId: READER,
      action: 'resume',
      campaignId: id,
      result: 'refused',
      detail: 'read-only user',
    });
    expect(a!.post).toContain(`🚫 <@${READER}> resume campaign #${id} — refused`);
  });

  it('a lifecycle button in the Home tab', async () => {
    await t.driver.appHomeOpened({ userId: ADMIN });
    const home = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(ADMIN);
      return v && text(v).includes('campaign_action:resume') ? v : undefined;
    }, 5000);
    const [a] = await audited(() =>
      t.driver.blockAction({ userId: ADMIN, view: home.id as string, actionId: 'campaign_action:resume' }),
    );
    expect(a!.line).toEqual({ userId: ADMIN, action: 'resume', campaignId: id, result: 'ok' });
  });

  it('watch (Home tab menu and modal) and unwatch (command)', async () => {
    const since = t.fake.seq();
    await t.driver.blockAction({
      userId: ADMIN,
      view: t.fake.publishedHome(ADMIN)!.id as string,
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${id}`,
      selectedOption: { value: `watch:${id}` },
    });
    const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > since && c.ok), 5000);
    const viewId = ((opened.response as Json).view as Json).id as string;
    const [w] = await audited(() =>
      t.driver.viewSubmission({
        viewId,
        values: { home_watch_channel: { channel: stateValue.conversation('C0WATCH') } },
      }),
    );
    expect(w!.line).toEqual({ userId: ADMIN, action: 'watch in C0WATCH', campaignId: id, result: 'ok' });

    const [u] = await audited(() => command(`unwatch ${id} <#C0WATCH|watch>`));
    expect(u!.line).toEqual({ userId: ADMIN, action: 'unwatch in C0WATCH', campaignId: id, result: 'ok' });
  });

  it('a watch that could not be set up (private channel without the bot) is audited as failed', async () => {
    t.fake.addChannel({ id: 'G0PRIVATE', name: 'secret', isPrivate: true, isMember: false });
    const [w] = await audited(() => command(`watch ${id} <#G0PRIVATE|secret>`));
    expect(w!.line).toMatchObject({ userId: ADMIN, action: 'watch in G0PRIVATE', campaignId: id, result: 'failed' });
    expect(w!.line.detail).toContain('/invite');
  });

  it('removing a contact', async () => {
    const ana = (t.sim.control.getCampaignState(id)!.contacts as { id: number; name: string }[]).find(
      (c) => c.name === 'Ana',
    )!;
    const [a] = await audited(() =>
      t.driver.blockAction({
        userId: ADMIN,
        channelId: CHANNEL,
        actionId: 'contact_remove',
        value: JSON.stringify({ campaignId: id, contactId: ana.id }),
      }),
    );
    expect(a!.line).toEqual({ userId: ADMIN, action: `remove contact ${ana.id}`, campaignId: id, result: 'ok' });
  });

  it('editing a campaign (form submission)', async () => {
    const seq = t.fake.seq();
    await t.driver.command(`edit ${id}`, { userId: ADMIN, channelId: CHANNEL });
    const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
    const viewId = ((opened.response as Json).view as Json).id as string;
    await t.fake.waitFor(() =>
      t.fake.openViews(ADMIN).find((v) => v.id === viewId && v.callback_id === 'campaign_form'),
    );
    const [a] = await audited(() =>
      t.driver.viewSubmission({ viewId, values: { name: { name: stateValue.text('Cobranza nueva') } } }),
    );
    expect(a!.line).toMatchObject({ userId: ADMIN, action: 'edit', campaignId: id, result: 'ok' });
    expect(t.sim.control.getCampaignState(id)!.record.name).toBe('Cobranza nueva');
  });

  it('editing an end user', async () => {
    const call = t.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    const thread = await t.app.deps.outreach.getThread(String(call.thread_id));
    const endUserId = thread.end_user.id;
    const [a] = await audited(() =>
      t.driver.viewSubmission({
        callbackId: 'watch_enduser_edit',
        userId: ADMIN,
        privateMetadata: JSON.stringify({ endUserId }),
        values: { enduser_name: { value: stateValue.text('Beto B.') }, enduser_info: { value: stateValue.text('') } },
      }),
    );
    expect(a!.line).toEqual({ userId: ADMIN, action: `update end user ${endUserId}`, result: 'ok' });
  });

  it('outside text in an audit post is escaped', async () => {
    const [a] = await audited(() =>
      t.app.deps.audit.record(
        { userId: ADMIN, action: 'edit', campaignId: id, result: 'failed', detail: 'Name <!channel> & more' },
        new WebClient(t.fake.botToken, { slackApiUrl: t.fake.apiUrl, retryConfig: { retries: 0 } }),
      ),
    );
    expect(a!.post).toContain('Name &lt;!channel&gt; &amp; more');
  });
});

describe('without AUDIT_CHANNEL_ID', () => {
  it('changes are logged but posted nowhere', async () => {
    const lines: string[] = [];
    const t = await startTestApp({
      env: { ADMIN_USER_IDS: ADMIN, LOG_LEVEL: 'info' },
      start: { logger: capturingLogger(lines) },
    });
    try {
      const { id } = seed(t);
      const since = t.fake.responseUrlUses().length;
      await t.driver.command(`pause ${id}`, { userId: ADMIN, channelId: CHANNEL });
      await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
      await t.fake.waitFor(() => auditLines(lines).length > 0, 5000);
      expect(auditLines(lines)).toEqual([{ userId: ADMIN, action: 'pause', campaignId: id, result: 'ok' }]);
      expect(t.fake.calls('chat.postMessage')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
