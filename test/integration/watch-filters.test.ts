/**
 * Watches that fit the team (issue 17), through the fake Slack and the simulator: one campaign watched in two
 * channels with different filters (one set in the Watch settings modal, one typed), each getting exactly its calls
 * and nothing twice; a call posted once it matches; a waiting customer shown whatever the filter; the compact format
 * and its Details button (the full card in a modal); settings surviving a restart, honoured by an app started afresh
 * on the same PostgreSQL database; and a read-only person refused the modal.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WATCH_ACTION_IDS, WATCH_CALL_CARD_INFO_VIEW_ID, WATCH_SETTINGS_VIEW_ID } from '../../src/render/ids.js';
import { SETTINGS_ACTION, SETTINGS_BLOCKS } from '../../src/render/watch-settings.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import { freshDatabase } from '../support/postgres.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const SALES = 'C0SALES';
const OPS = 'C0OPS';

let h: WatchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Top-level call messages of a channel, by call id. */
function callIdsIn(hh: WatchHarness, channel: string): string[] {
  return hh
    .topLevel(channel)
    .filter((m) => m.metadata?.event_type === 'outreach_call')
    .map((m) => String(m.metadata!.event_payload.call_id))
    .sort();
}

/** The open Watch settings modal of a person. */
function settingsView(hh: WatchHarness, userId?: string) {
  return hh.fake.openViews(userId).find((v) => v.callback_id === WATCH_SETTINGS_VIEW_ID);
}

const value = (v: unknown) => ({ [SETTINGS_ACTION]: v });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The harness with the two channels known to the fake workspace (links to them are ours, not outside text). */
async function start(opts: Parameters<typeof startWatchHarness>[0] = {}): Promise<WatchHarness> {
  const hh = await startWatchHarness(opts);
  hh.fake.addChannel({ id: SALES, name: 'ventas' });
  hh.fake.addChannel({ id: OPS, name: 'ops' });
  return hh;
}

/** No message the app posted in a thread was also sent to the channel. */
function expectNoBroadcast(hh: WatchHarness): void {
  const posts = hh.fake.calls('chat.postMessage');
  expect(posts.length).toBeGreaterThan(0);
  for (const p of posts) expect(p.args.reply_broadcast).toBeFalsy();
}

