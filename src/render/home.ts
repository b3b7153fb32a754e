/**
 * The app's Home tab: counts per status, filters (status, channel, agent), one page of campaigns (active first,
 * then newest) with their schedule, watching channels, analytics, lifecycle buttons and a menu, and page buttons.
 * Pure: the model in, a `home` view out, always within Block Kit's limits (100 blocks, 100 options per select, 5
 * options per overflow menu). In the person's language, times in their timezone.
 */
import type * as types from '@slack/types';
import { z } from 'zod';
import type { MessageKey, Translator } from '../i18n/translator.js';
import {
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  type CampaignDetail,
  type CampaignListItem,
  type CampaignStatus,
  type ChannelType,
} from '../outreach/schemas.js';
import { ACTION_IDS, encodeCampaignId, HOME_ACTION_IDS, HOME_WATCH_VIEW_ID } from './ids.js';
import { analyticsFields } from './campaign-detail.js';
import { homeWaitingBlocks, type WaitingItem } from './attention.js';
import { listItemCycles } from './campaign-list.js';
import { campaignStateLabel, channelLabel, formatDateTime, statusLabel } from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  divider,
  fieldSections,
  fitGroups,
  header,
  inputBlock,
  LIMITS,
  mrkdwnSection,
  oneLine,
  plainLabel,
  plainText,
  raw,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import { tmd } from './text.js';
import type { ActionsBlock, Button, KnownBlock, View } from './types.js';
import { validActions } from '../outreach/rules.js';

/** Status filter values: a campaign status, or the archived campaigns. */
type HomeStatusFilter = CampaignStatus | 'archived';
const HOME_STATUS_FILTERS: readonly HomeStatusFilter[] = [...CAMPAIGN_STATUSES, 'archived'];

export interface HomeFilters {
  status?: HomeStatusFilter;
  channel?: ChannelType;
  agentId?: string;
}

const ALL = 'all';

export type HomeMenuChoice = 'edit' | 'upload' | 'watch' | 'calls' | 'report';

function encodeMenuChoice(choice: HomeMenuChoice, campaignId: number): string {
  return `${choice}:${campaignId}`;
}

export function decodeMenuChoice(value: string | undefined): { choice: HomeMenuChoice; campaignId: number } | null {
  const m = /^(edit|upload|watch|calls|report):(\d{1,15})$/.exec(value ?? '');
  if (!m) return null;
  return { choice: m[1] as HomeMenuChoice, campaignId: Number(m[2]) };
}

/** The filter a `home_filter:*` selection sets; `undefined` value = "all"; null when the selection is not valid. */
export function decodeFilterChoice(
  which: string,
  value: string | undefined,
): { key: keyof HomeFilters; value: string | undefined } | null {
  if (value === undefined) return null;
  const v = value === ALL ? undefined : value;
  if (which === 'status') {
    return v === undefined || (HOME_STATUS_FILTERS as readonly string[]).includes(v)
      ? { key: 'status', value: v }
      : null;
  }
  if (which === 'channel') {
    return v === undefined || (CHANNEL_TYPES as readonly string[]).includes(v) ? { key: 'channel', value: v } : null;
  }
  if (which === 'agent') {
    return v === undefined || /^[A-Za-z0-9_-]{1,64}$/.test(v) ? { key: 'agentId', value: v } : null;
  }
  return null;
}

/** One campaign of the shown page. */
export interface HomeCampaign {
  item: CampaignListItem;
  /** The campaign's details (channel, analytics) when they could be read. */
  detail?: CampaignDetail;
  /** Why the details are missing (a sentence, escaped here). */
  detailProblem?: string;
  /** Channel ids of the channels watching it. */
  watching: string[];
}

