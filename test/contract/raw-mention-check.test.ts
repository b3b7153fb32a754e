/**
 * The fake Slack's raw-mention check (src/emulator/raw-mentions.ts), which fails any test during which the app sends text
 * from outside as a live `<…>` sequence: it must see every displayed field of every method, report what the app
 * cannot have meant, and leave alone what the app writes on purpose.
 */
import { WebClient } from '@slack/web-api';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { displayedTexts, takeRawMentions, textProblems, type MentionScope } from '../../src/emulator/raw-mentions.js';

const scope: MentionScope = {
  isUser: (id) => id === 'U0ADMIN',
  isChannel: (id) => id === 'C0OPS',
  isUsergroup: (id) => id === 'S0ADMINS',
};
const flagged = (text: string) => textProblems(text, scope).map((p) => p.sequence);

describe('what counts as a raw mention', () => {
  it('broadcasts, always', () => {
    expect(flagged('hi <!channel> <!here> <!everyone> <!here|here>')).toEqual([
      '<!channel>',
      '<!here>',
      '<!everyone>',
      '<!here|here>',
    ]);
  });

  it("mentions of ids the workspace does not know, labelled ones, malformed ones and hostile fixtures' ids", () => {
    expect(flagged('<@U0STRANGER> <#C0ELSEWHERE> <!subteam^S0OTHER> <@U0ADMIN|boss> <@lol> <@U0HOSTILE>')).toEqual([
      '<@U0STRANGER>',
      '<#C0ELSEWHERE>',
      '<!subteam^S0OTHER>',
      '<@U0ADMIN|boss>',
      '<@lol>',
      '<@U0HOSTILE>',
    ]);
  });

  it('links to a hostile fixture host or with another scheme; a `<word>` Slack would try to read', () => {
    expect(
      flagged('<https://evil.example/x|click> <https://a.evil.example> <javascript:alert(1)|x> <agent id>'),
    ).toEqual(['<https://evil.example/x|click>', '<https://a.evil.example>', '<javascript:alert(1)|x>', '<agent id>']);
  });

  it("not what the app writes on purpose: mentions of the workspace's people, channels and groups, links", () => {
    expect(
      flagged(
        '<@U0ADMIN> set <#C0OPS> for <!subteam^S0ADMINS>: <https://cdn.example.com/a.png|📎 image> <mailto:a@b.c>',
      ),
    ).toEqual([]);
    expect(flagged('&lt;!channel&gt; &lt;@U0HOSTILE&gt; &amp; co')).toEqual([]);
  });
});

describe('which fields are looked at', () => {
  it('every displayed text of messages, views, files and attachments; not values Slack hands back', () => {
    const payload = {
      text: 'top',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'header' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'section' },
          fields: [{ type: 'mrkdwn', text: 'field' }],
          accessory: {
            type: 'static_select',
            placeholder: { type: 'plain_text', text: 'placeholder' },
            options: [{ text: { type: 'plain_text', text: 'option' }, value: 'opt-value' }],
          },
        },
        {
          type: 'input',
          label: { type: 'plain_text', text: 'label' },
          hint: { type: 'plain_text', text: 'hint' },
          element: { type: 'plain_text_input', action_id: 'a', initial_value: 'initial' },
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'button' },
              value: 'button-value',
              confirm: { title: { type: 'plain_text', text: 'confirm title' }, text: { type: 'mrkdwn', text: 'c' } },
            },
          ],
        },
      ],
      view: { title: { type: 'plain_text', text: 'view title' }, private_metadata: 'meta' },
      attachments: [{ fallback: 'fallback', pretext: 'pretext', fields: [{ title: 'att title', value: 'att value' }] }],
      files: [{ id: 'F1', title: 'file title' }],
      initial_comment: 'comment',
      metadata: { event_type: 'x', event_payload: { text: 'not shown' } },
    };
    const texts = displayedTexts(payload).map((t) => t.text);
    for (const shown of [
      'top',
      'header',
      'section',
      'field',
      'placeholder',
      'option',
      'label',
      'hint',
      'button',
      'confirm title',
      'c',
      'view title',
      'fallback',
      'pretext',
      'att title',
      'att value',
      'file title',
      'comment',
    ]) {
      expect(texts).toContain(shown);
    }
    for (const hidden of ['opt-value', 'initial', 'button-value', 'meta', 'not shown'])
      expect(texts).not.toContain(hidden);
  });
});

