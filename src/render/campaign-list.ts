/** The campaign list message (`/campaign list`), in the language of the person who asked. */
import type { Translator } from '../i18n/translator.js';
import type { CampaignListItem, Cycles } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCampaignId, encodeCampaignListNext, type CampaignListRequestFilter } from './ids.js';
import { campaignStateLabel, NONE } from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  fallback,
  fitGroups,
  fitsButtonValue,
  header,
  LIMITS,
  md,
  mrkdwnSection,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import { tmd } from './text.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';
import { validActions } from '../outreach/rules.js';

/** Page size to request from the service: every campaign of such a page fits in one message (2 blocks each). */
export const CAMPAIGNS_PER_MESSAGE = 20;

export interface CampaignListMessageInput {
  campaigns: CampaignListItem[];
  /** The service's total_count (cached 3 minutes by the service). */
  totalCount?: number | null;
  nextCursor?: string | null;
  /** Our description of the filter in words (in the person's language), e.g. "active, WhatsApp"; empty for none. */
  filterText?: string;
  /** The filters of the request, carried by the Next page button. */
  requestFilter?: CampaignListRequestFilter;
}

/** The list item's cycle_* fields as a cycles block, for `cyclesInWords`. */
export function listItemCycles(c: CampaignListItem): Cycles | null {
  if (!c.cycle_enabled) return null;
  return {
    enabled: true,
    max_iterations: c.cycle_max_iterations,
    cooldown_minutes: c.cycle_cooldown_minutes,
    filter_statuses: c.cycle_filter_statuses,
  };
}

/** "*Name* · #12\n🟢 Active · Agent: Ana\n🗓 Mon-Fri 09:00-18:00 (America/Mexico_City)". */
function campaignText(c: CampaignListItem, t: Translator): string {
  const agent = c.agent ? cleanLabel(c.agent.name ?? '', 100) || c.agent.id : NONE;
  const words = scheduleInWords(c.scheduling, t);
  const schedule = c.timezone ? t.t('campaignList.scheduleInZone', { schedule: words, zone: c.timezone }) : words;
  const lines = [
    tmd(t, 'campaignList.item', {
      name: cleanLabel(c.name, 200),
      id: String(c.id),
      state: campaignStateLabel(c.status, c.archived, t),
      agent,
      schedule,
    }),
  ];
  const cycles = listItemCycles(c);
  if (cycles) {
    const words = cyclesInWords(cycles, { currentIteration: c.cycle_current_iteration }, t);
    lines.push(tmd(t, 'campaignList.cycles', { cycles: words }));
  }
  return lines.join('\n');
}

function campaignGroup(c: CampaignListItem, t: Translator): KnownBlock[] {
  const show = button({
    text: t.t('campaignList.show'),
    actionId: ACTION_IDS.campaignShow,
    value: encodeCampaignId(c.id),
    accessibilityLabel: t.t('campaignList.showLabel', { id: String(c.id) }),
  });
  return [
    mrkdwnSection(campaignText(c, t)),
    actions([show, ...lifecycleButtons(c, validActions(c.status, c.archived), t)]),
  ];
}

function newCampaignButton(t: Translator): Button {
  return button({ text: t.t('campaignList.new'), actionId: ACTION_IDS.campaignCreateOpen });
}

/** The ids of campaigns left out of a message, as "#31, #32, …" (at most 100 listed). */
function idList(cs: CampaignListItem[]): string {
  const shown = cs.slice(0, 100).map((c) => `#${c.id}`);
  return shown.join(', ') + (cs.length > 100 ? ', …' : '');
}

export function campaignListMessage(input: CampaignListMessageInput, t: Translator): SlackMessage {
  const { campaigns, nextCursor } = input;
  const filter = input.filterText?.trim() ?? '';
  const filtered = filter ? 'yes' : 'no';

  if (campaigns.length === 0 && !nextCursor) {
    return {
      text: fallback(filter ? tmd(t, 'campaignList.noneMatching', { filter }) : t.t('campaignList.none')),
      blocks: [
        header(t.t('campaignList.header')),
        mrkdwnSection(filter ? tmd(t, 'campaignList.emptyFiltered', { filter }) : t.t('campaignList.empty')),
        actions([newCampaignButton(t)]),
      ],
    };
  }

  const total = input.totalCount ?? null;
  const counted =
    total !== null && total >= campaigns.length
      ? tmd(t, 'campaignList.showingOf', { shown: campaigns.length, total, filtered, filter })
      : tmd(t, 'campaignList.showing', { count: campaigns.length, filtered, filter });
  const head: KnownBlock[] = [header(t.t('campaignList.header')), context(counted)];

  const tailButtons: Button[] = [];
  let cursorNote: string | null = null;
  if (nextCursor) {
    const value = encodeCampaignListNext({ cursor: nextCursor, filter: input.requestFilter ?? {} });
    if (fitsButtonValue(value)) {
      tailButtons.push(button({ text: t.t('campaignList.next'), actionId: ACTION_IDS.campaignListNext, value }));
    } else {
      cursorNote = t.t('campaignList.cursorTooLong');
    }
  }
  tailButtons.push(newCampaignButton(t));
  const tail: KnownBlock[] = [...(cursorNote ? [context(cursorNote)] : []), actions(tailButtons)];

  const groups = campaigns.map((c) => campaignGroup(c, t));
  const blocks = fitGroups({
    head,
    groups,
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) =>
      tmd(t, 'campaignList.more', {
        count: n,
        max: LIMITS.messageBlocks,
        ids: idList(campaigns.slice(campaigns.length - n)),
        hasNext: nextCursor ? 'yes' : 'no',
      }),
  });
  const names = campaigns
    .slice(0, 5)
    .map((c) => md`${cleanLabel(c.name, 80)} (#${c.id})`)
    .join(', ');
  return {
    text: fallback(`${counted}: ${names}${campaigns.length > 5 ? ', …' : ''}`),
    blocks,
  };
}
