/**
 * The playground, started in-process on port 0 and used through its HTTP API only, as a person on the page would:
 * commands answered to the person who typed them, the demo campaigns, a button reaching the app and the simulator,
 * the live stream (a message posted, then updated in place), replies in a watched call's thread by a responder and
 * by a read-only member, a file uploaded and given to the upload modal, a malformed block shown as a refusal, each
 * person's own DM and Home, and bad input answered 400 naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { LogLevel, WebClient } from '@slack/web-api';
import { loadPlaygroundSettings } from '../../src/config.js';
import type { PageEphemeral, PageEvent, PageMessage, PageState } from '../../src/playground/api.js';
import { COMMAND, startPlayground, type Playground } from '../../src/playground/start.js';
import { CONTENT_SECURITY_POLICY } from '../../src/playground/server.js';
import { EventsOf, post, state, until } from '../support/playground-client.js';

const ADMIN = 'U0MARIANA';
const RESPONDER = 'U0SAM';
const READONLY = 'U0ALEX';
const OPS = 'C0OPERATIONS';

type Json = Record<string, unknown>;

let pg: Playground;
let base: string;

beforeAll(async () => {
  pg = await startPlayground({
    settings: { ...loadPlaygroundSettings({}), port: 0, logLevel: 'silent' },
    start: {
      // The simulator moves only when a test says (control.tick), and watched campaigns are polled on demand.
      sandboxTickMs: 3_600_000,
      watch: {
        autoPoll: false,
        pollIntervalMs: 1000,
        threadMaxGapMs: 100,
        minGapMs: 30,
        updateGapMs: 100,
        retryDelayMs: 50,
      },
      upload: { ackBudgetMs: 1000 },
    },
  });
  base = pg.url;
});
afterAll(async () => pg?.close());

const blocksText = (blocks: Json[] | undefined) => JSON.stringify(blocks ?? []);
const shows = (text: string) => (e: PageEvent) =>
  e.type === 'ephemeral' && `${e.ephemeral.text} ${blocksText(e.ephemeral.blocks)}`.includes(text);

/** Types in a channel as `as` and waits for the ephemeral answer that contains `text`. */
async function command(as: string, line: string, text: string, channel = OPS): Promise<PageEphemeral> {
  const events = await EventsOf.open(base, as);
  try {
    const answer = await post(base, 'message', { as, channel, text: line });
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    const e = await events.next(shows(text));
    return (e as Extract<PageEvent, { type: 'ephemeral' }>).ephemeral;
  } finally {
    events.close();
  }
}

/** The button of `blocks` whose action_id is `actionId` (and value `value`), with its block's id. */
function button(blocks: Json[] | undefined, actionId: string, value?: string): { block_id: string; el: Json } {
  for (const b of blocks ?? []) {
    const els = [...((b.elements as Json[] | undefined) ?? []), ...(b.accessory ? [b.accessory as Json] : [])];
    const el = els.find((e) => e.action_id === actionId && (value === undefined || e.value === value));
    if (el) return { block_id: String(b.block_id), el };
  }
  throw new Error(`no ${actionId} in ${blocksText(blocks)}`);
}

