/**
 * Every view submission goes through `submission()` (src/slack/middleware/listener.ts), so each answers the same way
 * at the same step: a view out of date inside the ack (in the words it speaks, or its submitter's), a submission
 * that crashes before its ack with a view saying nothing was lost (not Slack's error), and a failure after the ack
 * once, in the person's DM. A change refused by the service names the campaign it is about, whichever listener runs
 * it (the error reply is written once, around the change).
 */
import type { Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { translator } from '../../src/i18n/translator.js';
import { END_USER_BLOCKS } from '../../src/render/call-message.js';
import { HOME_WATCH_ACTION, HOME_WATCH_BLOCK } from '../../src/render/home.js';
import {
  END_USER_VIEW_ID,
  FORM_CALLBACK_ID,
  HOME_WATCH_VIEW_ID,
  WATCH_SETTINGS_VIEW_ID,
} from '../../src/render/ids.js';
import { SETTINGS_ACTION, SETTINGS_BLOCKS } from '../../src/render/watch-settings.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { eventually } from '../support/watch-harness.js';

const ADMIN = 'U0ADMIN';
/** An admin whose Slack speaks Spanish. */
const ANA = 'U0ANA';
const CHANNEL = 'C0OPS';
const en = translator('en');
const es = translator('es');

let t: TestApp;
let active: number;

/** Requests that could change something at the service. */
const changing = () => t.sim.control.requests().filter((r) => r.method !== 'GET');
const text = (x: unknown) => JSON.stringify(x);
/** The sentence as the catalog writes it, as it stands in a JSON payload (quotes escaped, `'` as it is). */
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: `${ADMIN},${ANA}` } });
  t.fake.addUser({ id: ANA, locale: 'es-MX' });
  const c = t.sim.control;
  const agent = c.addAgent({ name: 'Sofía' });
  const int = c.addIntegration({ agentId: agent.id, type: 'phone_call' });
  active = Number(c.seedCampaign({ name: 'Cobranza', agentId: agent.id, integrationId: int.id, status: 'active' }).id);
});
afterAll(async () => t.close());

describe('a view out of date is answered inside the ack, nothing sent', () => {
  it.each([
    ['the Home tab watch modal', HOME_WATCH_VIEW_ID, 'update', es.t('home.watch.stale')],
    ['the watch settings modal', WATCH_SETTINGS_VIEW_ID, 'update', es.t('watchSettings.stale')],
    ['the end-user modal', END_USER_VIEW_ID, 'errors', es.t('endUser.stale')],
    // The form speaks the language in its metadata: without any, English.
    ['the campaign form', FORM_CALLBACK_ID, 'push', en.t('campaignForm.outOfDate')],
  ])('%s, in the words of the person who submitted it', async (_name, callbackId, action, sentence) => {
    const before = changing().length;
    const r = await t.driver.viewSubmission({ callbackId, userId: ANA, privateMetadata: '{"not":"ours"}' });
    expect(r.status).toBe(200);
    expect((r.json as Json).response_action).toBe(action);
    expect(text(r.json)).toContain(inJson(sentence));
    expect(changing().slice(before)).toEqual([]);
  });
});

describe('a submission that crashes before its ack', () => {
  // A text input whose value is not text: no person's client sends it, but a payload is outside input.
  const notText = { type: 'plain_text_input', value: 42 };

  it('the watch settings modal: a view over the form says nothing was lost, in the modal words', async () => {
    const before = changing().length;
    const r = await t.driver.viewSubmission({
      callbackId: WATCH_SETTINGS_VIEW_ID,
      userId: ADMIN,
      privateMetadata: JSON.stringify({ campaignId: active, channelId: CHANNEL, lang: 'es' }),
      values: { [SETTINGS_BLOCKS.score]: { [SETTINGS_ACTION]: notText } },
    });
    expect(r.status).toBe(200);
    expect((r.json as Json).response_action).toBe('push');
    expect(text(r.json)).toContain(inJson(es.t('submission.crashed')));
    expect(changing().slice(before)).toEqual([]);
    expect(await t.app.deps.store.collection('watch_subscriptions').count()).toBe(0);
  });

  it('the end-user modal: the same, and the end user is not touched', async () => {
    const before = changing().length;
    const r = await t.driver.viewSubmission({
      callbackId: END_USER_VIEW_ID,
      userId: ADMIN,
      privateMetadata: JSON.stringify({ endUserId: 'eu-1' }),
      values: { [END_USER_BLOCKS.name]: { value: notText }, [END_USER_BLOCKS.info]: { value: stateValue.text('') } },
    });
    expect(r.status).toBe(200);
    expect((r.json as Json).response_action).toBe('push');
    expect(text(r.json)).toContain(inJson(en.t('submission.crashed')));
    expect(changing().slice(before)).toEqual([]);
  });
});

describe('after the ack', () => {
  it('a failure of the work is told in the person’s DM, the modal closed', async () => {
    const dm = t.fake.messages(ADMIN).length;
    const r = await t.driver.viewSubmission({
      callbackId: END_USER_VIEW_ID,
      userId: ADMIN,
      privateMetadata: JSON.stringify({ endUserId: 'eu-nobody' }),
      values: {
        [END_USER_BLOCKS.name]: { value: stateValue.text('Ana María') },
        [END_USER_BLOCKS.info]: { value: stateValue.text('') },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
    const told = await t.fake.waitFor(() => t.fake.messages(ADMIN)[dm], 5000);
    expect(told.text).toMatch(/^⚠️ /);
    expect(told.text).toContain('eu-nobody');
    expect(t.sim.control.requests().filter((q) => q.route === 'updateEndUser')).toHaveLength(1);
  });

  it('the Home tab watch modal: saved after an empty ack, the channel watching', async () => {
    const r = await t.driver.viewSubmission({
      callbackId: HOME_WATCH_VIEW_ID,
      userId: ADMIN,
      privateMetadata: String(active),
      values: { [HOME_WATCH_BLOCK]: { [HOME_WATCH_ACTION]: stateValue.conversation(CHANNEL) } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
    const subscriptions = t.app.deps.store.collection('watch_subscriptions');
    expect(
      await eventually(
        () => subscriptions.count(),
        (n) => n === 1,
      ),
    ).toBe(1);
  });
});

describe('a change the service refuses, from a button', () => {
  it('names the campaign: its status now and what can be done from it, in one answer', async () => {
    const since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      actionId: 'campaign_action:activate',
      value: JSON.stringify({ id: active, action: 'activate' }),
      channelId: CHANNEL,
      userId: ADMIN,
    });
    const answer = await t.fake.waitFor(() => t.fake.responseUrlUses()[since]?.body, 5000);
    expect(text(answer)).toContain(`Campaign #${active} is`);
    expect(text(answer)).toContain('campaign_action:pause');
    expect(t.fake.responseUrlUses().slice(since)).toHaveLength(1);
  });
});
