/** A page of a campaign's contacts, and one contact in full. */
import {
  DELETABLE_CONTACT_STATUSES,
  type CampaignContact,
  type ContactStatus,
  type PagePagination,
} from '../outreach/schemas.js';
import { ACTION_IDS, actionId, encodeContactRef, encodeContactsPage } from './ids.js';
import {
  contactStatusLabel,
  formatCount,
  formatDuration,
  formatLastCallAt,
  formatPhone,
  plural,
  yesNo,
} from './format.js';
import {
  actions,
  button,
  cleanLabel,
  confirmDialog,
  context,
  fallback,
  fieldSections,
  fitGroups,
  header,
  LIMITS,
  md,
  mrkdwnSection,
  raw,
  truncate,
} from './mrkdwn.js';
import { pageButtons } from './paging.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';

/** Page size to request: a page of this many contacts fits in one message (2 blocks each). */
export const CONTACTS_PER_MESSAGE = 20;
/** Extracted-data fields shown on a contact before "…and N more". */
const MAX_EXTRACTED_FIELDS = 10;

export interface ContactsPageInput {
  campaignId: number;
  campaignName?: string | null;
  contacts: CampaignContact[];
  /** 0-based page number of this page. */
  page: number;
  pagination: PagePagination;
  /** The service computes total_count on the first page only. */
  totalCount?: number | null;
  status?: ContactStatus;
  /** Zone to show last-call times in (the campaign's); default: the service's default zone. */
  timezone?: string | null;
}

/** The contact's name as one clean line (cleanLabel, at most 200 characters), or "Contact #id". Plain text. */
function contactName(c: { name?: string | null; id: number }): string {
  return cleanLabel(c.name ?? '', 200) || `Contact #${c.id}`;
}

function isDeletable(status: string): boolean {
  return DELETABLE_CONTACT_STATUSES.includes(status);
}

function removeButton(campaignId: number, c: CampaignContact): Button {
  return button({
    text: 'Remove',
    actionId: ACTION_IDS.contactRemove,
    value: encodeContactRef({ campaignId, contactId: c.id }),
    style: 'danger',
    confirm: confirmDialog({
      title: 'Remove contact?',
      text: md`Remove ${truncate(contactName(c), 80)}? ${formatPhone(c.contact)} will be taken out of campaign #${campaignId}. This cannot be undone.`,
      confirm: 'Remove',
      danger: true,
    }),
  });
}

function contactGroup(campaignId: number, c: CampaignContact, tz: string | null | undefined): KnownBlock[] {
  let text = md`*${contactName(c)}* · ${formatPhone(c.contact)}\n${contactStatusLabel(c.status)}`;
  text += md` · ${plural(c.call_count ?? 0, 'call')}`;
  if (c.last_call_at) text += md` · last ${formatLastCallAt(c.last_call_at, tz)}`;
  const buttons = [
    button({
      text: 'Details',
      actionId: ACTION_IDS.contactDetails,
      value: encodeContactRef({ campaignId, contactId: c.id }),
    }),
  ];
  if (isDeletable(c.status)) buttons.push(removeButton(campaignId, c));
  return [mrkdwnSection(text), actions(buttons)];
}

export function contactsPageMessage(input: ContactsPageInput): SlackMessage {
  const { campaignId, contacts, page, pagination, status } = input;
  const name = cleanLabel(input.campaignName ?? '', 200);
  const of = name ? md`*${name}* (#${campaignId})` : `campaign #${campaignId}`;
  const filter = status ? md` with status ${contactStatusLabel(status)}` : '';
  const nav = pageButtons(ACTION_IDS.contactsPage, page, pagination, (p) =>
    encodeContactsPage({ campaignId, page: p, status }),
  );
  const tail: KnownBlock[] = nav.length ? [actions(nav)] : [];

  if (contacts.length === 0) {
    const text = page === 0 ? md`No contacts in ${raw(of)}${raw(filter)}.` : 'No contacts on this page.';
    return {
      text: fallback(text),
      blocks: [
        header(`Contacts · campaign #${campaignId}`),
        mrkdwnSection(text + (page === 0 && !status ? `\nAdd some with \`/campaign upload ${campaignId}\`.` : '')),
        ...tail,
      ],
    };
  }

  const total = input.totalCount;
  const count =
    total !== null && total !== undefined
      ? `${formatCount(contacts.length)} of ${plural(total, 'contact')}`
      : plural(contacts.length, 'contact');
  const summary = `${of}${filter} · page ${formatCount(page + 1)} · ${count}`;
  const blocks = fitGroups({
    head: [header(`Contacts · campaign #${campaignId}`), context(summary)],
    groups: contacts.map((c) => contactGroup(campaignId, c, input.timezone)),
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) =>
      `…and ${plural(n, 'more contact')} on this page not shown (Slack shows at most ${LIMITS.messageBlocks} blocks).`,
  });
  return { text: fallback(`Contacts of ${summary}`), blocks };
}

export interface ContactDetailOptions {
  /** Zone to show the last call in (the campaign's). */
  timezone?: string | null;
}

export function contactDetailMessage(
  campaignId: number,
  contact: CampaignContact,
  opts: ContactDetailOptions = {},
): SlackMessage {
  const c = contact;
  const fields = [
    md`*Status*\n${contactStatusLabel(c.status)}`,
    md`*Retries*\n${formatCount(c.retries ?? 0)}`,
    md`*Calls*\n${formatCount(c.call_count ?? 0)}`,
    md`*Billed duration*\n${formatDuration(c.billed_duration)}`,
    md`*Last call*\n${formatLastCallAt(c.last_call_at, opts.timezone)}`,
    md`*Follow-up*\n${yesNo(c.has_follow_up)}`,
  ];
  if (c.f_id) fields.push(md`*External id*\n${cleanLabel(c.f_id, 200)}`);

  const blocks: KnownBlock[] = [
    header(`Contact #${c.id} · campaign #${campaignId}`),
    mrkdwnSection(md`*${contactName(c)}* · ${formatPhone(c.contact)}`),
    ...fieldSections(fields),
  ];
  if (c.context?.trim()) blocks.push(mrkdwnSection(md`*Context*\n${c.context}`));

  const data = Object.entries(c.extracted_data ?? {});
  if (data.length) {
    blocks.push(mrkdwnSection('*Extracted data*'));
    const shown = data.slice(0, MAX_EXTRACTED_FIELDS);
    blocks.push(...fieldSections(shown.map(([k, v]) => md`*${cleanLabel(k, 100)}*\n${cleanLabel(String(v))}`)));
    if (data.length > shown.length) {
      blocks.push(context(`…and ${plural(data.length - shown.length, 'more field')} not shown.`));
    }
  }
  const tags = (c.tags ?? []).map((t) => cleanLabel(t)).filter((t) => t !== '');
  if (tags.length) blocks.push(context(md`🏷 ${truncate(tags.join(', '), 1000)}`));

  const buttons: Button[] = [
    button({
      text: '👥 All contacts',
      actionId: actionId(ACTION_IDS.contactsPage, 'first'),
      value: encodeContactsPage({ campaignId, page: 0 }),
    }),
  ];
  if (isDeletable(c.status)) buttons.push(removeButton(campaignId, c));
  blocks.push(actions(buttons));

  return {
    text: fallback(
      md`${contactName(c)} (contact #${c.id} of campaign #${campaignId}): ${contactStatusLabel(c.status)}`,
    ),
    blocks,
  };
}
