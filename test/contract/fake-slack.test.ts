// The fake Slack Web API, exercised through the real @slack/web-api WebClient over HTTP.
import { ErrorCode, WebClient, type WebAPIPlatformError, type WebAPIRateLimitedError } from '@slack/web-api';
import { startFakeSlack, type EmulatorChange, type FakeSlack, type Json } from '../../src/emulator/fake-slack.js';
import { LIMITS, validateBlocks, validateView } from '../../src/emulator/block-kit-limits.js';

let fake: FakeSlack;
let client: WebClient;

function newClient(token: string | undefined, extra: Json = {}): WebClient {
  return new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    // The fake answers invalid_blocks with Slack's "[ERROR] …" response messages, which WebClient logs.
    logger: {
      debug() {},
      info() {},
      warn() {},
      error() {},
      setLevel() {},
      getLevel: () => 'error' as never,
      setName() {},
    },
    ...extra,
  });
}

/** The platform error code of a failed call (fails the test if the call succeeded). */
async function slackError(p: Promise<unknown>): Promise<{ code: string; data: Json }> {
  try {
    await p;
  } catch (e) {
    const err = e as WebAPIPlatformError;
    if (err.code !== ErrorCode.PlatformError) throw e;
    return { code: err.data.error, data: err.data as unknown as Json };
  }
  throw new Error('expected the call to fail');
}

const section = (text: string, extra: Json = {}) => ({ type: 'section', text: { type: 'mrkdwn', text }, ...extra });
const button = (text: string, extra: Json = {}) => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id: 'b',
  ...extra,
});
const option = (text: string, value = 'v') => ({ text: { type: 'plain_text', text }, value });
const options = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));
const modal = (extra: Json = {}) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'New campaign' },
  blocks: [section('hi')],
  ...extra,
});
const inputBlock = (blockId = 'name') => ({
  type: 'input',
  block_id: blockId,
  label: { type: 'plain_text', text: 'Name' },
  element: { type: 'plain_text_input', action_id: 'value' },
});