describe('filters and formats per channel', () => {
  it('two channels with different filters get exactly their calls, nothing twice; a call is posted once it matches', async () => {
    h = await start();
    const { id } = h.phoneCampaign(6);
    // #ventas: in the form, human-answered ended calls with extracted data (detailed).
    // The form answers with a modal, not a message.
    await h.driver.command(`watch ${id} <#${SALES}|ventas> settings`);
    const view = await eventually(
      () => settingsView(h!),
      (v) => v !== undefined,
    );
    expect(view).toBeDefined();
    const submitted = await h.driver.viewSubmission({
      viewId: String(view!.id),
      values: {
        [SETTINGS_BLOCKS.outcomes]: value(stateValue.checkboxes(['ended'])),
        [SETTINGS_BLOCKS.answeredBy]: value(stateValue.checkboxes(['human'])),
        [SETTINGS_BLOCKS.data]: value(stateValue.checkboxes(['yes'])),
      },
    });
    expect(submitted.status).toBe(200);
    const sales = await eventually(
      () => h!.svc.subscription(id, SALES),
      (s) => s !== undefined,
    );
    expect(sales).toMatchObject({ filter: { outcomes: ['ended'], answeredBy: ['human'], withData: true } });
    expect(sales?.format).toBeUndefined();
    expect(sales?.reminderMinutes).toBe(15);
    // #ops: typed, failures only, one line each.
    const typed = JSON.stringify(await runCommand(h, `watch ${id} <#${OPS}|ops> compact only:failed`));
    expect(typed).toContain('compact');
    expect(await h.svc.subscription(id, OPS)).toMatchObject({ format: 'compact', filter: { outcomes: ['failed'] } });

    const sim = h.sim.control;
    const sale = sim.createCall(id, { status: 'in-progress' });
    const noData = sim.createCall(id, { status: 'in-progress' });
    const machine = sim.createCall(id, { status: 'in-progress' });
    const failed = sim.createCall(id, { status: 'in-progress' });
    const busy = sim.createCall(id, { status: 'in-progress' });
    await h.cycle();
    // Running calls match neither filter: nothing yet.
    expect(callIdsIn(h, SALES)).toEqual([]);
    expect(callIdsIn(h, OPS)).toEqual([]);

    sim.updateCall(sale.id as string, { status: 'ended', answered_by: 'human', extracted_data: { plan: 'Plus' } });
    sim.updateCall(noData.id as string, { status: 'ended', answered_by: 'human' });
    sim.updateCall(machine.id as string, { status: 'ended', answered_by: 'machine', extracted_data: { plan: 'x' } });
    sim.updateCall(failed.id as string, { status: 'failed' });
    sim.updateCall(busy.id as string, { status: 'busy' });
    await h.cycle();
    await h.cycle();
    expect(callIdsIn(h, SALES)).toEqual([sale.id as string]);
    expect(callIdsIn(h, OPS)).toEqual([failed.id as string]);
    // Detailed in #ventas (the card), compact in #ops (one section with Details).
    const card = callMessages(h.fake, SALES, sale.id as string)[0]!;
    expect(JSON.stringify(card.blocks)).toContain(WATCH_ACTION_IDS.callDetails);
    const line = callMessages(h.fake, OPS, failed.id as string)[0]!;
    expect(line.blocks).toHaveLength(1);
    expect(JSON.stringify(line.blocks)).toContain(WATCH_ACTION_IDS.callCard);

    // Later cycles add nothing and post nothing twice.
    await h.cycle();
    expect(h.topLevel(SALES).filter((m) => m.metadata?.event_type === 'outreach_call')).toHaveLength(1);
    expect(h.topLevel(OPS).filter((m) => m.metadata?.event_type === 'outreach_call')).toHaveLength(1);
    expectNoBroadcast(h);

    // `/campaign watching` says each watch's format and filter in words.
    const watching = JSON.stringify(await runCommand(h, 'watching'));
    expect(watching).toContain('compact · only ❌ Failed');
    expect(watching).toContain('detailed · only ☑️ Ended · answered by 🙋 Person · with extracted data');
    expect(watching).toContain(WATCH_ACTION_IDS.settings);
  });

  it('a customer waiting for a reply is shown in a channel whose filter left the call out, with the conversation in its thread', async () => {
    h = await start();
    const { id } = h.phoneCampaign(2);
    await runCommand(h, `watch ${id} <#${OPS}|ops> only:failed`);
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    const callId = call.id as string;
    await h.cycle();
    h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    expect(callIdsIn(h, OPS)).toEqual([]);

    // After the call, the customer writes: nobody has answered, so #ops shows the call whatever its filter. (A quiet
    // conversation is read again after a poll interval.)
    h.sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: '¿Me pueden llamar mañana?' });
    await sleep(1100);
    await h.cycle();
    await h.cycle();
    expect(callIdsIn(h, OPS)).toEqual([callId]);
    const parent = callMessages(h.fake, OPS, callId)[0]!;
    const thread = await eventually(
      () =>
        h!.fake.messages(OPS, { includeReplies: true }).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts),
      (r: FakeMessage[]) => r.some((m) => m.text.includes('Me pueden llamar')),
    );
    expect(thread.some((m) => m.text.includes('Me pueden llamar'))).toBe(true);
    await h.cycle();
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(1);
    expectNoBroadcast(h);
  });

  it('a compact line’s Details opens the full card in a modal (from the watch, or read from the service)', async () => {
    // Conversations (and the posts of settled calls) are let go after 300 ms instead of 30 minutes.
    h = await start({ tuning: { threadIdleMs: 300 } });
    const { id } = h.phoneCampaign(2);
    await runCommand(h, `watch ${id} <#${OPS}|ops> compact`);
    const call = h.sim.control.createCall(id, { status: 'in-progress', answered_by: 'human' });
    await h.cycle();
    const line = callMessages(h.fake, OPS, call.id as string)[0]!;
    expect(line.blocks).toHaveLength(1);
    // While the call runs the watch holds its data: the card opens at once.
    const opens = h.fake.calls('views.open').length;
    await h.driver.blockAction({ channelId: OPS, messageTs: line.ts, actionId: WATCH_ACTION_IDS.callCard });
    const opened = await eventually(
      () => h!.fake.calls('views.open').slice(opens),
      (c) => c.length > 0,
    );
    const card = JSON.stringify(opened[0]!.args.view);
    expect(card).toContain(WATCH_CALL_CARD_INFO_VIEW_ID);
    expect(card).toContain('Contact 1');
    expect(card).toContain('Answered by');
    expect(card).not.toContain('"actions"');

    h.sim.control.updateCall(call.id as string, {
      status: 'ended',
      answered_by: 'human',
      extracted_data: { plan: 'Plus' },
    });
    await h.cycle();
    await h.cycle();
    // The line was updated in place to the call's end (once).
    const ended = callMessages(h.fake, OPS, call.id as string);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.updates).toBe(1);
    expect(JSON.stringify(ended[0]!.blocks)).toContain('Ended');
    // The compact line keeps the call's data while the watch keeps the line: the ended card opens at once.
    expect((await h.svc.state.call(id, call.id as string))?.snapshot).toBeDefined();
    const opens2 = h.fake.calls('views.open').length;
    await h.driver.blockAction({ channelId: OPS, messageTs: line.ts, actionId: WATCH_ACTION_IDS.callCard });
    const opened2 = await eventually(
      () => h!.fake.calls('views.open').slice(opens2),
      (c) => c.length > 0,
    );
    expect(JSON.stringify(opened2[0]!.args.view)).toContain('Plus');
    // Once the line is let go (settled and idle), so is the call's data: the modal opens, then shows it read from
    // the service.
    await sleep(400);
    await h.cycle();
    await h.cycle();
    expect(await h.svc.state.post(OPS, call.id as string)).toBeUndefined();
    expect((await h.svc.state.call(id, call.id as string))?.snapshot).toBeUndefined();
    const updates = h.fake.calls('views.update').length;
    await h.driver.blockAction({ channelId: OPS, messageTs: line.ts, actionId: WATCH_ACTION_IDS.callCard });
    const updated = await eventually(
      () => h!.fake.calls('views.update').slice(updates),
      (c) => c.length > 0,
    );
    const fromService = JSON.stringify(updated[0]!.args.view);
    expect(fromService).toContain(WATCH_CALL_CARD_INFO_VIEW_ID);
    expect(fromService).toContain('Contact 1');
    expect(fromService).toContain('Plus');
    expect(fromService).toContain('Ended');
  });
});