describe('commands and buttons', () => {
  it('answers /campaign help to the person who typed it only, in their language', async () => {
    const help = await command(RESPONDER, '/campaign help', 'list [status]');
    expect(help.channel).toBe(OPS);
    expect((await state(base, RESPONDER)).ephemerals.map((e) => e.id)).toContain(help.id);
    expect((await state(base, READONLY)).ephemerals.map((e) => e.id)).not.toContain(help.id);
    // The admin's Slack is in Spanish: the app answers her in it.
    await command(ADMIN, '/campaign ayuda', '*Uso:*');
  });

  it('lists the demo campaigns of the simulator', async () => {
    const list = await command(ADMIN, '/campaign list', 'Recordatorio de pago');
    for (const name of ['Hot Sale · Clientes frecuentes', 'Encuesta de satisfacción Q1']) {
      expect(blocksText(list.blocks)).toContain(name);
    }
  });

  it('a Pause button in the list reaches the app, and the campaign is paused in the simulator', async () => {
    const id = 2;
    expect(pg.simulator.control.getCampaignState(id)?.record.status).toBe('active');
    const list = await command(ADMIN, '/campaign list active', 'Hot Sale');
    const pause = button(list.blocks, 'campaign_action:pause', JSON.stringify({ id, action: 'pause' }));
    const events = await EventsOf.open(base, ADMIN);
    const answer = await post(base, 'action', {
      as: ADMIN,
      source: { kind: 'ephemeral', id: list.id },
      action: { action_id: 'campaign_action:pause', block_id: pause.block_id, type: 'button', value: pause.el.value },
    });
    expect(answer.body).toEqual({ ok: true });
    // What the app posted about it is streamed to the channel's members, and the service's panel follows.
    await events.next((e) => e.type === 'message' && e.message.channel === OPS && e.message.text.includes('Hot Sale'));
    const service = await events.next(
      (e) => e.type === 'service' && e.service.campaigns.some((c) => c.id === id && c.status === 'inactive'),
    );
    expect(service.type).toBe('service');
    events.close();
    expect(pg.simulator.control.getCampaignState(id)?.record.status).toBe('inactive');
  });
});

describe('a watched campaign', () => {
  let parent: PageMessage;
  let callId: string;
  const campaignId = 1;
  const poll = async () => {
    await pg.app.services.watch.pollNow();
    await pg.app.services.watch.delivery.idle();
  };

  beforeAll(async () => {
    const events = await EventsOf.open(base, RESPONDER);
    const watch = await post(base, 'message', { as: ADMIN, channel: OPS, text: `/campaign watch ${campaignId}` });
    expect(watch.body).toEqual({ ok: true });
    await until(
      () => pg.app.services.watch.channelsWatching(campaignId),
      (channels) => channels.includes(OPS),
    );
    const call = pg.simulator.control.createCall(campaignId, { status: 'in-progress' });
    callId = String(call.id);
    pg.simulator.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'Hola, ¿hablo con usted?' });
    await poll();
    const posted = await events.next(
      (e) =>
        e.type === 'message' &&
        e.message.channel === OPS &&
        e.message.user === pg.emulator.botUserId &&
        blocksText(e.message.blocks).includes(callId),
    );
    parent = (posted as Extract<PageEvent, { type: 'message' }>).message;
    events.close();
  });

  /** `as` writes in the call's thread, as the page's thread composer sends it. */
  const reply = async (as: string, text: string) => {
    const answer = await post(base, 'message', { as, channel: OPS, thread_ts: parent.ts, text });
    expect(answer.body).toEqual({ ok: true });
  };

  it('streams the message the app posted for the call, then its update in place when the call ends', async () => {
    expect(parent.edited).toBeUndefined();
    const events = await EventsOf.open(base, RESPONDER);
    pg.simulator.control.updateCall(callId, { status: 'ended' });
    await poll();
    const updated = await events.next(
      (e) => e.type === 'message' && e.message.ts === parent.ts && e.message.edited === true,
    );
    events.close();
    expect((updated as Extract<PageEvent, { type: 'message' }>).message.channel).toBe(OPS);
    // The guest of the channel sees it too; the other company's person, not in the channel, does not.
    const guest = await state(base, 'U0GUEST');
    expect(guest.messages[OPS]?.some((m) => m.ts === parent.ts && m.edited)).toBe(true);
    expect((await state(base, 'W0PRIYA')).messages[OPS]).toBeUndefined();
  });

  it("a responder's reply in the call's thread reaches the simulator, and the agent's answer comes back", async () => {
    const sends = () => pg.simulator.control.requests().filter((r) => r.route === 'sendMessage');
    await reply(RESPONDER, 'Le escribo en un momento');
    const sent = await until(sends, (s) => s.length > 0);
    expect(sent[0]!.body).toMatchObject({ content: 'Le escribo en un momento' });
    // The agent's answer (the service's reply to the POST) is posted in the thread and streamed to the page.
    const events = await EventsOf.open(base, RESPONDER);
    const agent = await events.next(
      (e) =>
        e.type === 'message' &&
        e.message.thread_ts === parent.ts &&
        e.message.ts !== parent.ts &&
        e.message.user === pg.emulator.botUserId &&
        e.message.text.includes('Agent'),
    );
    events.close();
    expect((agent as Extract<PageEvent, { type: 'message' }>).message.channel).toBe(OPS);
  });

  it("an ended call's conversation is read again within seconds, not the production's 5 minutes", () => {
    // So an end user written as from the service's panel shows in its thread while the person looks.
    expect(pg.app.services.watch.tuning.threadMaxGapMs).toBeLessThanOrEqual(10_000);
  });

  it("the end user writing from the service's panel appears in the call's thread", async () => {
    const events = await EventsOf.open(base, RESPONDER);
    const threadId = (await state(base, RESPONDER)).service.calls.find((c) => c.callId === callId)?.threadId;
    expect(threadId).toBeDefined();
    const answer = await post(base, 'service/end-user-writes', {
      as: RESPONDER,
      threadId,
      text: '¿Me pueden llamar mañana? <!channel> <script>alert(1)</script>',
    });
    expect(answer.body).toEqual({ ok: true });
    const isIt = (e: PageEvent) =>
      e.type === 'message' &&
      e.message.thread_ts === parent.ts &&
      e.message.ts !== parent.ts &&
      `${e.message.text}${blocksText(e.message.blocks)}`.includes('¿Me pueden llamar mañana?');
    // An ended call's conversation is read again once its gap has passed (threadMaxGapMs): poll until it was.
    const shown = await until(async () => {
      await poll();
      return events.events.find(isIt);
    }, Boolean);
    events.close();
    const message = (shown as Extract<PageEvent, { type: 'message' }>).message;
    expect(message.channel).toBe(OPS);
    // Outside text reached Slack escaped: no live broadcast, and the emulator saw no raw mention to refuse.
    expect(`${message.text}${blocksText(message.blocks)}`).not.toContain('<!channel>');
    expect((await state(base, RESPONDER)).refusals.filter((r) => r.error === 'raw_mention')).toEqual([]);
  });

  it("a read-only member's reply stays internal, with its notice", async () => {
    const events = await EventsOf.open(base, READONLY);
    const before = pg.simulator.control.requests().filter((r) => r.route === 'sendMessage').length;
    await reply(READONLY, 'Nota interna');
    const notice = await events.next(shows('stayed in Slack as an internal note'));
    expect((notice as Extract<PageEvent, { type: 'ephemeral' }>).ephemeral.thread_ts).toBe(parent.ts);
    events.close();
    expect(pg.simulator.control.requests().filter((r) => r.route === 'sendMessage')).toHaveLength(before);
  });
});

