// The Slack driver against a minimal real Bolt app (HTTPReceiver) whose WebClient talks to the fake Web API.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { startFakeSlack, type FakeSlack, type Json } from '../../src/emulator/fake-slack.js';
import { SlackDriver, stateValue } from '../../src/emulator/slack-driver.js';

const SECRET = 'test-secret';

let fake: FakeSlack;
let app: App;
let driver: SlackDriver;
/** What the app's listeners saw, in order. */
let seen: { kind: string; data: Json }[] = [];
/** Lets a test hold the event listener, to show the ack does not wait for it. */
let releaseEvent: (() => void) | undefined;
let eventGate: Promise<void> = Promise.resolve();

const nameModal = {
  type: 'modal',
  callback_id: 'create_campaign',
  title: { type: 'plain_text', text: 'New campaign' },
  submit: { type: 'plain_text', text: 'Create' },
  private_metadata: '{"channel":"C0OPS"}',
  blocks: [
    {
      type: 'input',
      block_id: 'name',
      label: { type: 'plain_text', text: 'Name' },
      element: { type: 'plain_text_input', action_id: 'value' },
    },
    {
      type: 'input',
      block_id: 'kind',
      optional: true,
      label: { type: 'plain_text', text: 'Kind' },
      element: {
        type: 'static_select',
        action_id: 'value',
        options: [
          { text: { type: 'plain_text', text: 'Calls' }, value: 'phone_call' },
          { text: { type: 'plain_text', text: 'SMS' }, value: 'sms' },
        ],
        initial_option: { text: { type: 'plain_text', text: 'Calls' }, value: 'phone_call' },
      },
    },
    {
      type: 'input',
      block_id: 'owner',
      optional: true,
      label: { type: 'plain_text', text: 'Agent' },
      element: { type: 'external_select', action_id: 'agent', min_query_length: 1 },
    },
  ],
};

beforeAll(async () => {
  fake = await startFakeSlack();
  app = new App({
    token: fake.botToken,
    signingSecret: SECRET,
    botId: fake.botId,
    botUserId: fake.botUserId,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });

  app.command('/campaign', async ({ ack, command, client }) => {
    seen.push({ kind: 'command', data: { text: command.text, user: command.user_id, channel: command.channel_id } });
    await ack(`Working on: ${command.text}`);
    if (command.text === 'new') await client.views.open({ trigger_id: command.trigger_id, view: nameModal as never });
  });

  app.action('approve', async ({ ack, body, action, respond }) => {
    await ack();
    seen.push({ kind: 'action', data: { value: (action as unknown as Json).value, user: body.user.id } });
    await respond({ text: 'Approved', replace_original: true });
  });

  app.action({ block_id: 'kind', action_id: 'value' }, async ({ ack, action }) => {
    await ack();
    seen.push({ kind: 'pick', data: { selected: (action as unknown as Json).selected_option } });
  });

  app.options('agent', async ({ ack, options }) => {
    seen.push({ kind: 'options', data: { value: options.value, view: options.view?.id } });
    const agents = ['Valeria', 'Diego', 'Lucía'].filter((a) => a.toLowerCase().startsWith(options.value.toLowerCase()));
    await ack({ options: agents.map((a) => ({ text: { type: 'plain_text', text: a }, value: a })) });
  });

  app.view('create_campaign', async ({ ack, view }) => {
    const name = view.state.values.name?.value?.value ?? '';
    const kind = view.state.values.kind?.value?.selected_option?.value;
    seen.push({ kind: 'submission', data: { name, kind, metadata: view.private_metadata } });
    if (name.length < 3) {
      await ack({ response_action: 'errors', errors: { name: 'Use at least 3 characters.' } });
      return;
    }
    await ack();
  });

  app.event('message', async ({ event, context, client }) => {
    await eventGate;
    const e = event as unknown as Json;
    seen.push({
      kind: 'message',
      data: { text: e.text, thread_ts: e.thread_ts, retryNum: context.retryNum, retryReason: context.retryReason },
    });
    if (e.thread_ts) {
      const r = await client.conversations.replies({ channel: e.channel as string, ts: e.thread_ts as string });
      seen.push({ kind: 'replies', data: { texts: r.messages?.map((m) => m.text) } });
    } else {
      await client.chat.postMessage({ channel: e.channel as string, text: `echo ${String(e.text)}` });
    }
  });

  const server = (await app.start(0)) as Server;
  const { port } = server.address() as AddressInfo;
  driver = new SlackDriver({ appUrl: `http://127.0.0.1:${port}/slack/events`, signingSecret: SECRET, fake });
});

afterAll(async () => {
  await app.stop();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  seen = [];
  eventGate = Promise.resolve();
});

