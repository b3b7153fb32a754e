/**
 * End to end: the call message's "Details" and "Contact" buttons (end-user modal, PUT /enduser/{id}, permissions),
 * and `/campaign try` in the person's DM (end user created once, replies relayed both ways).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { stateValue } from '../../src/emulator/slack-driver.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';

describe('call buttons and the end-user modal', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  async function setup(admins?: string[]) {
    h = await startWatchHarness({ ...(admins ? { admins } : {}) });
    const c = h.phoneCampaign(1);
    await runCommand(h, `watch ${c.id}`, { channelId: CH, userId: admins?.[0] ?? 'U0ALICE' });
    const call = h.sim.control.createCall(c.id, {
      status: 'ended',
      answered_by: 'human',
      policy_evaluation: {
        score: 50,
        policies_evaluated_count: 2,
        policies_met_count: 1,
        policies_not_applicable_count: 0,
        completed: true,
        completed_at: new Date().toISOString(),
        policies: [
          {
            policy_id: 'p1',
            policy_name: 'Greets',
            result: 'met',
            explanation: 'Said hello',
            evaluated_at: new Date().toISOString(),
          },
          {
            policy_id: 'p2',
            policy_name: 'Offers <b>',
            result: 'not_met',
            explanation: 'No offer <!here>',
            evaluated_at: new Date().toISOString(),
          },
        ],
      },
    });
    await h.cycle();
    const msg = callMessages(h.fake, CH, call.id as string)[0]!;
    const endUserId = (await h.app.deps.outreach.getThread(call.thread_id as string)).end_user.id;
    return { msg, endUserId };
  }

  it('"Details" shows the full call with each policy result and explanation', async () => {
    const { msg } = await setup();
    const r = await h.driver.blockAction({ actionId: 'watch_call_details', messageTs: msg.ts, channelId: CH });
    const use = await eventually(
      () => h.fake.responseUrlUses().find((u) => u.url === r.responseUrl),
      (u) => !!u,
    );
    const body = JSON.stringify(use?.body);
    expect(body).toContain('Greets');
    expect(body).toContain('Said hello');
    expect(body).toContain('not_met');
    expect(body).toContain('No offer &lt;!here&gt;');
    expect(body).toContain('1 met of 2 evaluated');
  });

  it('"Contact" opens the end user in a modal and saving it updates the service', async () => {
    const { msg, endUserId } = await setup();
    await h.driver.blockAction({ actionId: 'watch_call_contact', messageTs: msg.ts, channelId: CH });
    const view = await eventually(
      () => h.fake.openViews('U0ALICE').find((v) => v.callback_id === 'watch_enduser_edit'),
      (v) => v !== undefined,
    );
    expect(view).toBeDefined();
    expect(JSON.stringify(view)).toContain('Contact 1');
    const res = await h.driver.viewSubmission({
      viewId: view!.id as string,
      values: {
        enduser_name: { value: stateValue.text('Ana María') },
        enduser_info: { value: stateValue.text('Prefers mornings') },
      },
    });
    expect(res.status).toBe(200);
    const updated = await eventually(
      () => h.app.deps.outreach.getEndUser(endUserId),
      (u) => u.display_name === 'Ana María',
    );
    expect(updated.info).toBe('Prefers mornings');
    const put = h.sim.control.requests().filter((q) => q.route === 'updateEndUser');
    expect(put).toHaveLength(1);
    expect(put[0]!.body).toEqual({ display_name: 'Ana María', info: 'Prefers mornings' });

    // A blank name keeps the modal open with the reason under the field.
    await h.driver.blockAction({ actionId: 'watch_call_contact', messageTs: msg.ts, channelId: CH });
    const again = await eventually(
      () => h.fake.openViews('U0ALICE').find((v) => v.callback_id === 'watch_enduser_edit'),
      (v) => v !== undefined,
    );
    const bad = await h.driver.viewSubmission({
      viewId: again!.id as string,
      values: { enduser_name: { value: stateValue.text('  ') } },
      allowEmptyRequired: true,
    });
    expect(JSON.stringify(bad.json)).toContain('display name');
  });

  it('an es-MX person gets Details, the end-user modal, its errors and the confirmation in Spanish', async () => {
    const { msg, endUserId } = await setup();
    h.fake.addUser({ id: 'U0MARIA', locale: 'es-MX', tz: 'America/Bogota' });
    const r = await h.driver.blockAction({
      actionId: 'watch_call_details',
      messageTs: msg.ts,
      channelId: CH,
      userId: 'U0MARIA',
    });
    const use = await eventually(
      () => h.fake.responseUrlUses().find((u) => u.url === r.responseUrl),
      (u) => !!u,
    );
    const details = JSON.stringify(use?.body);
    expect(details).toContain('Detalles de la llamada');
    expect(details).toContain('1 cumplidas de 2 evaluadas');
    expect(details).toContain('GMT-5'); // Her Slack timezone (Bogotá), not the service's default.

    await h.driver.blockAction({ actionId: 'watch_call_contact', messageTs: msg.ts, channelId: CH, userId: 'U0MARIA' });
    const view = await eventually(
      () => h.fake.openViews('U0MARIA').find((v) => v.callback_id === 'watch_enduser_edit'),
      (v) => v !== undefined,
    );
    expect(JSON.stringify(view)).toContain('Nombre visible');
    const bad = await h.driver.viewSubmission({
      viewId: view!.id as string,
      userId: 'U0MARIA',
      values: { enduser_name: { value: stateValue.text('  ') } },
      allowEmptyRequired: true,
    });
    expect(JSON.stringify(bad.json)).toContain('Escribe un nombre visible');
    await h.driver.viewSubmission({
      viewId: view!.id as string,
      userId: 'U0MARIA',
      values: {
        enduser_name: { value: stateValue.text('Ana María') },
        enduser_info: { value: stateValue.text('') },
      },
    });
    await eventually(
      () => h.app.deps.outreach.getEndUser(endUserId),
      (u) => u.display_name === 'Ana María',
    );
    const confirmation = await eventually(
      () => JSON.stringify(h.fake.messages(h.fake.dmChannel('U0MARIA') ?? 'none')),
      (m) => m.includes('Lo guardaste'),
    );
    expect(confirmation).toContain('Ahora se llama *Ana María*');
  });

  it('a read-only person sees the end user but gets no form, and cannot save one', async () => {
    const { msg, endUserId } = await setup(['U0ADMIN']);
    const r = await h.driver.blockAction({
      actionId: 'watch_call_contact',
      messageTs: msg.ts,
      channelId: CH,
      userId: 'U0ALICE',
    });
    const use = await eventually(
      () => h.fake.responseUrlUses().find((u) => u.url === r.responseUrl),
      (u) => !!u,
    );
    expect(JSON.stringify(use?.body)).toContain('Contact 1');
    expect(h.fake.openViews('U0ALICE')).toHaveLength(0);
    // Even a forged submission is refused on the server.
    await h.driver.viewSubmission({
      callbackId: 'watch_enduser_edit',
      privateMetadata: JSON.stringify({ endUserId }),
      userId: 'U0ALICE',
      values: { enduser_name: { value: stateValue.text('Hacked') }, enduser_info: { value: stateValue.text('') } },
    });
    await new Promise((r2) => setTimeout(r2, 300));
    expect(h.sim.control.requests().filter((q) => q.route === 'updateEndUser')).toHaveLength(0);
  });
});

describe('/campaign try', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('offers the agents seen in campaigns, then relays the DM conversation both ways with one end user per person', async () => {
    h = await startWatchHarness();
    const { agentId } = h.phoneCampaign(1);
    const list = JSON.stringify(await runCommand(h, 'try'));
    expect(list).toContain(agentId);
    expect(list).toContain('Ana Agent');

    await runCommand(h, `try ${agentId}`);
    const dm = h.fake.dmChannel('U0ALICE');
    expect(dm).toBeDefined();
    h.sim.control.setAgentReply((content) => `Echo: ${content}`);
    await h.driver.userMessage({ channelId: dm!, text: 'Hola <@U0BOB>, what do you offer?' });
    const replies = await eventually(
      () => h.fake.messages(dm!).filter((m) => m.text.includes('Echo:')),
      (m) => m.length === 1,
    );
    expect(replies[0]!.text).toContain('Echo: Hola @U0BOB, what do you offer?');
    const session = (await h.svc.state.tries.get('U0ALICE'))!;
    const sent = h.sim.control.requests().filter((q) => q.route === 'sendMessage');
    expect(sent.map((q) => q.body)).toEqual([
      { agent_id: agentId, end_user_id: session.endUserId, content: 'Hola @U0BOB, what do you offer?' },
    ]);

    // Trying again (same agent) reuses the end user; a second message gets one more answer, nothing repeated.
    await runCommand(h, `try ${agentId}`);
    await h.driver.userMessage({ channelId: dm!, text: 'second' });
    await eventually(
      () => h.fake.messages(dm!).filter((m) => m.text.includes('Echo:')),
      (m) => m.length === 2,
    );
    await h.cycle();
    await h.cycle();
    const echoes = h.fake
      .messages(dm!)
      .filter((m) => m.text.includes('Echo:'))
      .map((m) => m.text);
    expect(echoes).toHaveLength(2);
    expect(h.sim.control.requests().filter((q) => q.route === 'createEndUser')).toHaveLength(1);
    // The person's own messages are not echoed as "end user" messages.
    expect(h.fake.messages(dm!).filter((m) => m.user === 'UBOT' && m.text.includes('👤'))).toHaveLength(0);
  });
});
