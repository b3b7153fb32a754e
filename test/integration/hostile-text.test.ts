/**
 * Hostile text from outside through the real paths, end to end (simulator ↔ real app ↔ fake Slack): end users'
 * names, agent and end-user messages, extracted data keys and values, tags, policy names, contact fields, campaign
 * and agent names, and an uploaded file's name. Each carries broadcasts and mentions (`<!channel>`, `<@U0HOSTILE>`,
 * …), a disguised link, a newline followed by `*bold*` (a forged line inside our labels), a right-to-left override
 * (U+202E) and a zero-width space (U+200B). What the app sends must show them as harmless text: no live `<…>`
 * sequence in any field of any payload (the fake Slack's check, see src/emulator/raw-mentions.ts), no invisible
 * characters, and names kept on one line with their formatting characters neutralised.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeSlack } from '../../src/emulator/fake-slack.js';
import { displayedTexts } from '../../src/emulator/raw-mentions.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';
import { ADMIN, CHANNEL, openUploadModal, submitUpload, waitForSummary } from '../support/upload.js';

const CH = 'C0OPS';

const MENTIONS =
  '<!channel> <!here> <!everyone> <@U0HOSTILE> <#C0HOSTILE> <!subteam^S0HOSTILE> <https://evil.example/x|click here>';
const RLO = '\u202E';
const ZWSP = '\u200B';
/** A name or label (contact, end user, campaign, agent, key, tag, file): it also tries to forge a line of ours. */
const hostileName = (what: string) => `${what}\n*Forged:* yes ${MENTIONS} ${RLO}gnp.exe${ZWSP}`;
/**
 * A message body (what an end user or the agent wrote, a contact's context): its lines and formatting are the
 * writer's and stay (WhatsApp uses the same `*bold*`), but mentions, links and invisible characters do not.
 */
const hostileBody = (what: string) => `${what}\nsecond line ${MENTIONS} ${RLO}gnp.exe${ZWSP}`;

/** Every displayed text the app sent to the fake Slack after harness sequence `since`. */
function sentTexts(fake: FakeSlack, since: number): string[] {
  const calls = fake.calls().filter((c) => c.seq > since && c.ok);
  return calls.flatMap((c) => displayedTexts(c.args).map((t) => t.text));
}

/**
 * The hostile text reached Slack (so the path was really taken) and only as harmless text: escaped, names on one
 * line with their formatting neutralised, invisible characters gone; and the fake Slack saw no raw mention anywhere
 * (which the jest setup file checks after every test as well).
 */
function expectClean(fake: FakeSlack, since: number, mustShow: string[]): void {
  expect(fake.rawMentions()).toEqual([]);
  const all = sentTexts(fake, since).join('\n\n');
  for (const shown of mustShow) expect(all).toContain(shown);
  expect(all).toContain('&lt;!channel&gt;');
  expect(all).toContain('&lt;https://evil.example/x|click here&gt;');
  expect(all).not.toContain(RLO);
  expect(all).not.toContain(ZWSP);
  // The forged line of a name: never a line of its own, never bold.
  expect(all).not.toContain('*Forged:*');
  expect(all).toContain('∗Forged:∗ yes');
}

describe('a watched phone campaign: call messages, their conversation, details and the end user', () => {
  let h: WatchHarness;
  beforeAll(async () => {
    h = await startWatchHarness();
  });
  afterAll(async () => h.close());

  it('shows hostile names, data, tags, policies and messages as text', async () => {
    const { control } = h.sim;
    const agent = control.addAgent({ name: hostileName('Agent') });
    const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const id = Number(
      control.seedCampaign({
        name: hostileName('Campaign'),
        agentId: agent.id,
        integrationId: phone.id,
        status: 'active',
        contacts: [{ contact: '+525512340001', name: hostileName('Contact') }],
      }).id,
    );
    const since = h.fake.seq();
    await runCommand(h, `watch ${id}`, { channelId: CH });
    const call = control.createCall(id, {
      status: 'ended',
      answered_by: 'human',
      extracted_data: { [hostileName('key')]: hostileName('value') },
      tags: [hostileName('tag')],
      policy_evaluation: {
        score: 50,
        policies_evaluated_count: 1,
        policies_met_count: 0,
        policies_not_applicable_count: 0,
        completed: true,
        completed_at: new Date().toISOString(),
        policies: [
          {
            policy_id: 'pol-1',
            policy_name: hostileName('Policy'),
            result: 'not_met',
            explanation: hostileName('Because'),
          },
        ],
      },
    });
    const threadId = call.thread_id as string;
    control.addMessage(threadId, { sent_by: 'EU', content: hostileBody('End user says') });
    control.addMessage(threadId, { sent_by: 'AI', content: hostileBody('Agent says') });
    await h.cycle();
    await h.cycle();
    const parent = callMessages(h.fake, CH, call.id as string)[0]!;
    const replies = h.fake.threadReplies(CH, parent.ts).map((r) => r.text);
    expect(replies.some((t) => t.includes('Agent says'))).toBe(true);

    // The call's Details (with its policies), answered through response_url.
    const details = await h.driver.blockAction({ actionId: 'watch_call_details', messageTs: parent.ts, channelId: CH });
    await eventually(
      () => h.fake.responseUrlUses().find((u) => u.url === details.responseUrl),
      (u) => u !== undefined,
    );

    expectClean(h.fake, since, ['Contact', 'key', 'value', 'tag', 'Policy', 'Because', 'End user says', 'Agent says']);
    // The end user's label in the conversation (the contact's name) stays on the first line, cleaned.
    const endUser = replies.find((t) => t.includes('End user says'))!;
    expect(endUser.split('\n')[0]).toMatch(/^\*👤 Contact ∗Forged:∗ yes &lt;!channel&gt;.*:\* End user says$/);
  });
});

