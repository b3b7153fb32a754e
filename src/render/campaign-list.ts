/** The campaign list message (`/campaign list`). */
import type { CampaignListItem, Cycles } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCampaignId, encodeCampaignListNext, type CampaignListRequestFilter } from './ids.js';
import { campaignStateLabel, formatCount, NONE, plural } from './format.js';
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
  raw,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';
import { validActions } from '../outreach/rules.js';

/** Page size to request from the service: every campaign of such a page fits in one message (2 blocks each). */
export const CAMPAIGNS_PER_MESSAGE = 20;

export interface CampaignListMessageInput {
  campaigns: CampaignListItem[];
  /** The service's total_count (cached 3 minutes by the service). */
  totalCount?: number | null;
  nextCursor?: string | null;
  /** Our description of the filter in words, e.g. "active, WhatsApp"; empty for none. Escaped here. */
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
function campaignText(c: CampaignListItem): string {
  const agent = c.agent ? cleanLabel(c.agent.name ?? '', 100) || c.agent.id : NONE;
  const tz = c.timezone ? md` (${c.timezone})` : '';
  let text = md`*${cleanLabel(c.name, 200)}* · #${c.id}\n${campaignStateLabel(c.status, c.archived)} · Agent: ${agent}\n`;
  text += md`🗓 ${scheduleInWords(c.scheduling)}${raw(tz)}`;
  const cycles = listItemCycles(c);
  if (cycles) text += md`\n🔁 Cycles: ${cyclesInWords(cycles, { currentIteration: c.cycle_current_iteration })}`;
  return text;
}

function campaignGroup(c: CampaignListItem): KnownBlock[] {
  const show = button({
    text: 'Show',
    actionId: ACTION_IDS.campaignShow,
    value: encodeCampaignId(c.id),
    accessibilityLabel: `Show campaign ${c.id}`,
  });
  return [mrkdwnSection(campaignText(c)), actions([show, ...lifecycleButtons(c, validActions(c.status, c.archived))])];
}

function newCampaignButton(): Button {
  return button({ text: '➕ New campaign', actionId: ACTION_IDS.campaignCreateOpen });
}

/** The ids of campaigns left out of a message, as "#31, #32, …" (at most 100 listed). */
function idList(cs: CampaignListItem[]): string {
  const shown = cs.slice(0, 100).map((c) => `#${c.id}`);
  return shown.join(', ') + (cs.length > 100 ? ', …' : '');
}

export function campaignListMessage(input: CampaignListMessageInput): SlackMessage {
  const { campaigns, nextCursor } = input;
  const filterText = input.filterText?.trim() ?? '';
  const filterNote = filterText ? md` matching _${filterText}_` : '';

  if (campaigns.length === 0 && !nextCursor) {
    return {
      text: fallback(md`No campaigns${raw(filterNote)}.`),
      blocks: [
        header('Campaigns'),
        mrkdwnSection(
          filterText
            ? md`No campaigns${raw(filterNote)}. List them all with \`/campaign list\`, or create one with the button below.`
            : 'No campaigns yet. Create one with the button below or `/campaign create`.',
        ),
        actions([newCampaignButton()]),
      ],
    };
  }

  const total = input.totalCount ?? null;
  const counted =
    total !== null && total >= campaigns.length
      ? `Showing ${formatCount(campaigns.length)} of ${plural(total, 'campaign')}`
      : `Showing ${plural(campaigns.length, 'campaign')}`;
  const head: KnownBlock[] = [header('Campaigns'), context(md`${counted}${raw(filterNote)}`)];

  const tailButtons: Button[] = [];
  let cursorNote: string | null = null;
  if (nextCursor) {
    const value = encodeCampaignListNext({ cursor: nextCursor, filter: input.requestFilter ?? {} });
    if (fitsButtonValue(value)) {
      tailButtons.push(button({ text: 'Next page ▶', actionId: ACTION_IDS.campaignListNext, value }));
    } else {
      cursorNote =
        'More campaigns exist, but the service’s page cursor is too long to carry on a button. ' +
        'Narrow the list with a filter, e.g. `/campaign list active`.';
    }
  }
  tailButtons.push(newCampaignButton());
  const tail: KnownBlock[] = [...(cursorNote ? [context(cursorNote)] : []), actions(tailButtons)];

  const groups = campaigns.map(campaignGroup);
  const blocks = fitGroups({
    head,
    groups,
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) => {
      const left = campaigns.slice(campaigns.length - n);
      return `…and ${plural(n, 'more campaign')} on this page not shown (Slack shows at most ${LIMITS.messageBlocks} blocks): ${idList(left)}. Open one with \`/campaign show &lt;id&gt;\`${nextCursor ? '; the Next page button continues after them' : ''}.`;
    },
  });
  const names = campaigns
    .slice(0, 5)
    .map((c) => md`${cleanLabel(c.name, 80)} (#${c.id})`)
    .join(', ');
  return {
    text: fallback(`${counted}${filterNote}: ${names}${campaigns.length > 5 ? ', …' : ''}`),
    blocks,
  };
}