export interface HomeModel {
  filters: HomeFilters;
  /** Campaigns per status among those matching the channel and agent filters (archived apart). */
  counts: Record<CampaignStatus, number>;
  archivedCount: number;
  /** Agents seen in the listed campaigns, for the agent filter. */
  agents: { id: string; name?: string | null }[];
  /** 0-based page shown, and how many pages the filtered list has (at least 1). */
  page: number;
  pageCount: number;
  /** Campaigns matching every filter, and the index of the first one shown. */
  matching: number;
  firstIndex: number;
  campaigns: HomeCampaign[];
  /** When the list was read from the service. */
  readAt: Date;
  /** The person's timezone (their Slack `tz`): times are shown in it, naming it. Default: the service's zone. */
  timeZone?: string;
  /** The service listed more campaigns than are read; only the first `listCap` count. */
  listCap?: number;
  /** Whether this person may change campaigns (buttons that change something are shown only then). */
  canChange: boolean;
  /** Who may change campaigns (mrkdwn with mentions, ours), shown to people who can only read. */
  whoCan?: string;
  /** The service could not be read: shown at the top; `readAt` then says how old the list below is. */
  problem?: string;
  /** No list could be read at all (not even an older one). */
  noList?: boolean;
  /** Conversations of watched channels waiting for a person's reply (attention.ts), shown oldest first. */
  waiting?: WaitingItem[];
}

/** Campaigns per page: 4 blocks each plus at most 13 of head and tail keeps a page under 100 blocks. */
export const HOME_CAMPAIGNS_PER_PAGE = 20;

/** Agents offered in the agent filter (plus "All agents"; a select holds at most 100 options). */
const MAX_AGENT_OPTIONS = 98;
/** Analytics shown per campaign in the Home tab (the full set is in the campaign's details). */
const HOME_ANALYTICS_FIELDS = 6;
/** Watching channels listed per campaign. */
const MAX_WATCHING_SHOWN = 8;

type Opt = types.PlainTextOption;