describe('the Watch settings modal', () => {
  it('opens from the campaign detail for the channel it is shown in, filled in with the watch’s settings', async () => {
    h = await start();
    const { id } = h.phoneCampaign(1);
    await runCommand(h, `watch ${id} <#${OPS}|ops> compact only:failed,busy human`);
    const detail = JSON.stringify(await runCommand(h, `show ${id}`, { channelId: OPS }));
    expect(detail).toContain(WATCH_ACTION_IDS.settings);
    await h.driver.blockAction({
      actionId: WATCH_ACTION_IDS.settings,
      value: JSON.stringify({ campaignId: id }),
      channelId: OPS,
    });
    const view = await eventually(
      () => settingsView(h!),
      (v) => v !== undefined,
    );
    expect(JSON.parse(String(view!.private_metadata))).toEqual({ campaignId: id, channelId: OPS, lang: 'en' });
    const blocks = view!.blocks as Array<{ block_id?: string; element?: Record<string, unknown> }>;
    const el = (b: string) => blocks.find((x) => x.block_id === b)!.element!;
    expect(el(SETTINGS_BLOCKS.format).initial_option).toMatchObject({ value: 'compact' });
    expect((el(SETTINGS_BLOCKS.outcomes).initial_options as { value: string }[]).map((o) => o.value)).toEqual([
      'failed',
      'busy',
    ]);
    expect((el(SETTINGS_BLOCKS.answeredBy).initial_options as { value: string }[]).map((o) => o.value)).toEqual([
      'human',
    ]);
    expect(el(SETTINGS_BLOCKS.reminder).initial_value).toBe('15');

    // Wrong values are answered under their fields; nothing changes.
    const wrong = await h.driver.viewSubmission({
      viewId: String(view!.id),
      values: { [SETTINGS_BLOCKS.reminder]: value(stateValue.number('0')) },
    });
    expect(JSON.stringify(wrong.json)).toContain(SETTINGS_BLOCKS.reminder);
    // Saved: back to detailed, every outcome, a reminder after 30 minutes; the person is told in a DM.
    await h.driver.viewSubmission({
      viewId: String(view!.id),
      values: {
        [SETTINGS_BLOCKS.format]: value(stateValue.radio('detailed')),
        [SETTINGS_BLOCKS.outcomes]: value(stateValue.checkboxes([])),
        [SETTINGS_BLOCKS.reminder]: value(stateValue.number('30')),
      },
    });
    const saved = await eventually(
      () => h!.svc.subscription(id, OPS),
      (s) => s?.reminderMinutes === 30,
    );
    expect(saved?.format).toBeUndefined();
    expect(saved?.filter).toEqual({ answeredBy: ['human'] });
  });
});