describe('the fake Slack reports what the app sends', () => {
  let fake: FakeSlack;
  let client: WebClient;
  beforeAll(async () => {
    fake = await startFakeSlack({ channels: [{ id: 'C0OPS' }], users: [{ id: 'U0ANA' }] });
    client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => fake.close());
  afterEach(() => {
    // What these tests sent on purpose must not fail them through the jest setup file.
    takeRawMentions();
  });

  it('in chat.postMessage / chat.update / chat.postEphemeral, views and file comments', async () => {
    const posted = await client.chat.postMessage({
      channel: 'C0OPS',
      text: 'hi <!here>',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'from <@U0HOSTILE>' } }],
    });
    await client.chat.update({ channel: 'C0OPS', ts: posted.ts!, text: 'now <https://evil.example|click>' });
    await client.chat.postEphemeral({ channel: 'C0OPS', user: 'U0ANA', text: 'psst <!channel>' });
    await client.views.publish({
      user_id: 'U0ANA',
      view: {
        type: 'home',
        blocks: [
          {
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: '<!everyone>' }, action_id: 'b' }],
          },
        ],
      },
    });
    await client.filesUploadV2({
      channel_id: 'C0OPS',
      file: Buffer.from('a,b\n'),
      filename: 'r.csv',
      title: 'report <#C0HOSTILE>',
      initial_comment: 'rows of <!subteam^S0HOSTILE>',
    });
    const found = fake.rawMentions().map((r) => `${r.method} ${r.path} ${r.sequence}`);
    expect(found).toEqual([
      'chat.postMessage text <!here>',
      'chat.postMessage blocks[0].text.text <@U0HOSTILE>',
      'chat.update text <https://evil.example|click>',
      'chat.postEphemeral text <!channel>',
      'views.publish view.blocks[0].elements[0].text.text <!everyone>',
      expect.stringMatching(/^files.completeUploadExternal files\[0\]\.title <#C0HOSTILE>$/),
      'files.completeUploadExternal initial_comment <!subteam^S0HOSTILE>',
    ]);
  });

  it('lets the app mention a person Slack gave it by email (users.lookupByEmail), not an id from elsewhere', async () => {
    fake.addUser({ id: 'U0MARIA', email: 'Maria@Example.com' });
    const found = await client.users.lookupByEmail({ email: 'maria@example.com' });
    expect(found.user?.id).toBe('U0MARIA');
    await expect(client.users.lookupByEmail({ email: 'nobody@example.com' })).rejects.toMatchObject({
      data: { error: 'users_not_found' },
    });
    const before = fake.rawMentions().length;
    await client.chat.postMessage({ channel: 'C0OPS', text: `<@${found.user!.id}> the customer wrote` });
    expect(fake.rawMentions()).toHaveLength(before);
    await client.chat.postMessage({ channel: 'C0OPS', text: 'assigned to <@U0STRANGER>' });
    expect(
      fake
        .rawMentions()
        .slice(before)
        .map((r) => r.sequence),
    ).toEqual(['<@U0STRANGER>']);
  });

  it('and in response_url bodies and the modal errors of a view_submission ack', async () => {
    const before = fake.rawMentions().length;
    const url = fake.issueResponseUrl({ channelId: 'C0OPS', userId: 'U0ANA' });
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'ok <@U0ANA> but <!here>' }),
    });
    const opened = await client.views.open({
      trigger_id: fake.issueTriggerId({ userId: 'U0ANA' }),
      view: {
        type: 'modal',
        title: { type: 'plain_text', text: 'Form' },
        submit: { type: 'plain_text', text: 'Save' },
        blocks: [
          {
            type: 'input',
            block_id: 'file',
            label: { type: 'plain_text', text: 'File' },
            element: { type: 'plain_text_input', action_id: 'file' },
          },
        ],
      },
    });
    fake.applyViewSubmissionAck(opened.view!.id!, {
      response_action: 'errors',
      errors: { file: '"<!channel>.csv" has no phone column' },
    });
    expect(
      fake
        .rawMentions()
        .slice(before)
        .map((r) => `${r.method} ${r.sequence}`),
    ).toEqual(['response_url <!here>', 'view_submission ack <!channel>']);
  });
});
