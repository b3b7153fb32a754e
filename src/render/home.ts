/**
 * The app's Home tab: counts per status, filters (status, channel, agent), one page of campaigns (active first,
 * then newest) with their schedule, watching channels, analytics, lifecycle buttons and a menu, and page buttons.
 * Pure: the model in, a `home` view out, always within Block Kit's limits (100 blocks, 100 options per select, 5
 * options per overflow menu).
 */
import type * as types from '@slack/types';
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
import { listItemCycles } from './campaign-list.js';
import {
  ARCHIVED_LABEL,
  campaignStateLabel,
  channelLabel,
  formatCount,
  formatDateTime,
  plural,
  statusLabel,
} from './format.js';
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
  LIMITS,
  md,
  mrkdwnSection,
  oneLine,
  plainLabel,
  plainText,
  raw,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
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

export type HomeMenuChoice = 'edit' | 'upload' | 'watch' | 'calls';

function encodeMenuChoice(choice: HomeMenuChoice, campaignId: number): string {
  return `${choice}:${campaignId}`;
}

export function decodeMenuChoice(value: string | undefined): { choice: HomeMenuChoice; campaignId: number } | null {
  const m = /^(edit|upload|watch|calls):(\d{1,15})$/.exec(value ?? '');
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

function statusFilterOptions(): Opt[] {
  return [
    option('All statuses', ALL),
    ...CAMPAIGN_STATUSES.map((s) => option(statusLabel(s), s)),
    option(ARCHIVED_LABEL, 'archived'),
  ];
}

function channelFilterOptions(): Opt[] {
  return [option('All channels', ALL), ...CHANNEL_TYPES.map((c) => option(channelLabel(c), c))];
}

function agentFilterOptions(model: HomeModel): Opt[] {
  // An option value holds at most 75 characters: agent ids are uuids, anything longer cannot be offered.
  const agents = model.agents
    .filter((a) => a.id.length <= LIMITS.optionValue)
    .sort((a, b) => agentName(a).localeCompare(agentName(b), 'en', { sensitivity: 'base' }));
  const shown = agents.slice(0, MAX_AGENT_OPTIONS);
  const selected = model.filters.agentId;
  if (selected && !shown.some((a) => a.id === selected)) {
    shown.push(agents.find((a) => a.id === selected) ?? { id: selected });
  }
  return [option('All agents', ALL), ...shown.map((a) => option(plainLabel(agentName(a), LIMITS.optionText), a.id))];
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

function countsBlock(model: HomeModel): KnownBlock[] {
  const fields = CAMPAIGN_STATUSES.map((s) => md`${statusLabel(s)}\n*${formatCount(model.counts[s])}*`);
  fields.push(md`${ARCHIVED_LABEL}\n*${formatCount(model.archivedCount)}*`);
  return fieldSections(fields);
}

function filtersBlock(model: HomeModel): KnownBlock {
  const f = model.filters;
  const elements: ActionsBlock['elements'] = [
    select('status', 'Status', statusFilterOptions(), f.status),
    select('channel', 'Channel', channelFilterOptions(), f.channel),
    select('agent', 'Agent', agentFilterOptions(model), f.agentId),
    button({ text: '🔄 Refresh', actionId: HOME_ACTION_IDS.refresh }),
  ];
  if (model.canChange) elements.push(button({ text: '➕ New campaign', actionId: ACTION_IDS.campaignCreateOpen }));
  return actions(elements, 'home_filters');
}

/** "*Name* · #12\n🟢 Active · 📞 Phone call · Agent: Ana\n🗓 …\n🔁 …\n👀 …". */
function campaignText(c: HomeCampaign): string {
  const { item, detail } = c;
  const channel = detail?.integration?.type ?? null;
  const tz = item.timezone ?? detail?.timezone;
  const agent = agentName(item.agent ?? detail?.agent);
  let text = md`*${cleanLabel(item.name, 200)}* · #${item.id}\n`;
  text += md`${campaignStateLabel(item.status, item.archived)} · ${channel ? channelLabel(channel) : 'Channel unknown'} · Agent: ${cleanLabel(agent, 100)}\n`;
  text += md`🗓 ${scheduleInWords(item.scheduling ?? detail?.scheduling)}${tz ? ` (${tz})` : ''}`;
  const cycles = listItemCycles(item);
  if (cycles) text += md`\n🔁 Cycles: ${cyclesInWords(cycles, { currentIteration: item.cycle_current_iteration })}`;
  const channels = c.watching.filter((id) => CHANNEL_ID.test(id));
  if (channels.length) {
    const shown = channels
      .slice(0, MAX_WATCHING_SHOWN)
      .map((id) => `<#${id}>`)
      .join(', ');
    const more = channels.length > MAX_WATCHING_SHOWN ? md` and ${channels.length - MAX_WATCHING_SHOWN} more` : '';
    text += `\n👀 Watched in ${shown}${more}`;
  } else {
    text += '\n👀 Not watched in any channel';
  }
  return text;
}

/** "📊 *Calls* 12 · *Contacts answered* 5 · …" from the snapshot; nothing when the campaign has none yet. */
function analyticsLine(c: HomeCampaign): string | null {
  const a = c.detail?.analytics;
  if (!a || Object.keys(a).length === 0) return null;
  const fields = analyticsFields(a, c.detail?.integration?.type).slice(0, HOME_ANALYTICS_FIELDS);
  return `📊 ${fields.map((f) => f.replace('\n', ' ')).join(' · ')}`;
}

function menuFor(c: HomeCampaign, model: HomeModel): types.Overflow | null {
  const id = c.item.id;
  const opts: Opt[] = [];
  if (model.canChange) {
    opts.push(option('✏️ Edit', encodeMenuChoice('edit', id)));
    // A finished campaign is read-only: no contacts can be added to it.
    if (c.item.status !== 'finished') opts.push(option('📤 Upload contacts', encodeMenuChoice('upload', id)));
    opts.push(option('👀 Watch in a channel', encodeMenuChoice('watch', id)));
  }
  // Calls exist for phone campaigns only; when the channel is unknown, offer them.
  if (c.detail?.integration?.type !== 'whatsapp') opts.push(option('📞 Show calls', encodeMenuChoice('calls', id)));
  if (opts.length === 0) return null;
  return { type: 'overflow', action_id: HOME_ACTION_IDS.menu, options: opts.slice(0, LIMITS.overflowOptions) };
}

function campaignGroup(c: HomeCampaign, model: HomeModel): KnownBlock[] {
  const blocks: KnownBlock[] = [mrkdwnSection(campaignText(c))];
  const analytics = analyticsLine(c);
  if (analytics) blocks.push(context(analytics));
  else if (c.detailProblem) blocks.push(context(md`📊 Analytics unavailable right now: ${c.detailProblem}`));
  const { item } = c;
  const elements: ActionsBlock['elements'] = [
    button({
      text: 'Show',
      actionId: ACTION_IDS.campaignShow,
      value: encodeCampaignId(item.id),
      accessibilityLabel: `Show campaign ${item.id}`,
    }),
  ];
  if (model.canChange) elements.push(...lifecycleButtons(item, validActions(item.status, item.archived)));
  const menu = menuFor(c, model);
  if (menu) elements.push(menu);
  blocks.push(actions(elements, `home_campaign:${item.id}`));
  blocks.push(divider());
  return blocks;
}

function pageButtons(model: HomeModel): Button[] {
  const out: Button[] = [];
  if (model.page > 0) {
    out.push(button({ text: '◀ Previous', actionId: `${HOME_ACTION_IDS.page}:prev`, value: String(model.page - 1) }));
  }
  if (model.page + 1 < model.pageCount) {
    out.push(button({ text: 'Next ▶', actionId: `${HOME_ACTION_IDS.page}:next`, value: String(model.page + 1) }));
  }
  return out;
}

function filterWords(f: HomeFilters, agents: HomeModel['agents']): string {
  const parts: string[] = [];
  if (f.status) parts.push(f.status === 'archived' ? 'archived' : f.status);
  if (f.channel) parts.push(f.channel === 'phone_call' ? 'phone calls' : 'WhatsApp');
  if (f.agentId) {
    parts.push(`agent ${cleanLabel(agentName(agents.find((a) => a.id === f.agentId) ?? { id: f.agentId }), 100)}`);
  }
  return parts.join(', ');
}

function emptyText(model: HomeModel): string {
  const words = filterWords(model.filters, model.agents);
  if (!words) {
    return model.canChange
      ? 'No campaigns yet. Create one with *➕ New campaign* above or `/campaign create`.'
      : 'No campaigns yet.';
  }
  return md`No campaigns match _${words}_. Choose other filters above, or "All" to see every campaign.`;
}

/** The Home tab view for one person. */
export function homeView(model: HomeModel): View {
  const head: KnownBlock[] = [header('📣 Campaigns')];
  if (model.problem) {
    const age = model.noList
      ? ''
      : md`\nThe list below is from ${formatDateTime(model.readAt)} and may be out of date.`;
    head.push(
      mrkdwnSection(
        md`⚠️ *I couldn't read the campaigns from the outreach service.* ${model.problem}${raw(age)}\nPress *🔄 Refresh* to try again.`,
      ),
    );
  }
  if (!model.noList) head.push(...countsBlock(model));
  head.push(filtersBlock(model));
  if (!model.canChange && model.whoCan) head.push(context(`👁 You can read campaigns here. ${model.whoCan}`));

  const tail: KnownBlock[] = [];
  if (model.noList) {
    return { type: 'home', blocks: [...head] };
  }
  const words = filterWords(model.filters, model.agents);
  const shownTo = model.firstIndex + model.campaigns.length;
  const status =
    model.matching === 0
      ? ''
      : `Showing ${formatCount(model.firstIndex + 1)}–${formatCount(shownTo)} of ${plural(model.matching, 'campaign')}` +
        (words ? md` matching _${words}_` : '') +
        ` · page ${formatCount(model.page + 1)} of ${formatCount(model.pageCount)} · active first, then newest`;
  const read = md`Read ${formatDateTime(model.readAt)}`;
  const cap = model.listCap
    ? md` · the service lists more campaigns than the first ${formatCount(model.listCap)} read here; use the filters to narrow it`
    : '';
  head.push(context(status ? `${status} · ${read}${cap}` : `${read}${cap}`));
  head.push(divider());

  if (model.campaigns.length === 0) {
    return { type: 'home', blocks: [...head, mrkdwnSection(emptyText(model))] };
  }
  const pages = pageButtons(model);
  if (pages.length) tail.push(actions(pages, 'home_pages'));
  const blocks = fitGroups({
    head,
    groups: model.campaigns.map((c) => campaignGroup(c, model)),
    tail,
    max: LIMITS.viewBlocks,
    moreText: (n) => `…and ${plural(n, 'more campaign')} on this page not shown (a Home tab holds at most 100 blocks).`,
  });
  return { type: 'home', blocks };
}

/** What the Home tab shows while the first list is being read. */
export function homeLoadingView(): View {
  return {
    type: 'home',
    blocks: [header('📣 Campaigns'), mrkdwnSection('⏳ Reading the campaigns from the outreach service…')],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// "Watch in a channel" (from a campaign's menu): the Home tab has no channel of its own, so the person picks one.

export const HOME_WATCH_BLOCK = 'home_watch_channel';
export const HOME_WATCH_ACTION = 'channel';

/** private_metadata of the watch modal: the campaign id as digits. */
export function decodeWatchMetadata(meta: string | undefined): number | null {
  return meta && /^\d{1,15}$/.test(meta) ? Number(meta) : null;
}

export function homeWatchModal(campaign: { id: number; name?: string | null }): View {
  const name = cleanLabel(campaign.name ?? '', 200);
  const which = name ? md`*${name}* (#${campaign.id})` : `campaign #${campaign.id}`;
  return {
    type: 'modal',
    callback_id: HOME_WATCH_VIEW_ID,
    private_metadata: String(campaign.id),
    title: plainText('Watch a campaign', 24),
    submit: plainText('Watch', 24),
    close: plainText('Cancel', 24),
    blocks: [
      mrkdwnSection(
        `Which channel should follow ${which}? Calls (or WhatsApp progress) are posted there as they happen.`,
      ),
      {
        type: 'input',
        block_id: HOME_WATCH_BLOCK,
        label: plainText('Channel', 2000),
        element: {
          type: 'conversations_select',
          action_id: HOME_WATCH_ACTION,
          placeholder: plainText('Choose a channel', 150),
          filter: { include: ['public', 'private'], exclude_bot_users: true },
        },
      },
      context('I join public channels by myself; invite me to a private one first with `/invite @Outreach`.'),
    ],
  };
}

/** A modal that only says something (a refusal after submit). `text` is mrkdwn, already escaped. */
export function homeNoticeModal(title: string, text: string): View {
  return {
    type: 'modal',
    title: plainText(title, 24),
    close: plainText('Close', 24),
    blocks: [mrkdwnSection(text)],
  };
}
