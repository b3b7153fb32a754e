/** A page of a campaign's contacts, and one contact in full, in the words of the person who asked. */
import type { Translator } from '../i18n/translator.js';
import {
  DELETABLE_CONTACT_STATUSES,
  type CampaignContact,
  type ContactStatus,
  type PagePagination,
} from '../outreach/schemas.js';
import { ACTION_IDS, actionId, encodeContactRef, encodeContactsPage } from './ids.js';
import { contactStatusLabel, formatDuration, formatLastCallAt, formatPhone, yesNo } from './format.js';
import {
  actions,
  button,
  cleanLabel,
  confirmDialog,
  context,
  fallback,
  fieldSections,
  header,
  md,
  mrkdwnSection,
  truncate,
} from './mrkdwn.js';
import { listPageMessage, type ListKind } from './paging.js';
import { tmd } from './text.js';
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
  /** Zone to show last-call times in (the reader's, else the campaign's); default: the service's default zone. */
  timezone?: string | null;
}

/** The contact's name as one clean line (cleanLabel, at most 200 characters), or "Contact #id". Plain text. */
function contactName(c: { name?: string | null; id: number }, t: Translator): string {
  return cleanLabel(c.name ?? '', 200) || t.t('contactsPage.unnamed', { id: String(c.id) });
}

function isDeletable(status: string): boolean {
  return DELETABLE_CONTACT_STATUSES.includes(status);
}

function removeButton(campaignId: number, c: CampaignContact, t: Translator): Button {
  return button({
    text: t.t('contactsPage.remove'),
    actionId: ACTION_IDS.contactRemove,
    value: encodeContactRef({ campaignId, contactId: c.id }),
    style: 'danger',
    confirm: confirmDialog({
      title: t.t('contactsPage.removeTitle'),
      text: tmd(t, 'contactsPage.removeText', {
        name: truncate(contactName(c, t), 80),
        phone: formatPhone(c.contact),
        id: String(campaignId),
      }),
      confirm: t.t('contactsPage.remove'),
      deny: t.t('common.cancel'),
      danger: true,
    }),
  });
}

function contactGroup(
  campaignId: number,
  c: CampaignContact,
  tz: string | null | undefined,
  t: Translator,
): KnownBlock[] {
  const text = tmd(t, 'contactsPage.item', {
    name: contactName(c, t),
    phone: formatPhone(c.contact),
    status: contactStatusLabel(c.status, t),
    calls: c.call_count ?? 0,
    hasLast: c.last_call_at ? 'yes' : 'no',
    last: c.last_call_at ? formatLastCallAt(c.last_call_at, tz, t) : '',
  });
  const buttons = [
    button({
      text: t.t('contactsPage.details'),
      actionId: ACTION_IDS.contactDetails,
      value: encodeContactRef({ campaignId, contactId: c.id }),
    }),
  ];
  if (isDeletable(c.status)) buttons.push(removeButton(campaignId, c, t));
  return [mrkdwnSection(text), actions(buttons)];
}

const CONTACTS: ListKind<ContactStatus> = {
  base: ACTION_IDS.contactsPage,
  encode: encodeContactsPage,
  keys: {
    header: 'contactsPage.header',
    empty: 'contactsPage.empty',
    emptyPage: 'contactsPage.emptyPage',
    summary: 'contactsPage.summary',
    more: 'contactsPage.more',
    fallback: 'contactsPage.fallback',
  },
};

export function contactsPageMessage(input: ContactsPageInput, t: Translator): SlackMessage {
  const { campaignId, status } = input;
  const name = cleanLabel(input.campaignName ?? '', 200);
  /** Which campaign, and the status filter: the same placeholders in every message below. */
  const which = {
    named: name ? 'yes' : 'no',
    name,
    id: String(campaignId),
    filtered: status ? 'yes' : 'no',
    status: status ? contactStatusLabel(status, t) : '',
  };
  const groups = input.contacts.map((c) => contactGroup(campaignId, c, input.timezone, t));
  // An empty campaign (no filter): how to add some.
  const emptyHint = input.page === 0 && !status ? `\n${t.t('contactsPage.addSome', { id: String(campaignId) })}` : '';
  return listPageMessage(CONTACTS, input, { groups, which, emptyHint }, t);
}

export interface ContactDetailOptions {
  /** Zone to show the last call in (the campaign's). */
  timezone?: string | null;
}

export function contactDetailMessage(
  campaignId: number,
  contact: CampaignContact,
  opts: ContactDetailOptions,
  t: Translator,
): SlackMessage {
  const c = contact;
  const fields = [
    tmd(t, 'contactDetail.status', { value: contactStatusLabel(c.status, t) }),
    tmd(t, 'contactDetail.retries', { value: c.retries ?? 0 }),
    tmd(t, 'contactDetail.calls', { value: c.call_count ?? 0 }),
    tmd(t, 'contactDetail.billedDuration', { value: formatDuration(c.billed_duration, t) }),
    tmd(t, 'contactDetail.lastCall', { value: formatLastCallAt(c.last_call_at, opts.timezone, t) }),
    tmd(t, 'contactDetail.followUp', { value: yesNo(c.has_follow_up, t) }),
  ];
  if (c.f_id) fields.push(tmd(t, 'contactDetail.externalId', { value: cleanLabel(c.f_id, 200) }));

  const blocks: KnownBlock[] = [
    header(t.t('contactDetail.header', { contactId: String(c.id), id: String(campaignId) })),
    mrkdwnSection(md`*${contactName(c, t)}* · ${formatPhone(c.contact)}`),
    ...fieldSections(fields),
  ];
  if (c.context?.trim()) blocks.push(mrkdwnSection(tmd(t, 'contactDetail.context', { value: c.context })));

  const data = Object.entries(c.extracted_data ?? {});
  if (data.length) {
    blocks.push(mrkdwnSection(t.t('contactDetail.extractedData')));
    const shown = data.slice(0, MAX_EXTRACTED_FIELDS);
    blocks.push(...fieldSections(shown.map(([k, v]) => md`*${cleanLabel(k, 100)}*\n${cleanLabel(String(v))}`)));
    if (data.length > shown.length) {
      blocks.push(context(t.t('contactDetail.moreFields', { count: data.length - shown.length })));
    }
  }
  const tags = (c.tags ?? []).map((t) => cleanLabel(t)).filter((t) => t !== '');
  if (tags.length) blocks.push(context(md`🏷 ${truncate(tags.join(', '), 1000)}`));

  const buttons: Button[] = [
    button({
      text: t.t('contactDetail.allContacts'),
      actionId: actionId(ACTION_IDS.contactsPage, 'first'),
      value: encodeContactsPage({ campaignId, page: 0 }),
    }),
  ];
  if (isDeletable(c.status)) buttons.push(removeButton(campaignId, c, t));
  blocks.push(actions(buttons));

  const name = contactName(c, t);
  const status = contactStatusLabel(c.status, t);
  return {
    text: fallback(tmd(t, 'contactDetail.fallback', { name, contactId: String(c.id), id: String(campaignId), status })),
    blocks,
  };
}
