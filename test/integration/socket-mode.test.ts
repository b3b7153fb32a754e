/**
 * Socket Mode end to end: the real app started with SLACK_APP_TOKEN connects to the fake Slack's WebSocket (through
 * apps.connections.open with the app-level token), and the driver sends the same payloads as over HTTP as Socket
 * Mode envelopes: a command, a button, a modal (validation errors in the ack, then a good submission), a reply in a
 * watched call thread; Slack's `disconnect` and a lost connection, after which the app reconnects and still works.
 */
import type { Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { callMessages, eventually, runCommand, startWatchHarness } from '../support/watch-harness.js';

const ADMIN = 'U0ADMIN';
const CHANNEL = 'C0OPS';

let t: TestApp;
let agentId: string;
let phoneIntegration: string;
let campaignId: number;

beforeAll(async () => {
  // A shorter ping timeout makes the client reconnect 3 s after a disconnect instead of 5 s (shorter still would
  // risk a reconnect whenever a busy machine delays a pong).
  t = await startTestApp({
    socketMode: true,
    env: { ADMIN_USER_IDS: ADMIN },
    start: { socketPingTimeoutMs: 3000 },
  });
  const c = t.sim.control;
  const agent = c.addAgent({ name: 'Sofía' });
  agentId = agent.id;
  phoneIntegration = c.addIntegration({ agentId, type: 'phone_call' }).id;
  campaignId = Number(
    c.seedCampaign({ name: 'Cobranza marzo', agentId, integrationId: phoneIntegration, status: 'active' }).id,
  );
});
afterAll(async () => t.close());

const textOf = (v: unknown) => JSON.stringify(v);

/** Sends `/campaign <text>` as an envelope; returns the ack and the app's answer through the response_url. */
async function command(text: string): Promise<{ ackSeq: number; answer: Json }> {
  const ack = await t.driver.command(text, { userId: ADMIN, channelId: CHANNEL });
  expect(ack.status).toBe(200);
  const use = await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === ack.responseUrl), 5000);
  return { ackSeq: ack.seq, answer: use.body };
}