describe('files and refusals', () => {
  it('a file uploaded through the files endpoint and given to the upload modal runs the real upload path', async () => {
    const campaignId = 3;
    const events = await EventsOf.open(base, ADMIN);
    await post(base, 'message', { as: ADMIN, channel: OPS, text: `/campaign upload ${campaignId}` });
    const modal = await events.next((e) => e.type === 'modal' && e.view.view.callback_id === 'campaign_upload');
    const viewId = (modal as Extract<PageEvent, { type: 'modal' }>).view.id;
    const csv = 'name,phone\nPlayground Ana,+525512345670\n';
    const up = await fetch(new URL(`/playground/api/files?as=${ADMIN}&name=contactos.csv`, base), {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    const { file } = (await up.json()) as { file: { id: string; name: string; url: string } };
    expect(file.name).toBe('contactos.csv');
    // The page shows the file from the playground's own URL, without any token.
    expect(await (await fetch(new URL(file.url, base))).text()).toBe(csv);
    const submitted = await post(base, 'view/submit', {
      as: ADMIN,
      viewId,
      values: { file: { file: { type: 'file_input', files: [file] } } },
    });
    expect(submitted.status).toBe(200);
    const contacts = await until(
      () => pg.simulator.control.getCampaignState(campaignId)?.contacts ?? [],
      (list) => list.some((c) => c.name === 'Playground Ana'),
    );
    expect(contacts.find((c) => c.name === 'Playground Ana')).toMatchObject({ contact: '+525512345670' });
    events.close();
  });

  it("a file the app refuses is answered with the error under the modal's field", async () => {
    const events = await EventsOf.open(base, ADMIN);
    await post(base, 'message', { as: ADMIN, channel: OPS, text: '/campaign upload 3' });
    const modal = await events.next((e) => e.type === 'modal' && e.view.view.callback_id === 'campaign_upload');
    const viewId = (modal as Extract<PageEvent, { type: 'modal' }>).view.id;
    const up = await fetch(new URL(`/playground/api/files?as=${ADMIN}&name=notes.pdf`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF-1.4 not a contact list',
    });
    const { file } = (await up.json()) as { file: Json };
    const submitted = await post(base, 'view/submit', {
      as: ADMIN,
      viewId,
      values: { file: { file: { type: 'file_input', files: [file] } } },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.ok).toBe(false);
    const errors = submitted.body.errors as Record<string, string>;
    expect(Object.keys(errors)).toEqual(['file']);
    const shown = await events.next((e) => e.type === 'modal' && e.view.id === viewId && e.view.errors !== undefined);
    expect((shown as Extract<PageEvent, { type: 'modal' }>).view.errors).toEqual(errors);
    expect((await state(base, ADMIN)).modals.find((m) => m.id === viewId)?.errors).toEqual(errors);
    expect((await post(base, 'view/close', { as: ADMIN, viewId })).body).toEqual({ ok: true });
    await events.next((e) => e.type === 'modal_closed' && e.id === viewId);
    events.close();
  });

  it("a report's chart is shared in the channel, and the page gets its PNG from the playground's own URL", async () => {
    const events = await EventsOf.open(base, READONLY);
    expect((await post(base, 'message', { as: ADMIN, channel: OPS, text: '/campaign report 5' })).body).toEqual({
      ok: true,
    });
    const shared = await events.next(
      (e) => e.type === 'message' && (e.message.files ?? []).some((f) => f.mimetype === 'image/png'),
    );
    events.close();
    const png = (shared as Extract<PageEvent, { type: 'message' }>).message.files!.find(
      (f) => f.mimetype === 'image/png',
    )!;
    expect(png.url).toBe(`/playground/files/${png.id}`);
    const res = await fetch(new URL(png.url, base));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect((await fetch(new URL('/playground/files/FNOSUCHFILE', base))).status).toBe(404);
  });

  it('a malformed block sent to the Web API is shown as a refusal naming the method and the JSON path', async () => {
    const events = await EventsOf.open(base, READONLY);
    // The app's own client and token, as the app would send it: a section over Slack's 3,000 characters.
    const quiet = {
      debug() {},
      info() {},
      warn() {},
      error() {},
      setLevel() {},
      getLevel: () => LogLevel.ERROR,
      setName() {},
    };
    const client = new WebClient(pg.emulator.botToken, {
      slackApiUrl: pg.emulator.apiUrl,
      retryConfig: { retries: 0 },
      logger: quiet,
    });
    await expect(
      client.chat.postMessage({
        channel: OPS,
        text: 'too long',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }],
      }),
    ).rejects.toThrow(/invalid_blocks/);
    const refusal = await events.next((e) => e.type === 'refusal' && e.refusal.method === 'chat.postMessage');
    expect(refusal).toMatchObject({
      type: 'refusal',
      refusal: { method: 'chat.postMessage', error: 'invalid_blocks', path: 'blocks[0].text.text' },
    });
    events.close();
    expect((await state(base, ADMIN)).refusals.map((r) => r.path)).toContain('blocks[0].text.text');
  });
});

describe("the service's panel", () => {
  it('takes the service down for some seconds, then it comes back by itself', async () => {
    const events = await EventsOf.open(base, READONLY);
    expect((await post(base, 'service/outage', { as: ADMIN, seconds: 1 })).body).toEqual({ ok: true });
    expect((await state(base, READONLY)).service.down).toBe(true);
    const ping = await fetch(`${pg.simulator.baseUrl}/campaigns`, {
      headers: { authorization: `api-key ${pg.simulator.apiKey}` },
    });
    expect(ping.status).toBe(503);
    await events.next((e) => e.type === 'service' && !e.service.down);
    events.close();
    const again = await fetch(`${pg.simulator.baseUrl}/campaigns`, {
      headers: { authorization: `api-key ${pg.simulator.apiKey}` },
    });
    expect(again.status).toBe(200);
  });

  it('reaches the billing limit, and the service refuses to activate a campaign', async () => {
    expect((await post(base, 'service/billing-limit', { as: ADMIN, reached: true })).body).toEqual({ ok: true });
    expect((await state(base, ADMIN)).service.billingLimitReached).toBe(true);
    const activate = await fetch(`${pg.simulator.baseUrl}/campaigns/4/activate`, {
      method: 'POST',
      headers: { authorization: `api-key ${pg.simulator.apiKey}` },
    });
    expect(await activate.text()).toContain('BILLING_LIMIT_REACHED');
    expect((await post(base, 'service/billing-limit', { as: ADMIN, reached: false })).body).toEqual({ ok: true });
  });
});

describe("each person's own", () => {
  it("a person's DM and Home tab are their own", async () => {
    const events = await EventsOf.open(base, RESPONDER);
    expect((await post(base, 'app-home', { as: RESPONDER, tab: 'home' })).body).toEqual({ ok: true });
    const home = await events.next((e) => e.type === 'home');
    events.close();
    const sam = await state(base, RESPONDER);
    const alex = await state(base, READONLY);
    expect(sam.home?.id).toBe((home as Extract<PageEvent, { type: 'home' }>).view.id);
    expect(alex.home).toBeUndefined();
    const samDm = sam.channels.find((c) => c.kind === 'im')!;
    expect(samDm.members).toContain(RESPONDER);
    expect(alex.channels.map((c) => c.id)).not.toContain(samDm.id);
    const intrude = await post(base, 'message', { as: READONLY, channel: samDm.id, text: 'hola' });
    expect(intrude.status).toBe(400);
    expect(intrude.body.error).toContain("is not one of this person's channels");
    // The private channel is only its members'.
    expect(alex.channels.map((c) => c.kind)).not.toContain('private');
  });
});

describe('the boundary', () => {
  it.each([
    ['a missing field', 'message', { as: ADMIN, text: 'hola' }, /channel/],
    ['an unknown person', 'message', { as: 'U0NOBODY', channel: OPS, text: 'hola' }, /as: must be the id/],
    ['a wrong type', 'service/outage', { as: ADMIN, seconds: 'sixty' }, /seconds/],
    ['a body that is not JSON', 'view/close', '{not json', /not valid JSON/],
    [
      'an unknown campaign',
      'service/campaign-status',
      { as: ADMIN, campaignId: 999, status: 'paused' },
      /no campaign 999/,
    ],
  ])('answers 400 to %s, naming what is wrong', async (_what, path, body, message) => {
    const answer = await post(base, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.ok).toBe(false);
    expect(answer.body.error).toMatch(message);
  });

  it('answers 404 to an unknown request, 400 to an unknown person; a state without a person is the first one', async () => {
    expect((await post(base, 'nothing-here', { as: ADMIN })).status).toBe(404);
    const res = await fetch(new URL('/playground/api/state', base));
    expect(res.status).toBe(200);
    expect(((await res.json()) as PageState).me).toBe(ADMIN);
    const nobody = await fetch(new URL('/playground/api/state?as=U0NOBODY', base));
    expect(nobody.status).toBe(400);
    expect(((await nobody.json()) as { error: string }).error).toContain('as');
    const noStream = await fetch(new URL('/playground/api/events', base));
    expect(noStream.status).toBe(400);
  });

  it('serves the page with a Content-Security-Policy of no inline script, and refuses another origin', async () => {
    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const foreign = await fetch(new URL('/playground/api/service/billing-limit', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ as: ADMIN, reached: true }),
    });
    expect(foreign.status).toBe(403);
    expect((await state(base, ADMIN)).service.billingLimitReached).toBe(false);
  });

  it("the command and its usage hint are manifest.yml's", () => {
    const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
      features: { slash_commands: { command: string; usage_hint: string; description: string }[] };
    };
    const declared = manifest.features.slash_commands[0]!;
    expect(COMMAND).toEqual({
      name: declared.command,
      usageHint: declared.usage_hint,
      description: declared.description,
    });
  });
});