describe('slash commands', () => {
  it('delivers a signed command and returns the ack body', async () => {
    const r = await driver.command('start 42', { userId: 'U0BOB', channelId: 'C0SALES' });
    expect(r.status).toBe(200);
    expect(r.body).toBe('Working on: start 42');
    expect(seen).toEqual([{ kind: 'command', data: { text: 'start 42', user: 'U0BOB', channel: 'C0SALES' } }]);
    expect(r.responseUrl.startsWith(`${fake.baseUrl}/response/`)).toBe(true);
    expect(r.respondedAt).toBeGreaterThanOrEqual(r.sentAt);
  });

  it('refuses a bad signature with 401 and runs no listener', async () => {
    const r = await driver.command('start 42', { badSignature: true });
    expect(r.status).toBe(401);
    const missing = await driver.command('start 42', { omitSignature: true });
    expect(missing.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('refuses a timestamp older than five minutes with 401', async () => {
    const r = await driver.command('start 42', { staleTimestamp: true });
    expect(r.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('hands out a trigger id the app can open a modal with, once', async () => {
    const r = await driver.command('new', { userId: 'U0ALICE' });
    expect(r.status).toBe(200);
    const [view] = await fake.waitFor(() => (fake.openViews('U0ALICE').length ? fake.openViews('U0ALICE') : undefined));
    expect(view).toMatchObject({ callback_id: 'create_campaign' });
    // The app's ack left before its views.open call reached Slack.
    const open = await fake.waitForCall('views.open');
    expect(open.seq).toBeGreaterThan(r.seq);
    expect(open.ok).toBe(true);
  });
});

describe('interactivity', () => {
  it('clicks a button in a posted message; respond() replaces the message', async () => {
    const posted = await app.client.chat.postMessage({
      channel: 'C0OPS',
      text: 'Approve campaign 3?',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Approve campaign 3?' } },
        {
          type: 'actions',
          block_id: 'decide',
          elements: [
            {
              type: 'button',
              action_id: 'approve',
              value: 'campaign:3',
              text: { type: 'plain_text', text: 'Approve' },
            },
          ],
        },
      ],
    });
    const r = await driver.blockAction({ actionId: 'approve', messageTs: posted.ts as string, userId: 'U0ALICE' });
    expect(r.status).toBe(200);
    expect(r.payload).toMatchObject({
      type: 'block_actions',
      container: { type: 'message', message_ts: posted.ts, channel_id: 'C0OPS' },
      actions: [{ action_id: 'approve', block_id: 'decide', value: 'campaign:3', type: 'button' }],
    });
    await fake.waitFor(() => fake.message('C0OPS', posted.ts as string)?.text === 'Approved');
    expect(seen).toEqual([{ kind: 'action', data: { value: 'campaign:3', user: 'U0ALICE' } }]);
    await expect(driver.blockAction({ actionId: 'no_such_button', messageTs: posted.ts as string })).rejects.toThrow(
      /no element with action_id no_such_button/,
    );
  });

  it('selects an option in a modal, filling the option from the view', async () => {
    await driver.command('new');
    const [view] = await fake.waitFor(() => (fake.openViews().length ? fake.openViews() : undefined));
    const r = await driver.blockAction({
      actionId: 'value',
      blockId: 'kind',
      view: view?.id as string,
      selectedOption: { value: 'sms' },
    });
    expect(r.status).toBe(200);
    expect(seen.at(-1)).toEqual({
      kind: 'pick',
      data: { selected: { text: { type: 'plain_text', text: 'SMS' }, value: 'sms' } },
    });
    expect(r.payload).toMatchObject({ container: { type: 'view', view_id: view?.id } });
  });

  it('submits a modal: errors keep it open, a clean ack closes it', async () => {
    await driver.command('new', { userId: 'U0ALICE' });
    const [view] = await fake.waitFor(() => (fake.openViews('U0ALICE').length ? fake.openViews('U0ALICE') : undefined));
    const viewId = view?.id as string;

    const bad = await driver.viewSubmission({ viewId, values: { name: { value: stateValue.text('ab') } } });
    expect(bad.status).toBe(200);
    expect(bad.json).toEqual({ response_action: 'errors', errors: { name: 'Use at least 3 characters.' } });
    expect(bad.viewResult).toEqual({ ok: true, action: 'errors' });
    expect(fake.openViews('U0ALICE')).toHaveLength(1);

    const good = await driver.viewSubmission({ viewId, values: { name: { value: stateValue.text('Spring promo') } } });
    expect(good.status).toBe(200);
    expect(good.body).toBe('');
    expect(good.viewResult).toEqual({ ok: true, action: 'close' });
    expect(fake.openViews('U0ALICE')).toHaveLength(0);
    // Untouched inputs arrive with their initial value; private_metadata comes from the view.
    expect(seen.filter((s) => s.kind === 'submission').map((s) => s.data)).toEqual([
      { name: 'ab', kind: 'phone_call', metadata: '{"channel":"C0OPS"}' },
      { name: 'Spring promo', kind: 'phone_call', metadata: '{"channel":"C0OPS"}' },
    ]);
  });

  it('refuses to submit what Slack would not let a user submit', async () => {
    await driver.command('new');
    const [view] = await fake.waitFor(() => (fake.openViews().length ? fake.openViews() : undefined));
    await expect(driver.viewSubmission({ viewId: view?.id as string, values: {} })).rejects.toThrow(
      /required input name is empty/,
    );
    await expect(
      driver.viewSubmission({ viewId: view?.id as string, values: { nope: { value: stateValue.text('x') } } }),
    ).rejects.toThrow(/no input block nope/);
  });

  it('submits a synthetic modal by callback_id', async () => {
    const r = await driver.viewSubmission({
      callbackId: 'create_campaign',
      values: { name: { value: stateValue.text('x') } },
      privateMetadata: 'meta',
    });
    expect(r.json).toMatchObject({ response_action: 'errors' });
    expect(seen).toEqual([{ kind: 'submission', data: { name: 'x', kind: undefined, metadata: 'meta' } }]);
  });
});

describe('events', () => {
  it('acks an event before the listener finishes, and passes the retry headers on', async () => {
    eventGate = new Promise((r) => (releaseEvent = r));
    const ack = await driver.event(
      {
        type: 'message',
        channel: 'C0OPS',
        user: 'U0ALICE',
        text: 'hello',
        ts: '1700000000.000100',
        channel_type: 'channel',
      },
      { retryNum: 1, retryReason: 'http_timeout' },
    );
    expect(ack.status).toBe(200);
    expect(seen).toEqual([]); // the listener is still held
    releaseEvent?.();
    const post = await fake.waitForCall('chat.postMessage');
    expect(post.seq).toBeGreaterThan(ack.seq);
    expect(post.args.text).toBe('echo hello');
    expect(seen[0]).toEqual({
      kind: 'message',
      data: { text: 'hello', thread_ts: undefined, retryNum: 1, retryReason: 'http_timeout' },
    });
    expect(ack.payload).toMatchObject({
      type: 'event_callback',
      authorizations: [{ user_id: fake.botUserId, is_bot: true }],
    });
  });

  it('delivers a thread reply that conversations.replies can see', async () => {
    const parent = await app.client.chat.postMessage({ channel: 'C0OPS', text: 'Campaign 9 is running' });
    const { ack, message } = await driver.userMessage({ text: 'pause it please', threadTs: parent.ts as string });
    expect(ack.status).toBe(200);
    expect(message.thread_ts).toBe(parent.ts);
    const replies = await fake.waitFor(() => seen.find((s) => s.kind === 'replies'));
    expect(replies.data.texts).toEqual(['Campaign 9 is running', 'pause it please']);
    expect(seen[0]?.data).toMatchObject({ text: 'pause it please', thread_ts: parent.ts, retryNum: undefined });
  });

  it("searches an external select of a modal: block_suggestion, answered with the app's options", async () => {
    await driver.command('new', { userId: 'U0ALICE' });
    const [view] = await fake.waitFor(() => (fake.openViews('U0ALICE').length ? fake.openViews('U0ALICE') : undefined));
    const r = await driver.suggestion({ viewId: view?.id as string, actionId: 'agent', value: 'va' });
    expect(r.status).toBe(200);
    expect(r.payload).toMatchObject({ type: 'block_suggestion', action_id: 'agent', block_id: 'owner', value: 'va' });
    expect(r.json).toEqual({ options: [{ text: { type: 'plain_text', text: 'Valeria' }, value: 'Valeria' }] });
    expect(seen.at(-1)).toEqual({ kind: 'options', data: { value: 'va', view: view?.id } });
    await expect(driver.suggestion({ viewId: view?.id as string, actionId: 'value', value: 'x' })).rejects.toThrow(
      /no external select with action_id value/,
    );
  });

  it('clicks a button in an ephemeral message; respond() replaces that ephemeral', async () => {
    const blocks = [
      {
        type: 'actions',
        block_id: 'decide',
        elements: [{ type: 'button', action_id: 'approve', value: 'c:4', text: { type: 'plain_text', text: 'OK' } }],
      },
    ];
    const { message_ts } = await app.client.chat.postEphemeral({
      channel: 'C0OPS',
      user: 'U0ALICE',
      text: 'Approve?',
      blocks,
    });
    const r = await driver.blockAction({ actionId: 'approve', ephemeralTs: message_ts as string, userId: 'U0ALICE' });
    expect(r.status).toBe(200);
    expect(r.payload).toMatchObject({
      container: { type: 'message', message_ts, channel_id: 'C0OPS', is_ephemeral: true },
      actions: [{ action_id: 'approve', block_id: 'decide', value: 'c:4' }],
    });
    expect(r.payload.message).toBeUndefined();
    await fake.waitFor(() => fake.ephemerals('C0OPS').find((e) => e.message_ts === message_ts)?.text === 'Approved');
    expect(fake.ephemerals('C0OPS')).toHaveLength(1);
    await expect(
      driver.blockAction({ actionId: 'approve', ephemeralTs: message_ts as string, userId: 'U0BOB' }),
    ).rejects.toThrow(/no ephemeral message/);
  });

  it('refuses an unsigned event and answers the URL verification challenge', async () => {
    const bad = await driver.event({ type: 'message', text: 'x', channel: 'C0OPS', ts: '1.1' }, { badSignature: true });
    expect(bad.status).toBe(401);
    const v = await driver.urlVerification('abc123');
    expect(v.status).toBe(200);
    expect(v.json).toEqual({ challenge: 'abc123' });
  });
});