function option(text: string, value: string): Opt {
  return { text: plainText(text, LIMITS.optionText), value };
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

/** "Ana" / the id when the agent has no name (plain text, one line: clean it for mrkdwn, escape it for options). */
function agentName(a: { id: string; name?: string | null } | null | undefined): string {
  if (!a) return '—';
  return oneLine(a.name ?? '') || a.id;
}

function statusFilterOptions(t: Translator): Opt[] {
  return [
    option(t.t('home.filter.allStatuses'), ALL),
    ...CAMPAIGN_STATUSES.map((s) => option(statusLabel(s, t), s)),
    option(t.t('status.archived'), 'archived'),
  ];
}

function channelFilterOptions(t: Translator): Opt[] {
  return [option(t.t('home.filter.allChannels'), ALL), ...CHANNEL_TYPES.map((c) => option(channelLabel(c, t), c))];
}

function agentFilterOptions(model: HomeModel, t: Translator): Opt[] {
  // An option value holds at most 75 characters: agent ids are uuids, anything longer cannot be offered.
  const agents = model.agents
    .filter((a) => a.id.length <= LIMITS.optionValue)
    .sort((a, b) => agentName(a).localeCompare(agentName(b), 'en', { sensitivity: 'base' }));
  const shown = agents.slice(0, MAX_AGENT_OPTIONS);
  const selected = model.filters.agentId;
  if (selected && !shown.some((a) => a.id === selected)) {
    shown.push(agents.find((a) => a.id === selected) ?? { id: selected });
  }
  return [
    option(t.t('home.filter.allAgents'), ALL),
    ...shown.map((a) => option(plainLabel(agentName(a), LIMITS.optionText), a.id)),
  ];
}

function select(which: 'status' | 'channel' | 'agent', placeholder: string, options: Opt[], value?: string) {
  const initial = options.find((o) => o.value === (value ?? ALL)) ?? options[0];
  return {
    type: 'static_select' as const,
    action_id: `${HOME_ACTION_IDS.filter}:${which}`,
    placeholder: plainText(placeholder, 150),
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

function countsBlock(model: HomeModel, t: Translator): KnownBlock[] {
  const fields = CAMPAIGN_STATUSES.map((s) =>
    tmd(t, 'home.count', { label: statusLabel(s, t), count: model.counts[s] }),
  );
  fields.push(tmd(t, 'home.count', { label: t.t('status.archived'), count: model.archivedCount }));
  return fieldSections(fields);
}

function filtersBlock(model: HomeModel, t: Translator): KnownBlock {
  const f = model.filters;
  const elements: ActionsBlock['elements'] = [
    select('status', t.t('home.filter.status'), statusFilterOptions(t), f.status),
    select('channel', t.t('home.filter.channel'), channelFilterOptions(t), f.channel),
    select('agent', t.t('home.filter.agent'), agentFilterOptions(model, t), f.agentId),
    button({ text: t.t('home.refresh'), actionId: HOME_ACTION_IDS.refresh }),
  ];
  if (model.canChange) {
    elements.push(button({ text: t.t('campaignList.new'), actionId: ACTION_IDS.campaignCreateOpen }));
  }
  return actions(elements, 'home_filters');
}

/** "*Name* · #12\n🟢 Active · 📞 Phone call · Agent: Ana\n🗓 …\n🔁 …\n👀 …". */
function campaignText(c: HomeCampaign, t: Translator): string {
  const { item, detail } = c;
  const channel = detail?.integration?.type ?? null;
  const tz = item.timezone ?? detail?.timezone;
  const agent = agentName(item.agent ?? detail?.agent);
  const words = scheduleInWords(item.scheduling ?? detail?.scheduling, t);
  const lines = [
    tmd(t, 'home.campaign', {
      name: cleanLabel(item.name, 200),
      id: String(item.id),
      state: campaignStateLabel(item.status, item.archived, t),
      channel: channel ? channelLabel(channel, t) : t.t('home.channelUnknown'),
      agent: cleanLabel(agent, 100),
      schedule: tz ? t.t('campaignList.scheduleInZone', { schedule: words, zone: tz }) : words,
    }),
  ];
  const cycles = listItemCycles(item);
  if (cycles) {
    const cyclesText = cyclesInWords(cycles, { currentIteration: item.cycle_current_iteration }, t);
    lines.push(tmd(t, 'campaignList.cycles', { cycles: cyclesText }));
  }
  const channels = c.watching.filter((id) => CHANNEL_ID.test(id));
  if (channels.length) {
    // Channel ids checked above: mentions of channels, ours.
    const shown = channels
      .slice(0, MAX_WATCHING_SHOWN)
      .map((id) => `<#${id}>`)
      .join(', ');
    const more = Math.max(0, channels.length - MAX_WATCHING_SHOWN);
    lines.push(tmd(t, 'home.watchedIn', { channels: raw(shown), more }));
  } else {
    lines.push(t.t('home.notWatched'));
  }
  return lines.join('\n');
}

/** "📊 *Calls* 12 · *Contacts answered* 5 · …" from the snapshot; nothing when the campaign has none yet. */
function analyticsLine(c: HomeCampaign, t: Translator): string | null {
  const a = c.detail?.analytics;
  if (!a || Object.keys(a).length === 0) return null;
  const fields = analyticsFields(a, c.detail?.integration?.type, t).slice(0, HOME_ANALYTICS_FIELDS);
  return `📊 ${fields.map((f) => f.replace('\n', ' ')).join(' · ')}`;
}

function menuFor(c: HomeCampaign, model: HomeModel, t: Translator): types.Overflow | null {
  const id = c.item.id;
  const opts: Opt[] = [];
  if (model.canChange) {
    opts.push(option(t.t('home.menu.edit'), encodeMenuChoice('edit', id)));
    // A finished campaign is read-only: no contacts can be added to it.
    if (c.item.status !== 'finished') opts.push(option(t.t('home.menu.upload'), encodeMenuChoice('upload', id)));
    opts.push(option(t.t('home.menu.watch'), encodeMenuChoice('watch', id)));
  }
  // Calls exist for phone campaigns only; when the channel is unknown, offer them.
  if (c.detail?.integration?.type !== 'whatsapp') {
    opts.push(option(t.t('home.menu.calls'), encodeMenuChoice('calls', id)));
  }
  opts.push(option(t.t('report.button'), encodeMenuChoice('report', id)));
  if (opts.length === 0) return null;
  return { type: 'overflow', action_id: HOME_ACTION_IDS.menu, options: opts.slice(0, LIMITS.overflowOptions) };
}

function campaignGroup(c: HomeCampaign, model: HomeModel, t: Translator): KnownBlock[] {
  const blocks: KnownBlock[] = [mrkdwnSection(campaignText(c, t))];
  const analytics = analyticsLine(c, t);
  if (analytics) blocks.push(context(analytics));
  else if (c.detailProblem) blocks.push(context(tmd(t, 'home.analyticsUnavailable', { problem: c.detailProblem })));
  const { item } = c;
  const elements: ActionsBlock['elements'] = [
    button({
      text: t.t('campaignList.show'),
      actionId: ACTION_IDS.campaignShow,
      value: encodeCampaignId(item.id),
      accessibilityLabel: t.t('campaignList.showLabel', { id: String(item.id) }),
    }),
  ];
  if (model.canChange) elements.push(...lifecycleButtons(item, validActions(item.status, item.archived), t));
  const menu = menuFor(c, model, t);
  if (menu) elements.push(menu);
  blocks.push(actions(elements, `home_campaign:${item.id}`));
  blocks.push(divider());
  return blocks;
}

function pageButtons(model: HomeModel, t: Translator): Button[] {
  const out: Button[] = [];
  if (model.page > 0) {
    const value = String(model.page - 1);
    out.push(button({ text: t.t('paging.previous'), actionId: `${HOME_ACTION_IDS.page}:prev`, value }));
  }
  if (model.page + 1 < model.pageCount) {
    const value = String(model.page + 1);
    out.push(button({ text: t.t('paging.next'), actionId: `${HOME_ACTION_IDS.page}:next`, value }));
  }
  return out;
}

/** The status filter in words, as in "matching _active_". */
const STATUS_FILTER_WORDS: Record<HomeStatusFilter, MessageKey> = {
  pending: 'home.filterWord.pending',
  ready: 'home.filterWord.ready',
  active: 'home.filterWord.active',
  inactive: 'home.filterWord.inactive',
  cooldown: 'home.filterWord.cooldown',
  finished: 'home.filterWord.finished',
  archived: 'home.filterWord.archived',
};

/** The filters in words (plain text), e.g. "active, phone calls, agent Ana"; empty for none. */
function filterWords(f: HomeFilters, agents: HomeModel['agents'], t: Translator): string {
  const parts: string[] = [];
  if (f.status) parts.push(t.t(STATUS_FILTER_WORDS[f.status]));
  if (f.channel) {
    parts.push(t.t(f.channel === 'phone_call' ? 'campaignList.filter.phone' : 'campaignList.filter.whatsapp'));
  }
  if (f.agentId) {
    const agent = cleanLabel(agentName(agents.find((a) => a.id === f.agentId) ?? { id: f.agentId }), 100);
    parts.push(t.t('campaignList.filter.agent', { agent }));
  }
  return parts.join(', ');
}

function emptyText(model: HomeModel, t: Translator): string {
  const words = filterWords(model.filters, model.agents, t);
  if (!words) return t.t(model.canChange ? 'home.empty' : 'home.emptyReadOnly');
  return tmd(t, 'home.emptyFiltered', { filter: words });
}

/** The Home tab view for one person, in their words; times in `model.timeZone`. */
export function homeView(model: HomeModel, t: Translator): View {
  const head: KnownBlock[] = [header(t.t('home.header'))];
  const readAt = formatDateTime(model.readAt, model.timeZone, t);
  if (model.problem) {
    const hasAge = model.noList ? 'no' : 'yes';
    head.push(mrkdwnSection(tmd(t, 'home.problem', { problem: model.problem, hasAge, readAt })));
  }
  if (!model.noList) head.push(...countsBlock(model, t));
  head.push(filtersBlock(model, t));
  if (!model.canChange && model.whoCan) head.push(context(tmd(t, 'home.readOnly', { whoCan: raw(model.whoCan) })));
  if (model.waiting?.length) head.push(...homeWaitingBlocks(model.waiting, t, model.timeZone));

  const tail: KnownBlock[] = [];
  if (model.noList) {
    return { type: 'home', blocks: [...head] };
  }
  const words = filterWords(model.filters, model.agents, t);
  const status =
    model.matching === 0
      ? ''
      : tmd(t, 'home.showing', {
          from: model.firstIndex + 1,
          to: model.firstIndex + model.campaigns.length,
          total: model.matching,
          filtered: words ? 'yes' : 'no',
          filter: words,
          page: model.page + 1,
          pages: model.pageCount,
        });
  head.push(
    context(
      tmd(t, 'home.readLine', {
        hasStatus: status ? 'yes' : 'no',
        status: raw(status),
        readAt,
        capped: model.listCap ? 'yes' : 'no',
        cap: model.listCap ?? 0,
      }),
    ),
  );
  head.push(divider());

  if (model.campaigns.length === 0) {
    return { type: 'home', blocks: [...head, mrkdwnSection(emptyText(model, t))] };
  }
  const pages = pageButtons(model, t);
  if (pages.length) tail.push(actions(pages, 'home_pages'));
  const blocks = fitGroups({
    head,
    groups: model.campaigns.map((c) => campaignGroup(c, model, t)),
    tail,
    max: LIMITS.viewBlocks,
    moreText: (n) => t.t('home.more', { count: n }),
  });
  return { type: 'home', blocks };
}

/** What the Home tab shows while the first list is being read. */
export function homeLoadingView(t: Translator): View {
  return {
    type: 'home',
    blocks: [header(t.t('home.header')), mrkdwnSection(t.t('home.loading'))],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// "Watch in a channel" (from a campaign's menu): the Home tab has no channel of its own, so the person picks one.

export const HOME_WATCH_BLOCK = 'home_watch_channel';
export const HOME_WATCH_ACTION = 'channel';

/** private_metadata of the watch modal, as `decodeJson` reads it back: the campaign id, as digits. */
export const HomeWatchMetadata = z.number().int().nonnegative();

export function homeWatchModal(campaign: { id: number; name?: string | null }, t: Translator): View {
  const name = cleanLabel(campaign.name ?? '', 200);
  const question = tmd(t, 'home.watch.question', { named: name ? 'yes' : 'no', name, id: String(campaign.id) });
  return {
    type: 'modal',
    callback_id: HOME_WATCH_VIEW_ID,
    private_metadata: String(campaign.id),
    title: plainText(t.t('home.watch.title'), 24),
    submit: plainText(t.t('home.watch.submit'), 24),
    close: plainText(t.t('common.cancel'), 24),
    blocks: [
      mrkdwnSection(question),
      inputBlock({
        blockId: HOME_WATCH_BLOCK,
        label: t.t('home.watch.channel'),
        element: {
          type: 'conversations_select',
          action_id: HOME_WATCH_ACTION,
          placeholder: plainText(t.t('home.watch.placeholder'), 150),
          filter: { include: ['public', 'private'], exclude_bot_users: true },
        },
      }),
      context(t.t('home.watch.hint')),
    ],
  };
}

/** A modal that only says something (a refusal after submit). `text` is mrkdwn, already escaped. */
export function homeNoticeModal(title: string, text: string, t: Translator): View {
  return {
    type: 'modal',
    title: plainText(title, 24),
    close: plainText(t.t('common.close'), 24),
    blocks: [mrkdwnSection(text)],
  };
}
