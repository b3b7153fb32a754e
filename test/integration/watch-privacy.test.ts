/**
 * Who will read what a watch posts. Watching into a public channel says in its answer that call details and
 * transcripts are visible to the whole workspace (a private channel's answer does not). Watching into a Slack
 * Connect channel (people of another organization) does not start from the typed command, the "Watch here" button
 * or the Home tab form: they show a confirmation button, and only that button, pressed by a permitted person, joins
 * the channel and starts the watch; the press is permission-checked and audited like any watch.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { AuditEntry } from '../../src/slack/audit.js';
import { HOME_WATCH_ACTION, HOME_WATCH_BLOCK } from '../../src/render/home.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { eventually, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';
import { HOME_WATCH_VIEW_ID } from '../../src/render/ids.js';

const ADMIN = 'U0ADMIN';
const READER = 'U0READER';
const PUBLIC = 'C0PUBLIC';
const PRIVATE = 'G0PRIVATE';
const SHARED = 'C0SHARED';

/** The confirmation button's action_id, as Slack sends it back. */
const WATCH_CONFIRM_EXTERNAL_ACTION = 'watch_confirm_external';

const text = (x: unknown) => JSON.stringify(x);

let h: WatchHarness;
let audits: AuditEntry[];
let id: number;

beforeEach(async () => {
  h = await startWatchHarness({
    admins: [ADMIN],
    fake: {
      users: [{ id: ADMIN }, { id: READER }],
      channels: [
        { id: PUBLIC, name: 'sales', isMember: false },
        { id: PRIVATE, name: 'sales-private', isPrivate: true },
        { id: SHARED, name: 'with-partner', isMember: false, isExtShared: true },
      ],
    },
  });
  audits = [];
  h.app.deps.audit.subscribe((e) => audits.push(e));
  id = h.phoneCampaign(1).id;
});
afterEach(async () => {
  await h.close();
});

/** Presses a button of an ephemeral answer (value given) as `userId` in `channelId`; returns the answer. */
async function press(actionId: string, value: string, userId: string, channelId: string): Promise<unknown> {
  const r = await h.driver.blockAction({ actionId, value, userId, channelId });
  const use = await eventually(
    () => h.fake.responseUrlUses().find((u) => u.url === r.responseUrl),
    (u) => u !== undefined,
    10_000,
  );
  return use?.body;
}

/** The confirmation button's value in an answer. */
function confirmValue(answer: unknown): string {
  const m = /"action_id":"watch_confirm_external","value":"((?:[^"\\]|\\.)*)"/.exec(text(answer));
  expect(m).not.toBeNull();
  return JSON.parse(`"${m![1]!}"`) as string;
}

describe('public and private channels', () => {
  it('says in its answer that a public channel shows call details and transcripts to the whole workspace', async () => {
    const answer = text(await runCommand(h, `watch ${id} <#${PUBLIC}|sales>`, { userId: ADMIN }));
    expect(answer).toContain(`now watches`);
    expect(answer).toContain(`<#${PUBLIC}> is a public channel`);
    expect(answer).toMatch(/call details, phone numbers and conversation transcripts .* everyone in the workspace/);
    expect(await h.svc.state.subscriptions.get(`${id}/${PUBLIC}`)).toBeDefined();

    const priv = text(await runCommand(h, `watch ${id} <#${PRIVATE}|sales-private>`, { userId: ADMIN }));
    expect(priv).toContain('now watches');
    expect(priv).not.toContain('public channel');
    expect(priv).not.toContain('another organization');
  });
});

describe('Slack Connect channels', () => {
  const subscribed = async () => await h.svc.state.subscriptions.get(`${id}/${SHARED}`);

  it('the typed command only asks for confirmation; the button pressed by a permitted person starts the watch', async () => {
    const ask = await runCommand(h, `watch ${id} <#${SHARED}|with-partner>`, { userId: ADMIN });
    expect(text(ask)).toContain('Slack Connect channel');
    expect(text(ask)).toContain('Nothing has started yet');
    expect(text(ask)).toContain(`"action_id":"${WATCH_CONFIRM_EXTERNAL_ACTION}"`);
    // Nothing started: not subscribed, not joined, nothing posted there, nothing audited as a change.
    expect(await subscribed()).toBeUndefined();
    expect(h.fake.calls('conversations.join')).toEqual([]);
    expect(h.fake.messages(SHARED)).toEqual([]);
    expect(audits.filter((a) => a.result === 'ok')).toEqual([]);

    // The same from the "Watch here" button in that channel.
    const here = await press('campaign_watch_here', String(id), ADMIN, SHARED);
    expect(text(here)).toContain(`"action_id":"${WATCH_CONFIRM_EXTERNAL_ACTION}"`);
    expect(await subscribed()).toBeUndefined();

    // A person who may only read presses it: refused, audited, nothing starts.
    const value = confirmValue(ask);
    const refused = await press(WATCH_CONFIRM_EXTERNAL_ACTION, value, READER, SHARED);
    expect(text(refused)).toMatch(/You can't watch campaigns\. Only <@U0ADMIN>/);
    expect(audits).toContainEqual(
      expect.objectContaining({ userId: READER, campaignId: id, result: 'refused', action: 'watch' }),
    );
    expect(await subscribed()).toBeUndefined();
    expect(h.fake.calls('conversations.join')).toEqual([]);

    // The admin confirms: joined, watching, told who can read it, audited as confirmed.
    const done = await press(WATCH_CONFIRM_EXTERNAL_ACTION, value, ADMIN, SHARED);
    expect(text(done)).toContain(`<#${SHARED}> now watches`);
    expect(text(done)).toContain('shared with another organization');
    expect(await subscribed()).toMatchObject({ createdBy: ADMIN });
    expect(h.fake.calls('conversations.join').map((c) => c.args.channel)).toEqual([SHARED]);
    expect(audits).toContainEqual({
      userId: ADMIN,
      action: `watch in ${SHARED}`,
      campaignId: id,
      result: 'ok',
      detail: expect.stringContaining('confirmed'),
    });
  });

  it('the Home tab form asks for confirmation in the DM; nothing starts until the button', async () => {
    const before = h.fake.messages(ADMIN).length;
    await h.driver.viewSubmission({
      callbackId: HOME_WATCH_VIEW_ID,
      userId: ADMIN,
      privateMetadata: String(id),
      values: { [HOME_WATCH_BLOCK]: { [HOME_WATCH_ACTION]: stateValue.conversation(SHARED) } },
    });
    const dm = await eventually(
      () => h.fake.messages(ADMIN).slice(before),
      (m) => m.length > 0,
    );
    expect(text(dm)).toContain(WATCH_CONFIRM_EXTERNAL_ACTION);
    expect(await subscribed()).toBeUndefined();
  });
});
