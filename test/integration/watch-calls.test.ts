/**
 * Watching a phone campaign end to end (simulator ↔ real app ↔ fake Slack): one message per call per channel,
 * updated in place; the conversation in the message's thread, in order, never twice; escaping of outside text.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { callMessages, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0OPS';
const CH2 = 'C0SALES';

describe('watching phone campaigns', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  async function watch(id: number, channel = CH) {
    await runCommand(h, `watch ${id}`, { channelId: channel });
    expect(await h.svc.state.subscriptions.get(`${id}/${channel}`)).toBeDefined();
  }

  it('posts each call once per watching channel and updates it in place until its outcome', async () => {
    const { id } = h.phoneCampaign(3);
    await watch(id, CH);
    await watch(id, CH2);

    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    const callId = call.id as string;
    await h.cycle();
    for (const ch of [CH, CH2]) {
      const msgs = callMessages(h.fake, ch, callId);
      expect(msgs).toHaveLength(1);
      expect(msgs[0]!.text).toContain('Contact 1');
      expect(msgs[0]!.text).toContain('In progress');
      expect(msgs[0]!.metadata).toEqual({
        event_type: 'outreach_call',
        event_payload: { campaign_id: id, call_id: callId, thread_id: call.thread_id },
      });
    }

    // Nothing changed: nothing written.
    const updatesBefore = h.fake.calls('chat.update').length;
    const postsBefore = h.fake.calls('chat.postMessage').length;
    await h.cycle();
    expect(h.fake.calls('chat.update').length).toBe(updatesBefore);
    expect(h.fake.calls('chat.postMessage').length).toBe(postsBefore);

    h.sim.control.updateCall(callId, {
      status: 'ended',
      answered_by: 'human',
      duration: 65,
      ended_by: 'user',
      ended_reason: 'customer-ended-call',
      extracted_data: { interest: 'high' },
      tags: ['hot-lead'],
      policy_evaluation: {
        score: 80,
        policies_evaluated_count: 5,
        policies_met_count: 4,
        policies_not_applicable_count: 0,
        completed: true,
        completed_at: new Date().toISOString(),
        policies: [],
      },
    });
    await h.cycle();
    for (const ch of [CH, CH2]) {
      const msgs = callMessages(h.fake, ch, callId);
      expect(msgs).toHaveLength(1);
      const m = msgs[0]!;
      expect(m.updates).toBe(1);
      expect(m.text).toContain('Ended');
      const all = JSON.stringify(m.blocks);
      for (const s of [
        '1m 05s',
        'the contact (customer-ended-call)',
        '80 (4/5 met)',
        'interest',
        'high',
        'hot-lead',
        'Recording',
      ]) {
        expect(all).toContain(s);
      }
    }
    // Final and shown: later cycles write nothing more for it.
    const updates = h.fake.calls('chat.update').length;
    await h.cycle();
    await h.cycle();
    expect(h.fake.calls('chat.update').length).toBe(updates);
  });

  it("posts the conversation into the call message's thread, labelled, in order, never twice", async () => {
    const { id } = h.phoneCampaign(2);
    await watch(id);
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    const threadId = call.thread_id as string;
    h.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, ¿hablo con Contact 1?' });
    h.sim.control.addMessage(threadId, { sent_by: 'EU', content: 'Sí, soy yo' });
    await h.cycle();
    // The thread read happens after the call message is posted: the next cycle (or the same one) posts it.
    await h.cycle();
    const parent = callMessages(h.fake, CH, call.id as string)[0]!;
    let replies = h.fake.threadReplies(CH, parent.ts);
    expect(replies.map((r) => r.text)).toEqual([
      expect.stringContaining('note:'),
      expect.stringMatching(/Agent.*Hola, ¿hablo con Contact 1\?/),
      expect.stringMatching(/Contact 1.*Sí, soy yo/),
    ]);

    h.sim.control.addMessage(threadId, { sent_by: 'SYS', content: 'Call transferred' });
    h.sim.control.addMessage(threadId, {
      sent_by: 'AI',
      type: 'image',
      content: 'Aquí está el folleto',
      media: 'https://cdn.example.com/brochure.png',
    });
    await h.cycle();
    await h.cycle();
    replies = h.fake.threadReplies(CH, parent.ts);
    expect(replies).toHaveLength(5);
    expect(replies[3]!.text).toMatch(/System.*Call transferred/);
    expect(replies[4]!.text).toContain('<https://cdn.example.com/brochure.png|');
    // Every reply is posted once: no text appears twice.
    const texts = replies.map((r) => r.text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('neutralizes mentions and markup injected by an end user, the agent and contact data', async () => {
    const { id } = h.phoneCampaign(1);
    await watch(id);
    const call = h.sim.control.createCall(id, {
      status: 'ended',
      answered_by: 'human',
      extracted_data: { '<!channel>': '<@U0ALICE> & <#C0OPS|ops>' },
    });
    h.sim.control.addMessage(call.thread_id as string, {
      sent_by: 'EU',
      content: 'Hey <!here> <!subteam^S123|admins> <@U0BOSS>',
    });
    h.sim.control.addMessage(call.thread_id as string, {
      sent_by: 'AI',
      content: '<https://evil.example|click> & more',
    });
    await h.cycle();
    await h.cycle();
    const parent = callMessages(h.fake, CH, call.id as string)[0]!;
    const posted = JSON.stringify([
      parent.blocks,
      parent.text,
      h.fake.threadReplies(CH, parent.ts).map((r) => [r.text, r.blocks]),
    ]);
    // The one mention the app writes on purpose: the person who set the watch, called in when the end user writes
    // (src/watch/attention.ts), in the message's text and its context line. Nothing else mentions anyone.
    const ours = '🔔 <@U0ALICE>: the customer wrote in this conversation.';
    expect(posted.split(ours)).toHaveLength(3);
    const everything = posted.split(ours).join('');
    for (const bad of [
      '<!here>',
      '<!channel>',
      '<!subteam^S123',
      '<@U0BOSS>',
      '<@U0ALICE>',
      '<#C0OPS',
      '<https://evil',
    ]) {
      expect(everything).not.toContain(bad);
    }
    expect(everything).toContain('&lt;!here&gt;');
    expect(everything).toContain('&amp; more');
  });

  it('lists subscriptions per channel and stops posting after unwatch', async () => {
    const { id } = h.phoneCampaign(3);
    await watch(id, CH);
    await watch(id, CH2);
    const listed = JSON.stringify(await runCommand(h, 'watching'));
    expect(listed).toContain(`<#${CH}>`);
    expect(listed).toContain(`<#${CH2}>`);

    await runCommand(h, `unwatch ${id}`, { channelId: CH2 });
    expect(await h.svc.state.subscriptions.get(`${id}/${CH2}`)).toBeUndefined();
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    await h.cycle();
    expect(callMessages(h.fake, CH, call.id as string)).toHaveLength(1);
    expect(callMessages(h.fake, CH2, call.id as string)).toHaveLength(0);
  });
});