describe('settings are kept', () => {
  it('survive a restart', async () => {
    h = await start();
    const { id } = h.phoneCampaign(3);
    await runCommand(h, `watch ${id} <#${OPS}|ops> compacto solo:fallida`);
    await h.restart();
    expect(await h.svc.subscription(id, OPS)).toMatchObject({ format: 'compact', filter: { outcomes: ['failed'] } });
    const ok = h.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    const failed = h.sim.control.createCall(id, { status: 'failed' });
    await h.cycle();
    expect(callIdsIn(h, OPS)).toEqual([failed.id as string]);
    expect(callIdsIn(h, OPS)).not.toContain(ok.id as string);
    expect(callMessages(h.fake, OPS, failed.id as string)[0]!.blocks).toHaveLength(1);
  });

  it('are honoured by another app on the same PostgreSQL database (whichever replica polls)', async () => {
    const databaseUrl = await freshDatabase('watchfilters');
    h = await start({ databaseUrl });
    const { id } = h.phoneCampaign(3);
    await runCommand(h, `watch ${id} <#${OPS}|ops> only:busy,no-answer`);
    await runCommand(h, `watch ${id} <#${SALES}|ventas> human`);
    // A new process on the database: nothing of the first one's memory.
    await h.restart();
    const human = h.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    const busy = h.sim.control.createCall(id, { status: 'busy' });
    const machine = h.sim.control.createCall(id, { status: 'ended', answered_by: 'machine' });
    await h.cycle();
    expect(callIdsIn(h, OPS)).toEqual([busy.id as string]);
    expect(callIdsIn(h, SALES)).toEqual([human.id as string]);
    expect(callIdsIn(h, SALES)).not.toContain(machine.id as string);
  });
});

describe('permissions', () => {
  it('a read-only person can neither open the Watch settings nor submit them', async () => {
    h = await start({ admins: ['U0ADMIN'] });
    const { id } = h.phoneCampaign(1);
    const refused = JSON.stringify(await runCommand(h, `watch ${id} settings`, { userId: 'U0READ' }));
    expect(refused).toContain("You can't watch campaigns");
    expect(settingsView(h, 'U0READ')).toBeUndefined();

    await h.driver.command(`watch ${id} <#${OPS}|ops> settings`, { userId: 'U0ADMIN' });
    const view = await eventually(
      () => settingsView(h!, 'U0ADMIN'),
      (v) => v !== undefined,
    );
    const r = await h.driver.viewSubmission({ viewId: String(view!.id), userId: 'U0READ' });
    expect(JSON.stringify(r.json)).toContain('"response_action":"update"');
    expect(JSON.stringify(r.json)).toContain("You can't watch campaigns");
    expect(await h.svc.subscription(id, OPS)).toBeUndefined();

    // The "Watch settings" button (watch answers, campaign detail, `/campaign watching`) refuses them too.
    const opens = h.fake.calls('views.open').length;
    const click = await h.driver.blockAction({
      actionId: WATCH_ACTION_IDS.settings,
      value: JSON.stringify({ campaignId: id, channelId: OPS }),
      channelId: OPS,
      userId: 'U0READ',
    });
    const answer = await eventually(
      () => h!.fake.responseUrlUses().find((u) => u.url === click.responseUrl),
      (u) => u !== undefined,
    );
    expect(JSON.stringify(answer?.body)).toContain("You can't watch campaigns");
    expect(h.fake.calls('views.open').length).toBe(opens);
  });
});