beforeAll(async () => {
  fake = await startFakeSlack({
    channels: [
      { id: 'C0PUB', name: 'ops' },
      { id: 'C0OUT', name: 'outside', isMember: false },
      { id: 'G0PRIV', name: 'secret', isPrivate: true, isMember: false },
      { id: 'C0OLD', name: 'old', isArchived: true },
    ],
    users: [{ id: 'U0ALICE', name: 'alice', realName: 'Alice A', tz: 'Europe/Berlin', tzOffset: 3600 }],
    usergroups: { S0OPS: ['U0ALICE', 'U0BOB'] },
    strict: true,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  client = newClient(fake.botToken);
});

describe('auth and methods', () => {
  it('answers auth.test with the bot identity', async () => {
    const r = await client.auth.test();
    expect(r).toMatchObject({ ok: true, user_id: fake.botUserId, bot_id: fake.botId, team_id: fake.teamId });
    const [call] = fake.calls('auth.test');
    expect(call).toMatchObject({ method: 'auth.test', token: fake.botToken, ok: true, status: 200 });
  });

  it('rejects a wrong token with invalid_auth, a missing one with not_authed, a revoked one with token_revoked', async () => {
    expect((await slackError(newClient('xoxb-wrong').auth.test())).code).toBe('invalid_auth');
    expect((await slackError(newClient(undefined).auth.test())).code).toBe('not_authed');
    fake.revokeToken(fake.botToken);
    expect((await slackError(client.chat.postMessage({ channel: 'C0PUB', text: 'x' }))).code).toBe('token_revoked');
    expect(fake.messages('C0PUB')).toHaveLength(0);
  });

  it('answers an unknown method with unknown_method', async () => {
    const e = await slackError(client.apiCall('campaigns.launchRockets', { x: 1 }));
    expect(e.code).toBe('unknown_method');
    expect(fake.calls('campaigns.launchRockets')[0]?.error).toBe('unknown_method');
  });

  it('reads JSON request bodies with the token in the Authorization header', async () => {
    const res = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${fake.botToken}` },
      body: JSON.stringify({ channel: 'C0PUB', text: 'json', blocks: [section('json body')] }),
    });
    expect(await res.json()).toMatchObject({ ok: true, channel: 'C0PUB' });
    expect(fake.messages('C0PUB')[0]?.blocks).toHaveLength(1);
  });
});

describe('messages and threads', () => {
  it('gives increasing ts per channel and keeps messages, thread replies and metadata', async () => {
    const a = await client.chat.postMessage({
      channel: 'C0PUB',
      text: 'Campaign 7 started',
      metadata: { event_type: 'campaign_started', event_payload: { campaign_id: 7 } },
    });
    const b = await client.chat.postMessage({ channel: 'C0PUB', text: 'second' });
    expect(Number(b.ts)).toBeGreaterThan(Number(a.ts));
    const r1 = await client.chat.postMessage({ channel: 'C0PUB', thread_ts: a.ts as string, text: 'reply 1' });
    await client.chat.postMessage({ channel: 'C0PUB', thread_ts: a.ts as string, text: 'reply 2' });
    // A reply to a reply lands in the parent's thread.
    await client.chat.postMessage({ channel: 'C0PUB', thread_ts: r1.ts as string, text: 'reply 3' });

    expect(fake.messages('C0PUB').map((m) => m.text)).toEqual(['Campaign 7 started', 'second']);
    expect(fake.threadReplies('C0PUB', a.ts as string).map((m) => m.text)).toEqual(['reply 1', 'reply 2', 'reply 3']);
    expect(fake.messages('C0PUB')[0]).toMatchObject({
      reply_count: 3,
      thread_ts: a.ts,
      metadata: { event_type: 'campaign_started', event_payload: { campaign_id: 7 } },
      user: fake.botUserId,
      bot_id: fake.botId,
    });

    const replies = await client.conversations.replies({ channel: 'C0PUB', ts: a.ts as string });
    expect(replies.messages?.map((m) => m.text)).toEqual(['Campaign 7 started', 'reply 1', 'reply 2', 'reply 3']);
    expect(replies.messages?.[0]?.metadata).toBeUndefined(); // only with include_all_metadata
    const withMeta = await client.conversations.replies({
      channel: 'C0PUB',
      ts: a.ts as string,
      include_all_metadata: true,
    });
    expect(withMeta.messages?.[0]?.metadata?.event_payload).toEqual({ campaign_id: 7 });
    const page = await client.conversations.replies({ channel: 'C0PUB', ts: a.ts as string, limit: 2 });
    expect(page.messages).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const rest = await client.conversations.replies({
      channel: 'C0PUB',
      ts: a.ts as string,
      limit: 2,
      cursor: page.response_metadata?.next_cursor,
    });
    expect(rest.messages?.map((m) => m.text)).toEqual(['reply 2', 'reply 3']);
    const history = await client.conversations.history({ channel: 'C0PUB' });
    expect(history.messages?.map((m) => m.text)).toEqual(['second', 'Campaign 7 started']);
    expect(
      (await slackError(client.chat.postMessage({ channel: 'C0PUB', thread_ts: '1.000001', text: 'x' }))).code,
    ).toBe('thread_not_found');
  });

  it('updates, deletes, links and reacts to messages', async () => {
    const m = await client.chat.postMessage({ channel: 'C0PUB', text: 'v1', blocks: [section('v1')] });
    const ts = m.ts as string;
    await client.chat.update({ channel: 'C0PUB', ts, text: 'v2', blocks: [section('v2')] });
    expect(fake.message('C0PUB', ts)).toMatchObject({ text: 'v2', updates: 1, blocks: [{ text: { text: 'v2' } }] });
    const link = await client.chat.getPermalink({ channel: 'C0PUB', message_ts: ts });
    expect(link.permalink).toContain(`/archives/C0PUB/p${ts.replace('.', '')}`);
    await client.reactions.add({ channel: 'C0PUB', timestamp: ts, name: 'white_check_mark' });
    expect(
      (await slackError(client.reactions.add({ channel: 'C0PUB', timestamp: ts, name: 'white_check_mark' }))).code,
    ).toBe('already_reacted');
    expect(fake.message('C0PUB', ts)?.reactions).toEqual([
      { name: 'white_check_mark', users: [fake.botUserId], count: 1 },
    ]);
    await client.reactions.remove({ channel: 'C0PUB', timestamp: ts, name: 'white_check_mark' });
    expect(fake.message('C0PUB', ts)?.reactions).toBeUndefined();
    await client.chat.delete({ channel: 'C0PUB', ts });
    expect(fake.messages('C0PUB')).toHaveLength(0);
    expect((await slackError(client.chat.update({ channel: 'C0PUB', ts, text: 'v3' }))).code).toBe('message_not_found');
  });

  it('refuses chat.update text over 4000 characters with msg_too_long', async () => {
    const m = await client.chat.postMessage({ channel: 'C0PUB', text: 'short' });
    const ts = m.ts as string;
    await client.chat.update({ channel: 'C0PUB', ts, text: 'x'.repeat(LIMITS.chatUpdateText) });
    const e = await slackError(
      client.chat.update({ channel: 'C0PUB', ts, text: 'x'.repeat(LIMITS.chatUpdateText + 1) }),
    );
    expect(e.code).toBe('msg_too_long');
    expect(fake.message('C0PUB', ts)?.text).toHaveLength(4000);
  });

  it('applies channel rules: private non-member, archived, not a member, unknown', async () => {
    expect((await slackError(client.chat.postMessage({ channel: 'G0PRIV', text: 'x' }))).code).toBe(
      'channel_not_found',
    );
    expect((await slackError(client.chat.postMessage({ channel: 'C0OLD', text: 'x' }))).code).toBe('is_archived');
    expect((await slackError(client.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).code).toBe(
      'channel_not_found',
    );
    // Public channel the bot is not in: posting works (chat:write.public), reading a thread does not.
    const m = await client.chat.postMessage({ channel: 'C0OUT', text: 'hello' });
    expect((await slackError(client.conversations.replies({ channel: 'C0OUT', ts: m.ts as string }))).code).toBe(
      'not_in_channel',
    );
    await client.conversations.join({ channel: 'C0OUT' });
    expect((await client.conversations.replies({ channel: 'C0OUT', ts: m.ts as string })).messages).toHaveLength(1);
    expect((await slackError(client.conversations.join({ channel: 'C0OLD' }))).code).toBe('is_archived');
    expect((await slackError(client.chat.postMessage({ channel: 'C0PUB' } as never))).code).toBe('no_text');

    const info = await client.conversations.info({ channel: 'C0OLD' });
    expect(info.channel).toMatchObject({ id: 'C0OLD', is_archived: true, is_member: true, is_private: false });
    fake.updateChannel('C0PUB', { isArchived: true });
    expect((await slackError(client.chat.postMessage({ channel: 'C0PUB', text: 'x' }))).code).toBe('is_archived');
    fake.deleteChannel('C0OUT');
    expect((await slackError(client.conversations.info({ channel: 'C0OUT' }))).code).toBe('channel_not_found');
  });

  it('opens DMs, posts to a user id, stores ephemerals, looks up users and usergroups', async () => {
    const dm = await client.conversations.open({ users: 'U0ALICE' });
    const posted = await client.chat.postMessage({ channel: 'U0ALICE', text: 'your campaign finished' });
    expect(posted.channel).toBe(dm.channel?.id);
    expect(fake.messages(dm.channel?.id as string)[0]?.text).toBe('your campaign finished');
    await client.chat.postEphemeral({ channel: 'C0PUB', user: 'U0ALICE', text: 'only you' });
    expect(fake.ephemerals('C0PUB')).toMatchObject([{ user: 'U0ALICE', text: 'only you', via: 'chat.postEphemeral' }]);
    const u = await client.users.info({ user: 'U0ALICE' });
    expect(u.user).toMatchObject({ id: 'U0ALICE', real_name: 'Alice A', tz: 'Europe/Berlin', tz_offset: 3600 });
    expect((await slackError(client.users.info({ user: 'U0NOBODY' }))).code).toBe('user_not_found');
    expect((await client.usergroups.users.list({ usergroup: 'S0OPS' })).users).toEqual(['U0ALICE', 'U0BOB']);
    expect((await slackError(client.usergroups.users.list({ usergroup: 'S0NONE' }))).code).toBe('no_such_subteam');
  });

  it('lists a channel’s members page by page, the bot among them when it is in; a private one only to a member', async () => {
    const people = Array.from({ length: 5 }, (_, i) => `U0P${i}`);
    fake.addChannel({ id: 'C0MANY', members: people });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.conversations.members({ channel: 'C0MANY', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.members!.length).toBeLessThanOrEqual(2);
      seen.push(...page.members!);
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    expect(seen).toEqual([...people, fake.botUserId]);
    fake.addChannel({ id: 'G0CLOSED', isPrivate: true, isMember: false, members: people });
    expect((await slackError(client.conversations.members({ channel: 'G0CLOSED' }))).code).toBe('channel_not_found');
    expect((await client.conversations.members({ channel: 'C0OUT' })).members).toEqual([]);
  });
});

describe('Block Kit limits', () => {
  const cases: [string, unknown[], string][] = [
    ['51 blocks', Array.from({ length: 51 }, () => ({ type: 'divider' })), '/blocks'],
    ['section text of 3001', [section('x'.repeat(3001))], '/blocks/0/text/text'],
    [
      '11 section fields',
      [{ type: 'section', fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' })) }],
      '/blocks/0/fields',
    ],
    [
      'a field of 2001',
      [{ type: 'section', fields: [{ type: 'mrkdwn', text: 'x'.repeat(2001) }] }],
      '/blocks/0/fields/0/text',
    ],
    ['header of 151', [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }], '/blocks/0/text/text'],
    ['mrkdwn header', [{ type: 'header', text: { type: 'mrkdwn', text: 'x' } }], '/blocks/0/text/type'],
    ['button text of 76', [{ type: 'actions', elements: [button('x'.repeat(76))] }], '/blocks/0/elements/0/text/text'],
    [
      'button value of 2001',
      [{ type: 'actions', elements: [button('ok', { value: 'x'.repeat(2001) })] }],
      '/blocks/0/elements/0/value',
    ],
    [
      'action_id of 256',
      [{ type: 'actions', elements: [button('ok', { action_id: 'a'.repeat(256) })] }],
      '/blocks/0/elements/0/action_id',
    ],
    ['block_id of 256', [section('x', { block_id: 'b'.repeat(256) })], '/blocks/0/block_id'],
    [
      '26 actions elements',
      [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button('b', { action_id: `a${i}` })) }],
      '/blocks/0/elements',
    ],
    [
      '11 context elements',
      [{ type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'c' })) }],
      '/blocks/0/elements',
    ],
    [
      'option text of 76',
      [section('s', { accessory: { type: 'static_select', action_id: 's', options: [option('x'.repeat(76))] } })],
      '/blocks/0/accessory/options/0/text/text',
    ],
    [
      'option value of 151',
      [section('s', { accessory: { type: 'static_select', action_id: 's', options: [option('o', 'v'.repeat(151))] } })],
      '/blocks/0/accessory/options/0/value',
    ],
    [
      '101 select options',
      [section('s', { accessory: { type: 'static_select', action_id: 's', options: options(101) } })],
      '/blocks/0/accessory/options',
    ],
    [
      'overflow with 6 options',
      [section('s', { accessory: { type: 'overflow', action_id: 'o', options: options(6) } })],
      '/blocks/0/accessory/options',
    ],
    [
      'overflow with 0 options',
      [section('s', { accessory: { type: 'overflow', action_id: 'o', options: [] } })],
      '/blocks/0/accessory/options',
    ],
    ['empty text', [section('')], '/blocks/0/text/text'],
    [
      'duplicate block_ids',
      [section('a', { block_id: 'same' }), section('b', { block_id: 'same' })],
      '/blocks/1/block_id',
    ],
    [
      'confirm title of 101',
      [
        {
          type: 'actions',
          elements: [
            button('go', {
              confirm: {
                title: { type: 'plain_text', text: 'x'.repeat(101) },
                text: { type: 'plain_text', text: 'sure?' },
                confirm: { type: 'plain_text', text: 'Yes' },
                deny: { type: 'plain_text', text: 'No' },
              },
            }),
          ],
        },
      ],
      '/blocks/0/elements/0/confirm/title/text',
    ],
    ['unknown block type', [{ type: 'carousel' }], '/blocks/0/type'],
  ];

  it.each(cases)('rejects %s with invalid_blocks naming the place', async (_name, blocks, pointer) => {
    const e = await slackError(
      client.chat.postMessage({ channel: 'C0PUB', text: 'fallback', blocks: blocks as never }),
    );
    expect(e.code).toBe('invalid_blocks');
    expect((e.data.errors as string[]).join('\n')).toContain(`[json-pointer:${pointer}]`);
    expect(fake.messages('C0PUB')).toHaveLength(0);
  });

  it('accepts blocks exactly at the limits', async () => {
    const blocks = [
      section('x'.repeat(3000), {
        block_id: 'b'.repeat(255),
        accessory: { type: 'static_select', action_id: 'a'.repeat(255), options: options(100) },
      }),
      { type: 'section', fields: Array.from({ length: 10 }, () => ({ type: 'mrkdwn', text: 'y'.repeat(2000) })) },
      { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(150) } },
      { type: 'context', elements: Array.from({ length: 10 }, () => ({ type: 'mrkdwn', text: 'c' })) },
      {
        type: 'actions',
        elements: [
          button('t'.repeat(75), { value: 'v'.repeat(2000) }),
          ...Array.from({ length: 24 }, (_, i) => button('b', { action_id: `a${i}` })),
        ],
      },
      section('s', {
        accessory: {
          type: 'overflow',
          action_id: 'o',
          options: [option('o'.repeat(75), 'v'.repeat(150)), ...options(4)],
        },
      }),
      ...Array.from({ length: 44 }, () => ({ type: 'divider' })),
    ];
    expect(blocks).toHaveLength(50);
    const r = await client.chat.postMessage({ channel: 'C0PUB', text: 'fallback', blocks: blocks as never });
    expect(r.ok).toBe(true);
    // Slack fills in missing ids: every block and interactive element can be addressed afterwards.
    const stored = fake.messages('C0PUB')[0]?.blocks as Json[];
    expect(stored.every((b) => typeof b.block_id === 'string')).toBe(true);
  });

  it('rejects views over the modal limits with invalid_arguments, and oversize views with view_too_large', async () => {
    const open = (view: Json) => client.views.open({ trigger_id: fake.issueTriggerId(), view: view as never });
    const bad: [Json, string][] = [
      [modal({ title: { type: 'plain_text', text: 'x'.repeat(25) } }), '/view/title/text'],
      [modal({ submit: { type: 'plain_text', text: 'x'.repeat(25) } }), '/view/submit/text'],
      [modal({ close: { type: 'plain_text', text: 'x'.repeat(25) } }), '/view/close/text'],
      [modal({ blocks: [inputBlock()] }), '/view/submit'],
      [modal({ private_metadata: 'm'.repeat(3001) }), '/view/private_metadata'],
      [modal({ blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) }), '/view/blocks'],
      [modal({ blocks: [section('x'.repeat(3001))] }), '/view/blocks/0/text/text'],
    ];
    for (const [view, pointer] of bad) {
      const e = await slackError(open(view));
      expect(e.code).toBe('invalid_arguments');
      expect((e.data.errors as string[]).join('\n')).toContain(`[json-pointer:${pointer}]`);
    }
    const huge = modal({ blocks: Array.from({ length: 100 }, () => section('x'.repeat(2600))) });
    expect((await slackError(open(huge))).code).toBe('view_too_large');
    const ok = modal({
      title: { type: 'plain_text', text: 't'.repeat(24) },
      submit: { type: 'plain_text', text: 's'.repeat(24) },
      private_metadata: 'm'.repeat(3000),
      blocks: [inputBlock(), ...Array.from({ length: 99 }, () => ({ type: 'divider' }))],
    });
    expect((await open(ok)).ok).toBe(true);
  });

  it('exposes the same checks as pure functions', () => {
    expect(validateBlocks([section('ok')])).toEqual([]);
    expect(
      validateBlocks(
        [{ type: 'input', label: { type: 'plain_text', text: 'L' }, element: { type: 'file_input', max_files: 11 } }],
        'modal',
      ),
    ).toEqual([expect.stringContaining('[json-pointer:/blocks/0/element/max_files]')]);
    expect(
      validateView({ type: 'home', blocks: Array.from({ length: 100 }, () => ({ type: 'divider' })) }, 'home'),
    ).toEqual([]);
    expect(validateView(modal(), 'home')).toEqual([expect.stringContaining('must be home')]);
  });
});

describe('views and trigger ids', () => {
  it('opens a modal once per trigger id and refuses expired, reused and unknown ones', async () => {
    const trigger = fake.issueTriggerId({ userId: 'U0ALICE' });
    const r = await client.views.open({ trigger_id: trigger, view: modal() as never });
    expect(r.view).toMatchObject({ type: 'modal', root_view_id: r.view?.id, state: { values: {} } });
    expect(fake.openViews('U0ALICE').map((v) => v.id)).toEqual([r.view?.id]);
    expect((await slackError(client.views.open({ trigger_id: trigger, view: modal() as never }))).code).toBe(
      'exchanged_trigger_id',
    );
    const old = fake.issueTriggerId({ ageMs: 3500 });
    expect((await slackError(client.views.open({ trigger_id: old, view: modal() as never }))).code).toBe(
      'expired_trigger_id',
    );
    expect((await slackError(client.views.open({ trigger_id: '1.2.nope', view: modal() as never }))).code).toBe(
      'invalid_trigger_id',
    );
  });

  it('lets a trigger id expire in real time (short TTL)', async () => {
    // Long enough for the first open to arrive in time on a busy machine; the second waits it out.
    const quick = await startFakeSlack({ triggerTtlMs: 1500 });
    try {
      const c = new WebClient(quick.botToken, { slackApiUrl: quick.apiUrl, retryConfig: { retries: 0 } });
      const t1 = quick.issueTriggerId();
      const t2 = quick.issueTriggerId();
      expect((await c.views.open({ trigger_id: t1, view: modal() as never })).ok).toBe(true);
      await new Promise((r) => setTimeout(r, 1600));
      expect((await slackError(c.views.open({ trigger_id: t2, view: modal() as never }))).code).toBe(
        'expired_trigger_id',
      );
    } finally {
      await quick.close();
    }
  });

  it('updates a view only with its current hash (hash_conflict otherwise), by id or external_id', async () => {
    const opened = await client.views.open({
      trigger_id: fake.issueTriggerId(),
      view: modal({ external_id: 'camp-1' }) as never,
    });
    const v1 = opened.view as Json;
    const u1 = await client.views.update({
      view_id: v1.id as string,
      hash: v1.hash as string,
      view: modal({ callback_id: 'step2' }) as never,
    });
    expect(u1.view?.hash).not.toBe(v1.hash);
    expect(u1.view?.id).toBe(v1.id);
    const stale = await slackError(
      client.views.update({ view_id: v1.id as string, hash: v1.hash as string, view: modal() as never }),
    );
    expect(stale.code).toBe('hash_conflict');
    expect(fake.view(v1.id as string)?.callback_id).toBe('step2');
    await client.views.update({
      external_id: 'camp-1',
      view: modal({ callback_id: 'step3', external_id: 'camp-1' }) as never,
    });
    expect(fake.view(v1.id as string)?.callback_id).toBe('step3');
    expect((await slackError(client.views.update({ view_id: 'V0NOPE', view: modal() as never }))).code).toBe(
      'not_found',
    );
    fake.closeView(v1.id as string);
    expect((await slackError(client.views.update({ view_id: v1.id as string, view: modal() as never }))).code).toBe(
      'not_found',
    );
  });

  it('pushes up to three views and publishes Home tabs with hash checks', async () => {
    const user = 'U0ALICE';
    await client.views.open({ trigger_id: fake.issueTriggerId({ userId: user }), view: modal() as never });
    await client.views.push({ trigger_id: fake.issueTriggerId({ userId: user }), view: modal() as never });
    const third = await client.views.push({
      trigger_id: fake.issueTriggerId({ userId: user }),
      view: modal() as never,
    });
    expect(fake.openViews(user)).toHaveLength(3);
    expect(third.view?.root_view_id).toBe(fake.openViews(user)[0]?.id);
    expect(
      (
        await slackError(
          client.views.push({ trigger_id: fake.issueTriggerId({ userId: user }), view: modal() as never }),
        )
      ).code,
    ).toBe('push_limit_reached');

    const home = { type: 'home', blocks: [section('Campaigns')] };
    const p1 = await client.views.publish({ user_id: user, view: home as never });
    expect(fake.publishedHome(user)?.blocks).toMatchObject([{ text: { text: 'Campaigns' } }]);
    const p2 = await client.views.publish({
      user_id: user,
      hash: p1.view?.hash,
      view: { ...home, blocks: [section('v2')] } as never,
    });
    expect(p2.view?.id).toBe(p1.view?.id);
    expect(
      (await slackError(client.views.publish({ user_id: user, hash: p1.view?.hash, view: home as never }))).code,
    ).toBe('hash_conflict');
    expect((await slackError(client.views.publish({ user_id: user, view: modal() as never }))).code).toBe(
      'invalid_arguments',
    );
  });
});

describe('rate limits and injected failures', () => {
  it('answers 429 with Retry-After per channel once the burst is spent', async () => {
    fake.setPostMessageRateLimit({ burst: 2, perSecond: 1 });
    const c = newClient(fake.botToken, { rejectRateLimitedCalls: true });
    await c.chat.postMessage({ channel: 'C0PUB', text: '1' });
    await c.chat.postMessage({ channel: 'C0PUB', text: '2' });
    const err = (await c.chat
      .postMessage({ channel: 'C0PUB', text: '3' })
      .catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    expect(err.retryAfter).toBe(1);
    const last = fake.calls('chat.postMessage').at(-1);
    expect(last).toMatchObject({ status: 429, ok: false, error: 'ratelimited' });
    // Another channel has its own allowance; the limited message was not stored.
    await c.chat.postMessage({ channel: 'C0OUT', text: 'elsewhere' });
    expect(fake.messages('C0PUB').map((m) => m.text)).toEqual(['1', '2']);
  });

  it("enforces Slack's per-method limits for the workspace only when asked (tierLimits)", async () => {
    // Off by default: 60 updates a minute (over Tier 3's 50) all go through.
    const first = await client.chat.postMessage({ channel: 'C0PUB', text: 'x' });
    for (let i = 0; i < 60; i++) await client.chat.update({ channel: 'C0PUB', ts: first.ts as string, text: `${i}` });
    expect(fake.calls('chat.update').every((c) => c.status === 200)).toBe(true);

    fake.setTierLimits(true);
    const c = newClient(fake.botToken, { rejectRateLimitedCalls: true });
    // Tier 3 (chat.update, conversations.history): 50 in any minute; Tier 4 (users.info): 100.
    for (let i = 0; i < 50; i++) await c.chat.update({ channel: 'C0PUB', ts: first.ts as string, text: `t${i}` });
    const err = (await c.chat
      .update({ channel: 'C0PUB', ts: first.ts as string, text: 'over' })
      .catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    // Slack's Retry-After: the seconds until the oldest call of the window leaves it.
    expect(err.retryAfter).toBeGreaterThanOrEqual(59);
    expect(err.retryAfter).toBeLessThanOrEqual(60);
    expect(fake.calls('chat.update').at(-1)).toMatchObject({ status: 429, error: 'ratelimited' });
    expect(fake.message('C0PUB', first.ts as string)?.text).toBe('t49');
    for (let i = 0; i < 100; i++) await c.users.info({ user: 'U0ALICE' });
    await expect(c.users.info({ user: 'U0ALICE' })).rejects.toMatchObject({ code: ErrorCode.RateLimitedError });
    for (let i = 0; i < 50; i++) await c.conversations.history({ channel: 'C0PUB' });
    await expect(c.conversations.history({ channel: 'C0PUB' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
    });
    // A method of its own window is not held up by the others.
    expect((await c.chat.postEphemeral({ channel: 'C0PUB', user: 'U0ALICE', text: 'hi' })).ok).toBe(true);
    // Counted per method: every call, and the 429s the fake's limits gave.
    expect(fake.counts()).toMatchObject({
      'chat.update': { calls: 111, ratelimited: 1 },
      'users.info': { calls: 101, ratelimited: 1 },
      'conversations.history': { calls: 51, ratelimited: 1 },
      'chat.postEphemeral': { calls: 1, ratelimited: 0 },
      'chat.postMessage': { calls: 1, ratelimited: 0 },
    });
  });

  it('caps chat.postMessage per channel and for the whole workspace; the window slides', async () => {
    fake.setTierLimits({ perMinute: { 'chat.postMessage': 5 }, timeScale: 60 }); // 5 a second, workspace-wide
    fake.setPostMessageRateLimit({ burst: 3, perSecond: 1 });
    for (const id of ['C1', 'C2', 'C3']) fake.addChannel({ id });
    const c = newClient(fake.botToken, { rejectRateLimitedCalls: true });
    for (let i = 0; i < 3; i++) await c.chat.postMessage({ channel: 'C0PUB', text: `p${i}` });
    // The channel's burst is spent; the workspace still has room.
    await expect(c.chat.postMessage({ channel: 'C0PUB', text: 'p3' })).rejects.toMatchObject({ retryAfter: 1 });
    await c.chat.postMessage({ channel: 'C1', text: 'a' });
    await c.chat.postMessage({ channel: 'C2', text: 'b' });
    // Five accepted in this second: a fresh channel is refused by the workspace cap.
    await expect(c.chat.postMessage({ channel: 'C3', text: 'c' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 1,
    });
    expect(fake.counts()['chat.postMessage']).toEqual({ calls: 7, ratelimited: 2 });
    await new Promise((r) => setTimeout(r, 1_050));
    // The window has room again, and C3's channel allowance was not spent by the refusal.
    for (let i = 0; i < 3; i++) await c.chat.postMessage({ channel: 'C3', text: `c${i}` });
    expect(fake.messages('C3').map((m) => m.text)).toEqual(['c0', 'c1', 'c2']);
  });

  it('turns the per-channel chat.postMessage pace on with the tiers, scaled like them', async () => {
    // Time ×2 (2 messages a second, a burst of 3): slow enough that a busy machine's delay between the calls stays far
    // below it.
    const scaled = await startFakeSlack({ tierLimits: { timeScale: 2 }, checkRawMentions: false });
    try {
      const c = new WebClient(scaled.botToken, {
        slackApiUrl: scaled.apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });
      // Burst 3 at 2 messages/s (time ×2): the 4th at once is refused, one 750 ms later goes through.
      for (let i = 0; i < 3; i++) await c.chat.postMessage({ channel: 'C9', text: `${i}` });
      await expect(c.chat.postMessage({ channel: 'C9', text: 'x' })).rejects.toMatchObject({
        code: ErrorCode.RateLimitedError,
      });
      await new Promise((r) => setTimeout(r, 750));
      expect((await c.chat.postMessage({ channel: 'C9', text: 'later' })).ok).toBe(true);
      expect(scaled.counts()['chat.postMessage']).toEqual({ calls: 5, ratelimited: 1 });
    } finally {
      await scaled.close();
    }
  });

  it('lets WebClient wait out a Retry-After and retry', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
    const c = newClient(fake.botToken, { retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 } });
    const r = await c.chat.postMessage({ channel: 'C0PUB', text: 'after retry' });
    expect(r.ok).toBe(true);
    expect(fake.calls('chat.postMessage').map((x) => x.status)).toEqual([429, 200]);
    expect(fake.messages('C0PUB')).toHaveLength(1);
  });

  it('injects platform errors, HTTP errors and lost responses', async () => {
    fake.failNext('chat.postMessage', 'channel_not_found');
    expect((await slackError(client.chat.postMessage({ channel: 'C0PUB', text: 'x' }))).code).toBe('channel_not_found');
    fake.failNext('chat.update', { status: 503 }, 2);
    for (let i = 0; i < 2; i++) {
      const e = (await client.chat.update({ channel: 'C0PUB', ts: '1.2', text: 'x' }).catch((x: unknown) => x)) as {
        code: string;
        statusCode: number;
      };
      expect(e).toMatchObject({ code: ErrorCode.HTTPError, statusCode: 503 });
    }
    fake.failNext('chat.postMessage', { afterApply: true, dropConnection: true });
    const lost = (await client.chat
      .postMessage({ channel: 'C0PUB', text: 'posted but unanswered' })
      .catch((x: unknown) => x)) as {
      code: string;
    };
    expect(lost.code).toBe(ErrorCode.RequestError);
    // The message exists although the caller saw a failure: retrying blindly would post it twice.
    expect(fake.messages('C0PUB').map((m) => m.text)).toEqual(['posted but unanswered']);
    expect(fake.calls('chat.postMessage').map((c) => c.ok)).toEqual([false, false]);
  });

  it('waits for calls and gives up with a list of what it saw', async () => {
    const waiting = fake.waitForCall('chat.postMessage', (c) => c.args.text === 'later');
    setTimeout(() => void client.chat.postMessage({ channel: 'C0PUB', text: 'later' }), 20);
    expect((await waiting).args).toMatchObject({ channel: 'C0PUB', text: 'later' });
    await expect(fake.waitForCall('views.open', undefined, 50)).rejects.toThrow(/chat\.postMessage/);
  });
});

describe('files', () => {
  it('uploads with filesUploadV2 into a thread, and the bytes land in the fake', async () => {
    const parent = await client.chat.postMessage({ channel: 'C0PUB', text: 'Campaign report' });
    const bytes = Buffer.from('phone,name\n+4915112345678,Zoë\n', 'utf8');
    const r = await client.filesUploadV2({
      channel_id: 'C0PUB',
      thread_ts: parent.ts as string,
      file: bytes,
      filename: 'results.csv',
      title: 'Results',
      initial_comment: 'Here are the results',
    });
    expect(r.ok).toBe(true);
    const [uploaded] = fake.uploadedFiles();
    expect(uploaded).toMatchObject({ name: 'results.csv', title: 'Results', channel: 'C0PUB', threadTs: parent.ts });
    expect(uploaded?.bytes.equals(bytes)).toBe(true);
    expect(uploaded?.declaredLength).toBe(bytes.length);
    const [reply] = fake.threadReplies('C0PUB', parent.ts as string);
    expect(reply).toMatchObject({ text: 'Here are the results', files: [{ id: uploaded?.id, name: 'results.csv' }] });
    expect(fake.calls().map((c) => c.method)).toEqual([
      'chat.postMessage',
      'files.getUploadURLExternal',
      'upload',
      'files.completeUploadExternal',
    ]);
    const info = await client.files.info({ file: uploaded?.id as string });
    expect(info.file).toMatchObject({ name: 'results.csv', mimetype: 'text/csv', size: bytes.length });
  });

  it('fails completeUploadExternal for a channel the bot is not in', async () => {
    const e = await slackError(client.filesUploadV2({ channel_id: 'C0OUT', content: 'x', filename: 'x.txt' }));
    expect(e.code).toBe('not_in_channel');
  });

  it('serves registered files only with the bot token; otherwise the sign-in page', async () => {
    const f = fake.addFile({ name: 'contacts.csv', content: 'phone\n+441234567890\n' });
    expect(f.url_private_download.startsWith(fake.baseUrl)).toBe(true);
    const ok = await fetch(f.url_private_download, { headers: { Authorization: `Bearer ${fake.botToken}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/csv');
    expect(await ok.text()).toBe('phone\n+441234567890\n');
    for (const headers of [{}, { Authorization: 'Bearer xoxb-wrong' }] as Record<string, string>[]) {
      const page = await fetch(f.url_private_download, { headers });
      expect(page.status).toBe(200); // after the redirect, like real Slack: no clean 401
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('Sign in');
    }
    expect(fake.calls('download').map((c) => c.ok)).toEqual([true, false, false]);
    expect((await client.files.info({ file: f.id })).file?.name).toBe('contacts.csv');
    expect((await slackError(client.files.info({ file: 'F0NOPE' }))).code).toBe('file_not_found');
  });
});

describe('response_url', () => {
  it('accepts five uses within its lifetime and acts on each', async () => {
    const msg = await client.chat.postMessage({ channel: 'C0PUB', text: 'Approve campaign 3?' });
    const url = fake.issueResponseUrl({ channelId: 'C0PUB', userId: 'U0ALICE', messageTs: msg.ts as string });
    const post = (body: Json) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ text: 'just for you' })).status).toBe(200);
    expect((await post({ text: 'Approved by Alice', replace_original: true })).status).toBe(200);
    expect((await post({ text: 'for everyone', response_type: 'in_channel' })).status).toBe(200);
    expect((await post({ text: 'again' })).status).toBe(200);
    expect((await post({ text: 'fifth' })).status).toBe(200);
    const sixth = await post({ text: 'sixth' });
    expect(sixth.status).toBe(404);
    expect(fake.ephemerals('C0PUB').map((e) => e.text)).toEqual(['just for you', 'again', 'fifth']);
    expect(fake.messages('C0PUB').map((m) => m.text)).toEqual(['Approved by Alice', 'for everyone']);
    expect(fake.responseUrlUses().map((u) => u.status)).toEqual([200, 200, 200, 200, 200, 404]);

    const expired = fake.issueResponseUrl({ channelId: 'C0PUB', ageMs: 31 * 60_000 });
    const r = await fetch(expired, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"text":"late"}',
    });
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('expired_url');
  });
});