/** The element with this action id in a message's blocks. */
function button(blocks: unknown, actionId: string): Json {
  for (const b of (blocks as Json[] | undefined) ?? []) {
    const found = ((b.elements as Json[] | undefined) ?? []).find((e) => e.action_id === actionId);
    if (found) return found;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

describe('connection', () => {
  it('opens the socket with the app-level token only, and serves /healthz on PORT', async () => {
    const opens = t.fake.calls('apps.connections.open');
    expect(opens).toHaveLength(1);
    expect(opens[0]).toMatchObject({ ok: true, token: t.fake.appToken });
    expect(t.fake.socket.connections()).toEqual([expect.objectContaining({ id: 1, open: true })]);
    // The listeners' Web API calls carry the bot token, never the app token.
    expect(t.fake.calls().filter((c) => c.token === t.fake.appToken && c.method !== 'apps.connections.open')).toEqual(
      [],
    );
    const health = await fetch(`http://127.0.0.1:${t.app.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    expect(t.app.port).toBeGreaterThan(0);
  });
});

describe('over the socket', () => {
  it('a command is acked on the socket before its answer, which lists the campaign', async () => {
    const { ackSeq, answer } = await command('list active');
    expect(textOf(answer)).toContain('Cobranza marzo');
    const reply = t.fake.calls('response_url').at(-1)!;
    expect(reply.seq).toBeGreaterThan(ackSeq);
    expect(t.fake.socket.strayMessages()).toEqual([]);
  });

  it('a button from the campaign detail pauses the campaign', async () => {
    const { answer } = await command(`show ${campaignId}`);
    const pause = button(answer.blocks, 'campaign_action:pause');
    const click = await t.driver.blockAction({
      actionId: 'campaign_action:pause',
      value: pause.value as string,
      userId: ADMIN,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    await t.fake.waitFor(() => t.sim.control.getCampaignState(campaignId)?.record.status === 'inactive', 5000);
    const said = await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === click.responseUrl), 5000);
    expect(textOf(said.body)).toContain(`<@${ADMIN}>`);
  });

  it('a modal: choices update it, a bad value comes back as errors in the ack, a good one creates the campaign', async () => {
    const seq = t.fake.seq();
    const open = await t.driver.command('create', { userId: ADMIN, channelId: CHANNEL });
    expect(open.status).toBe(200);
    const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
    const viewId = ((opened.response as Json).view as Json).id as string;
    expect(opened.seq).toBeGreaterThan(open.seq);
    await t.fake.waitFor(() =>
      t.fake.openViews(ADMIN).find((v) => v.id === viewId && v.callback_id === 'campaign_form'),
    );

    // Choosing the channel reshapes the form (views.update after the action's ack).
    const hash = t.fake.view(viewId)!.hash;
    const choice = await t.driver.blockAction({
      view: viewId,
      actionId: 'integration_type',
      selectedOption: { value: 'phone_call' },
      stateValues: { integration_type: { integration_type: stateValue.radio('phone_call') } },
      userId: ADMIN,
    });
    expect(choice.status).toBe(200);
    await t.fake.waitFor(() => t.fake.view(viewId)!.hash !== hash, 5000);

    const entry = (block: string, value: Json) => ({ [block]: { [block]: value } });
    const good = {
      ...entry('name', stateValue.text('Por socket')),
      ...entry('integration_type', stateValue.radio('phone_call')),
      ...entry('agent_id', stateValue.staticSelect(agentId)),
      ...entry('integration_id', stateValue.staticSelect(phoneIntegration)),
      ...entry('first_message', stateValue.text('Hola, le llamo de Acme.')),
    };
    const created = () => t.sim.control.requests().filter((r) => r.route === 'createCampaign');

    const bad = await t.driver.viewSubmission({
      viewId,
      values: { ...good, ...entry('retries', stateValue.number('6')) },
      allowEmptyRequired: true,
      userId: ADMIN,
    });
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ response_action: 'errors', errors: { retries: expect.stringMatching(/0 to 5/) } });
    expect(bad.viewResult).toMatchObject({ ok: true, action: 'errors' });
    expect(created()).toEqual([]);

    const ok = await t.driver.viewSubmission({ viewId, values: good, allowEmptyRequired: true, userId: ADMIN });
    expect(ok.viewResult).toMatchObject({ ok: true, action: 'close' });
    await t.fake.waitFor(() => created().length === 1, 5000);
    expect(created()[0]!.body).toMatchObject({
      name: 'Por socket',
      agent_id: agentId,
      integration_id: phoneIntegration,
      integration_type: 'phone_call',
    });
  });
});

describe('reconnecting', () => {
  it("after Slack's disconnect the app opens a new connection and still answers", async () => {
    const opensBefore = t.fake.calls('apps.connections.open').length;
    expect(t.fake.socket.disconnect('refresh_requested')).toBe(1);
    await t.fake.waitFor(() => t.fake.calls('apps.connections.open').length === opensBefore + 1, 8000);
    await t.fake.waitFor(() => t.fake.socket.connections().filter((c) => c.open).length === 1, 5000);
    const [old, fresh] = t.fake.socket.connections().slice(-2);
    expect(old).toMatchObject({ open: false, disconnectReason: 'refresh_requested' });
    expect(fresh).toMatchObject({ open: true });

    const { answer } = await command('help');
    expect(textOf(answer)).toContain('list [status]');
    expect(t.fake.socket.acks().at(-1)!.connectionId).toBe(fresh!.id);
  });

  it('after the connection is cut without a word, the app reconnects and still answers', async () => {
    const opensBefore = t.fake.calls('apps.connections.open').length;
    const connsBefore = t.fake.socket.connections().length;
    t.fake.socket.drop();
    await t.fake.waitFor(() => t.fake.calls('apps.connections.open').length === opensBefore + 1, 8000);
    await t.fake.waitFor(() => t.fake.socket.connections().length === connsBefore + 1, 5000);
    const { answer } = await command('help');
    expect(textOf(answer)).toContain('list [status]');
  });
});

describe('a reply in a watched call thread', () => {
  it('is relayed to the service over the socket, and the agent answer comes back in the thread', async () => {
    const h = await startWatchHarness({ socketMode: true });
    try {
      expect(h.fake.calls('apps.connections.open')).toHaveLength(1);
      h.sim.control.setAgentReply((content) => [`Recibido: ${content}`]);
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CHANNEL });
      const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
      h.sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'Hola' });
      await h.cycle();
      await h.cycle();
      const parent = callMessages(h.fake, CHANNEL, call.id as string)[0]!;
      expect(parent).toBeDefined();

      const { ack } = await h.driver.userMessage({ channelId: CHANNEL, threadTs: parent.ts, text: 'Llámame mañana' });
      expect(ack.status).toBe(200);
      const sent = await eventually(
        () => h.sim.control.requests().filter((r) => r.route === 'sendMessage'),
        (s) => s.length === 1,
      );
      expect(sent.map((r) => (r.body as { content: string }).content)).toEqual(['Llámame mañana']);
      const answered = await eventually(
        () => h.fake.threadReplies(CHANNEL, parent.ts).filter((m) => m.text.includes('Recibido: Llámame mañana')),
        (a) => a.length === 1,
      );
      expect(answered).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
