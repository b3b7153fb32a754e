/**
 * A watch's settings, the Slack side: the typed options of `/campaign watch` turned into settings, the "Watch
 * settings" modal opened (from the command's `settings` word, the watch answers, the campaign detail and
 * `/campaign watching`) and read back when submitted, and a compact line's "Details" (the full card in a modal).
 * Who may change them is checked by the `change()` wrappers (routes.ts) and, for the submission, inside its ack.
 */
import type { ViewSubmitAction, BlockAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { CampaignCallItem, type CallListFilterStatus } from '../../outreach/schemas.js';
import { callCardModal } from '../../render/call-message.js';
import type { CallCardValue, SettingsValue } from '../../render/ids.js';
import { raw } from '../../render/mrkdwn.js';
import { serviceErrorText } from '../../render/service-error.js';
import { tmd } from '../../render/text.js';
import {
  SETTINGS_ACTION,
  SETTINGS_BLOCKS,
  SETTINGS_YES,
  SettingsMetadata,
  settingsNoticeModal,
  watchSettingsModal,
} from '../../render/watch-settings.js';
import { MAX_FILTER_TAGS, MAX_FILTER_WORD, readFilter, WatchFilter } from '../../watch/filter.js';
import type { WatchSettings } from '../../watch/service.js';
import type { Subscription } from '../../watch/state.js';
import type { TypedWatchOptions } from '../grammar.js';
import { submission, type ButtonContext, type ViewAck, type Saved, type ViewListener } from '../middleware/listener.js';
import type { ChangeHandler } from '../middleware/change.js';
import { watchChange, type WatchDeps } from './subscribe.js';

/** The settings the typed options make of a watch's current ones (`only:` and `human` replace what they name). */
export function typedSettings(current: Subscription | undefined, typed: TypedWatchOptions): WatchSettings {
  const settings: WatchSettings = {};
  if (typed.format) settings.format = typed.format;
  if (typed.outcomes || typed.human) {
    const filter: WatchFilter = { ...readFilter(current?.filter) };
    if (typed.outcomes) filter.outcomes = typed.outcomes;
    if (typed.human) filter.answeredBy = ['human'];
    settings.filter = filter;
  }
  return settings;
}

/** Opens the Watch settings modal of a channel's watch of a campaign, filled in with what it has now. */
export async function openSettingsModal(
  deps: WatchDeps,
  client: WebClient,
  req: { triggerId: string; campaignId: number; channelId: string; t: Translator },
): Promise<void> {
  const sub = await deps.watch.subscription(req.campaignId, req.channelId);
  const name = sub?.campaignName ?? (await deps.watch.state.campaignName(req.campaignId));
  const filter = readFilter(sub?.filter);
  await client.views.open({
    trigger_id: req.triggerId,
    view: watchSettingsModal(
      {
        campaignId: req.campaignId,
        ...(name ? { campaignName: name } : {}),
        channelId: req.channelId,
        watching: !!sub && !sub.suspended,
        settings: {
          format: sub?.format,
          filter,
          reminderMinutes: sub?.reminderMinutes,
        },
      },
      req.t,
    ),
  });
}

/** "Watch settings" as clicked: the channel it names, or the one it was clicked in. */
export function decodeSettingsButton(value: SettingsValue | null, body: BlockAction): Required<SettingsValue> | null {
  const channelId = value?.channelId ?? body.channel?.id ?? body.container?.channel_id;
  return value && channelId ? { campaignId: value.campaignId, channelId } : null;
}

/** "Watch settings" (a permitted person: the `change()` wrapper checked): the modal opens. */
export const settingsButton: ChangeHandler<ButtonContext<Required<SettingsValue>, WatchDeps>> = async ({
  value,
  deps,
  client,
  triggerId,
  t,
}) => {
  await openSettingsModal(deps, client, { triggerId, ...value, t });
};

// ---------------------------------------------------------------------------------------------------------------
// The submission

type Values = ViewSubmitAction['view']['state']['values'];
type Problems = Partial<Record<(typeof SETTINGS_BLOCKS)[keyof typeof SETTINGS_BLOCKS], string>>;

/** The form's values as settings, or what is wrong under which field. */
function readSettingsForm(values: Values, t: Translator): { settings: WatchSettings } | { problems: Problems } {
  const el = (block: string) => values[block]?.[SETTINGS_ACTION];
  const problems: Problems = {};
  const chosen = (block: string) => (el(block)?.selected_options ?? []).map((o) => o.value);
  const text = (block: string) => (el(block)?.value ?? '').trim();
  const filter: WatchFilter = {};
  const outcomes = chosen(SETTINGS_BLOCKS.outcomes);
  if (outcomes.length) filter.outcomes = outcomes as CallListFilterStatus[];
  const answeredBy = chosen(SETTINGS_BLOCKS.answeredBy);
  if (answeredBy.length) filter.answeredBy = answeredBy as WatchFilter['answeredBy'];
  const score = text(SETTINGS_BLOCKS.score);
  if (score !== '') {
    const n = Number(score);
    if (!Number.isFinite(n) || n < 0 || n > 100) problems[SETTINGS_BLOCKS.score] = t.t('watchSettings.error.score');
    else filter.policyScoreBelow = n;
  }
  if (chosen(SETTINGS_BLOCKS.data).includes(SETTINGS_YES)) filter.withData = true;
  const dataKey = text(SETTINGS_BLOCKS.dataKey);
  if (dataKey) filter.dataKey = dataKey;
  const tags = text(SETTINGS_BLOCKS.tags)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (tags.length > MAX_FILTER_TAGS || tags.some((x) => x.length > MAX_FILTER_WORD)) {
    problems[SETTINGS_BLOCKS.tags] = t.t('watchSettings.error.tags', {
      max: String(MAX_FILTER_TAGS),
      chars: String(MAX_FILTER_WORD),
    });
  } else if (tags.length) filter.tags = [...new Set(tags)];
  if (chosen(SETTINGS_BLOCKS.conversations).includes(SETTINGS_YES)) filter.conversationsOnly = true;
  const reminder = Number(text(SETTINGS_BLOCKS.reminder));
  if (!Number.isInteger(reminder) || reminder < 1 || reminder > 1440) {
    problems[SETTINGS_BLOCKS.reminder] = t.t('watchSettings.error.reminder');
  }
  if (Object.keys(problems).length) return { problems };
  // Checked by zod like anything stored (the options Slack sends back are ours, but a payload is outside input).
  const parsed = WatchFilter.safeParse(filter);
  if (!parsed.success) return { problems: { [SETTINGS_BLOCKS.outcomes]: t.t('watchSettings.stale') } };
  const format = el(SETTINGS_BLOCKS.format)?.selected_option?.value === 'compact' ? 'compact' : 'detailed';
  return { settings: { format, filter: parsed.data, reminderMinutes: reminder } };
}

/** A checked submission of the settings modal, answered in the person's DM in the modal's words. */
export type SettingsEdit = Saved<SettingsInput>;
interface SettingsInput {
  campaignId: number;
  channelId: string;
  settings: WatchSettings;
}

/**
 * The settings modal's submission: a stale form, a read-only person (the refusal audited) and wrong values (errors
 * under their fields) are answered inside the ack; then `save` after it.
 */
export function settingsSubmitted(deps: WatchDeps, save: (edit: SettingsEdit) => Promise<void>): ViewListener {
  const notice = (text: string, t: Translator, response_action: 'update' | 'push' = 'update'): ViewAck => ({
    response_action,
    view: settingsNoticeModal(text, t),
  });
  return submission<ViewAck, SettingsMetadata, SettingsInput>(deps, {
    what: 'watch settings submission',
    metadata: { schema: SettingsMetadata, stale: (t) => notice(t.t('watchSettings.stale'), t) },
    // The modal's language is in its metadata; a stale one is answered in the person's.
    locale: (meta) => meta?.lang,
    refuse: {
      what: () => 'watch',
      campaign: (meta) => meta.campaignId,
      answer: (text, t) => notice(tmd(t, 'watchSettings.refused', { text: raw(text) }), t),
    },
    read: ({ view, meta, t }) => {
      const form = readSettingsForm(view.state.values, t);
      if ('problems' in form) return { ack: { response_action: 'errors', errors: form.problems } };
      return { input: { campaignId: meta.campaignId, channelId: meta.channelId, settings: form.settings } };
    },
    save,
    crashed: (t) => notice(t.t('submission.crashed'), t, 'push'),
  });
}

/** Saves the settings: of the channel's watch, or with a new watch when the channel does not watch it yet. */
export const saveSettings: ChangeHandler<SettingsEdit> = (c) =>
  watchChange((c.deps as WatchDeps).watch, c.t, c.client, {
    userId: c.userId,
    campaignId: c.campaignId,
    channelId: c.channelId,
    settings: c.settings,
  });

// ---------------------------------------------------------------------------------------------------------------
// A compact line's "Details"

/** The full card of a call in a modal: from what the watch holds, else read from the service. */
export async function showCallCard({
  value,
  deps,
  client,
  triggerId,
  t,
}: ButtonContext<CallCardValue, WatchDeps>): Promise<void> {
  const { campaignId, callId } = value;
  const [rec, sub] = await Promise.all([
    deps.watch.state.call(campaignId, callId),
    deps.watch.state.subscriptions.list({ prefix: `${campaignId}/`, limit: 1 }).then((l) => l[0]?.[1]),
  ]);
  const facts = {
    campaignId,
    ...(sub?.campaignName ? { campaignName: sub.campaignName } : {}),
    ...(sub?.campaignTimezone ? { timezone: sub.campaignTimezone } : {}),
    ...(deps.watch.deps.serviceOrigin ? { serviceOrigin: deps.watch.deps.serviceOrigin } : {}),
  };
  if (rec?.snapshot) {
    await client.views.open({ trigger_id: triggerId, view: callCardModal({ ...facts, call: rec.snapshot }, t) });
    return;
  }
  // The trigger id expires in 3 s: open the modal at once, fill it in when the service has answered.
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: settingsNoticeModal(t.t('compactCall.loading'), t, 'compactCall.modalTitle'),
  });
  const viewId = opened.view?.id;
  try {
    const call = await callFromService(deps, campaignId, callId);
    if (viewId) await client.views.update({ view_id: viewId, view: callCardModal({ ...facts, call }, t) });
  } catch (err) {
    const sentence = tmd(t, 'feedback.error', { sentence: serviceErrorText(err, t) });
    if (viewId) {
      await client.views
        .update({ view_id: viewId, view: settingsNoticeModal(sentence, t, 'compactCall.modalTitle') })
        .catch(() => undefined);
    }
    throw err;
  }
}

/** A call as the campaign's list shows it (contact, data, tags), read around its creation; else GET /call alone. */
async function callFromService(deps: WatchDeps, campaignId: number, callId: string): Promise<CampaignCallItem> {
  const call = await deps.outreach.getCall(callId);
  const at = Date.parse(call.created_at);
  if (!Number.isNaN(at)) {
    const list = await deps.outreach.listCampaignCalls(campaignId, {
      createdAfter: new Date(at - 1000),
      createdBefore: new Date(at + 1000),
      pageSize: 100,
    });
    const found = list.calls.find((c) => c.id === callId);
    if (found) return found;
  }
  return CampaignCallItem.parse(call);
}