describe('onChange: what a watcher of the emulator is told', () => {
  it('names each message posted, updated and deleted, each ephemeral and view, and each refusal with its JSON path', async () => {
    const changes: EmulatorChange[] = [];
    const stop = fake.onChange((c) => changes.push(c));
    const posted = await client.chat.postMessage({ channel: 'C0PUB', text: 'one' });
    const ts = posted.ts as string;
    await client.chat.update({ channel: 'C0PUB', ts, text: 'one, edited' });
    await client.chat.postEphemeral({ channel: 'C0PUB', user: 'U0ALICE', text: 'only you' });
    await client.views.publish({ user_id: 'U0ALICE', view: { type: 'home', blocks: [] } });
    await slackError(
      client.chat.postMessage({
        channel: 'C0PUB',
        text: 'x',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(LIMITS.text + 1) } }],
      }),
    );
    await client.chat.delete({ channel: 'C0PUB', ts });
    stop();
    await client.chat.postMessage({ channel: 'C0PUB', text: 'unseen' });
    expect(changes).toEqual([
      { kind: 'message', channel: 'C0PUB', ts },
      { kind: 'message', channel: 'C0PUB', ts },
      { kind: 'ephemeral', ephemeral: expect.objectContaining({ user: 'U0ALICE', text: 'only you' }) },
      { kind: 'view', viewId: expect.stringMatching(/^V/) },
      {
        kind: 'refusal',
        refusal: {
          method: 'chat.postMessage',
          error: 'invalid_blocks',
          path: 'blocks[0].text.text',
          detail: expect.stringContaining('3001'),
        },
      },
      { kind: 'message_deleted', channel: 'C0PUB', ts },
    ]);
  });
});

describe('reset', () => {
  it('forgets calls and state but keeps the configured channels', async () => {
    await client.chat.postMessage({ channel: 'C0PUB', text: 'x' });
    fake.failNext('auth.test', 'fatal_error');
    fake.reset();
    expect(fake.calls()).toEqual([]);
    expect(fake.counts()).toEqual({});
    expect(fake.messages('C0PUB')).toEqual([]);
    expect((await client.auth.test()).ok).toBe(true);
    expect(fake.channel('G0PRIV')).toMatchObject({ isPrivate: true, isMember: false });
  });
});
