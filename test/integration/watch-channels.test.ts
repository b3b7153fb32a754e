/**
 * Channels: joining public ones, explaining private ones, suspending a subscription Slack refuses for good (and
 * restoring it), and WhatsApp campaigns (status digest updated in place, one message per notable contact).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

describe('channels', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('joins a public channel by itself and explains how to invite it into a private one', async () => {
    const { id } = h.phoneCampaign(1);
    h.fake.addChannel({ id: 'C0PUBLIC', name: 'public', isMember: false });
    h.fake.addChannel({ id: 'G0SECRET', name: 'secret', isPrivate: true, isMember: false });
    await runCommand(h, `watch ${id} <#C0PUBLIC|public>`);
    expect(h.fake.calls('conversations.join').map((c) => c.args.channel)).toEqual(['C0PUBLIC']);
    expect(await h.svc.state.subscriptions.get(`${id}/C0PUBLIC`)).toBeDefined();

    const body = JSON.stringify(await runCommand(h, `watch ${id} <#G0SECRET|secret>`));
    expect(body).toContain('/invite');
    expect(await h.svc.state.subscriptions.get(`${id}/G0SECRET`)).toBeUndefined();
  });

  it('suspends a subscription whose channel was archived, tells its creator, stops polling it, and can restore it', async () => {
    const { id } = h.phoneCampaign(3);
    h.fake.addChannel({ id: 'C0GONE', name: 'gone' });
    await runCommand(h, `watch ${id} <#C0GONE|gone>`, { userId: 'U0BOB' });
    h.fake.updateChannel('C0GONE', { isArchived: true });
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    await h.cycle();
    const sub = await h.svc.state.subscriptions.get(`${id}/C0GONE`);
    expect(sub?.suspended?.error).toMatch(/archived/);
    const dm = await eventually(
      () => h.fake.messages('U0BOB'),
      (m) => m.some((x) => x.text.includes('stopped posting')),
    );
    const told = dm.find((x) => x.text.includes('stopped posting'))!.text;
    expect(told).toContain('archived');
    expect(told).toContain(`/campaign watch ${id}`);

    h.sim.control.clearRequests();
    await h.cycle();
    expect(h.sim.control.requests().filter((r) => r.route === 'listCampaignCalls')).toHaveLength(0);
    expect(JSON.stringify(await runCommand(h, 'watching'))).toContain('suspended');

    h.fake.updateChannel('C0GONE', { isArchived: false });
    await runCommand(h, `watch ${id} <#C0GONE|gone>`, { userId: 'U0BOB' });
    expect((await h.svc.state.subscriptions.get(`${id}/C0GONE`))?.suspended).toBeUndefined();
    h.sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    expect(callMessages(h.fake, 'C0GONE', call.id as string)).toHaveLength(1);
  });
});

describe('WhatsApp campaigns', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('keeps one digest of counts by status and posts each contact that converts, rejects or fails once', async () => {
    const { id } = h.whatsappCampaign(5);
    await runCommand(h, `watch ${id}`, { channelId: 'C0WA' });
    await h.cycle();
    const digest = () => h.topLevel('C0WA').filter((m) => m.metadata?.event_type === 'outreach_whatsapp');
    expect(digest()).toHaveLength(1);
    expect(digest()[0]!.text).toContain('5 contacts');

    h.sim.control.setContactStatus(id, 1, 'converted');
    h.sim.control.setContactStatus(id, 2, 'rejected');
    h.sim.control.setContactStatus(id, 3, 'read');
    await h.cycle();
    await h.cycle();
    const all = digest();
    const contactMsgs = all.filter((m) => m.metadata?.event_payload.key !== `wa/${id}`);
    expect(contactMsgs.map((m) => m.text).sort()).toEqual([
      expect.stringContaining('WA 1'),
      expect.stringContaining('WA 2'),
    ]);
    const d = all.find((m) => m.metadata?.event_payload.key === `wa/${id}`)!;
    expect(d.updates).toBe(1);
    expect(JSON.stringify(d.blocks)).toContain('Converted');
    expect(JSON.stringify(d.blocks)).toContain('Rejected');
  });
});