describe('contact pages, the Home tab and an upload with a hostile file name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  });
  afterAll(async () => t.close());

  function hostileCampaign(): number {
    const { control } = t.sim;
    const agent = control.addAgent({ name: hostileName('Agent') });
    const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const c = control.seedCampaign({
      name: hostileName('Campaign'),
      agentId: agent.id,
      integrationId: phone.id,
      status: 'ready',
      contacts: [
        {
          contact: '+525512340001',
          name: hostileName('Contact'),
          context: hostileBody('Context'),
          extracted_data: { [hostileName('key')]: hostileName('value') },
          f_id: hostileName('External'),
        },
      ],
    });
    return Number(c.id);
  }

  /** The first button with this action id in a payload's blocks. */
  function findButton(payload: unknown, actionId: string): { action_id: string; value: string } | undefined {
    const walk = (v: unknown): { action_id: string; value: string } | undefined => {
      if (Array.isArray(v)) return v.map(walk).find((x) => x !== undefined);
      if (!v || typeof v !== 'object') return undefined;
      const o = v as Record<string, unknown>;
      if (o.type === 'button' && typeof o.action_id === 'string' && o.action_id.startsWith(actionId)) {
        return { action_id: o.action_id, value: String(o.value) };
      }
      return walk(Object.values(o));
    };
    return walk(payload);
  }

  it('the contacts page and a contact in full', async () => {
    const id = hostileCampaign();
    const since = t.fake.seq();
    const page = await t.driver.command(`contacts ${id}`, { userId: ADMIN, channelId: CHANNEL });
    const pageBody = await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === page.responseUrl));
    const details = findButton(pageBody.body, 'contact_details');
    expect(details).toBeDefined();
    const clicked = await t.driver.blockAction({
      actionId: details!.action_id,
      value: details!.value,
      userId: ADMIN,
      channelId: CHANNEL,
    });
    const detail = await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === clicked.responseUrl));
    expect(JSON.stringify(detail.body)).toContain('External');
    const shown = [pageBody.body, detail.body].flatMap((b) => displayedTexts(b).map((x) => x.text)).join('\n');
    expect(shown).not.toContain(RLO);
    expect(shown).toContain('∗Forged:∗ yes');
    expectClean(t.fake, since, ['Contact', 'key', 'value', 'External', 'Context']);
  });

  it('a command that quotes what was typed', async () => {
    const since = t.fake.seq();
    const uses = t.fake.responseUrlUses().length;
    const typed = `frobnicate ${MENTIONS} ${RLO}x${ZWSP}`;
    const ack = await t.driver.command(typed, { userId: ADMIN, channelId: CHANNEL });
    await t.fake.waitFor(() => ack.body !== '' || t.fake.responseUrlUses().length > uses, 5000);
    expect(t.fake.rawMentions()).toEqual([]);
    const shown = [
      ack.json,
      ...t.fake
        .responseUrlUses()
        .slice(uses)
        .map((u) => u.body),
    ]
      .flatMap((p) => displayedTexts(p).map((x) => x.text))
      .join('\n');
    expect(shown).toContain('frobnicate');
    expect(shown).not.toContain(RLO);
    expect(sentTexts(t.fake, since).join('\n')).not.toContain('<!channel>');
  });

  it('the Home tab', async () => {
    hostileCampaign();
    const since = t.fake.seq();
    await t.driver.appHomeOpened({ userId: ADMIN });
    const published = await t.fake.waitForCall(
      'views.publish',
      (c) => c.seq > since && c.ok && !JSON.stringify(c.args).includes('Reading the campaigns'),
      8000,
    );
    expect(JSON.stringify(published.args)).toContain('Agent');
    expectClean(t.fake, since, ['Campaign', 'Agent']);
  });

  it("the failed-rows report's comment and title, and the upload's messages", async () => {
    const id = hostileCampaign();
    const since = t.fake.seq();
    const viewId = await openUploadModal(t, id);
    const file = t.fake.addFile({
      name: `${hostileName('contacts')}.csv`,
      content: 'phone\nnot a number\n5512340002\n',
    });
    await submitUpload(t, viewId, file);
    await waitForSummary(t, id, file.id);
    const complete = await t.fake.waitForCall('files.completeUploadExternal', (c) => c.seq > since, 10_000);
    expect(String(complete.args.initial_comment)).toContain('&lt;!channel&gt;');
    expectClean(t.fake, since, ['not added']);
  });
});
