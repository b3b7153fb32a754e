/**
 * The "Upload contacts" modal and the small views shown around it (loading, a refusal, "checking the file", "upload
 * started"), in the words of the person uploading. Pure: data in, views out.
 *
 * The campaign id and where to post the progress travel in `private_metadata` (JSON, well under 3,000 characters);
 * the submission handler trusts nothing else in it and checks the campaign and the person again.
 */
import { z } from 'zod';
import { getCountryCallingCode, isSupportedCountry, type CountryCode } from '../contacts/libphonenumber.js';
import type { Locale } from '../i18n/locale.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import type { DuplicatePolicy } from '../outreach/schemas.js';
import { campaignStateLabel } from './format.js';
import { cleanLabel, context, inputBlock, mrkdwnSection, plainText, raw, truncate } from './mrkdwn.js';
import { tmd } from './text.js';
import type { InputBlock, KnownBlock, View } from './types.js';
import { decodeJson, UPLOAD_CALLBACK_ID, UPLOAD_INFO_CALLBACK_ID } from './ids.js';

/** Block ids of the modal's inputs; each input's action_id is the same as its block_id. */
export const UPLOAD_BLOCKS = {
  file: 'file',
  ifDuplicate: 'if_duplicate',
  country: 'default_country',
} as const;

/** What the file input offers (Slack's client filters by these; the server reads the content to decide). */
const UPLOAD_FILETYPES = ['csv', 'tsv', 'txt', 'xlsx'] as const;

const MODAL_TITLE_MAX = 24;

export interface UploadMetadata {
  campaignId: number;
  /** Conversation to post the progress message in (the person's DM when absent or not possible). */
  postTo?: string;
}

export function encodeUploadMetadata(m: UploadMetadata): string {
  return JSON.stringify({ campaignId: m.campaignId, ...(m.postTo ? { postTo: m.postTo } : {}) });
}

/** The modal's private_metadata as `decodeJson` reads it: a conversation that is not one is dropped, not refused. */
const UploadMetadata = z
  .object({
    campaignId: z.number().int().nonnegative(),
    postTo: z
      .string()
      .regex(/^[CGDU][A-Z0-9]{2,}$/)
      .optional()
      .catch(undefined),
  })
  .transform(({ campaignId, postTo }): UploadMetadata => ({ campaignId, ...(postTo ? { postTo } : {}) }));

export function decodeUploadMetadata(raw: string | undefined): UploadMetadata | undefined {
  return decodeJson(UploadMetadata, raw) ?? undefined;
}

/**
 * Countries offered for numbers written without a country code: the Spanish-speaking Americas, Brazil, North
 * America and Spain first, then a few more. The configured default is always offered.
 */
const UPLOAD_COUNTRIES: readonly CountryCode[] = [
  'MX',
  'US',
  'CA',
  'GT',
  'SV',
  'HN',
  'NI',
  'CR',
  'PA',
  'CU',
  'DO',
  'PR',
  'CO',
  'VE',
  'EC',
  'PE',
  'BO',
  'CL',
  'AR',
  'UY',
  'PY',
  'BR',
  'ES',
  'PT',
  'GB',
  'FR',
  'DE',
  'IT',
];

/** Country names as each language writes them ("Mexico" / "México"). */
const REGION_NAMES: Record<Locale, Intl.DisplayNames> = {
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
  es: new Intl.DisplayNames(['es-419'], { type: 'region' }),
};

function flag(code: string): string {
  return [...code.toUpperCase()].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65)).join('');
}

/** "🇲🇽 Mexico (+52)" / "🇲🇽 México (+52)". */
export function countryLabel(code: CountryCode, t: Translator): string {
  const name = REGION_NAMES[t.locale].of(code) ?? code;
  return truncate(`${flag(code)} ${name} (+${getCountryCallingCode(code)})`, 75);
}

export function uploadCountries(defaultCountry: CountryCode): CountryCode[] {
  return UPLOAD_COUNTRIES.includes(defaultCountry) ? [...UPLOAD_COUNTRIES] : [defaultCountry, ...UPLOAD_COUNTRIES];
}

/** A country code the modal could have offered (anything libphonenumber knows). */
export function isUploadCountry(code: unknown): code is CountryCode {
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

const POLICY_OPTIONS: Record<DuplicatePolicy, { text: MessageKey; description: MessageKey }> = {
  skip: { text: 'uploadModal.policy.skip', description: 'uploadModal.policy.skipDescription' },
  update: { text: 'uploadModal.policy.update', description: 'uploadModal.policy.updateDescription' },
};

function policyOption(p: DuplicatePolicy, t: Translator) {
  return {
    text: plainText(t.t(POLICY_OPTIONS[p].text), 75),
    description: plainText(t.t(POLICY_OPTIONS[p].description), 75),
    value: p,
  };
}

function countryOption(c: CountryCode, t: Translator) {
  return { text: plainText(countryLabel(c, t), 75), value: c };
}

export interface UploadModalInput {
  campaign: { id: number; name: string; status: string; archived?: boolean | null };
  defaultCountry: CountryCode;
  maxBytes: number;
  /** Human form of maxBytes, e.g. "10 MB". */
  maxSizeText: string;
  postTo?: string;
}

/** The modal: file (block `file`), duplicate policy (`if_duplicate`, skip by default), default country. */
export function uploadModalView(input: UploadModalInput, t: Translator): View {
  const { campaign } = input;
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      tmd(t, 'uploadModal.intro', {
        name: cleanLabel(campaign.name, 200),
        id: String(campaign.id),
        state: campaignStateLabel(campaign.status, campaign.archived, t),
      }),
    ),
    inputBlock({
      blockId: UPLOAD_BLOCKS.file,
      label: t.t('uploadModal.file'),
      hint: t.t('uploadModal.fileHint', { maxSize: input.maxSizeText }),
      // Block Kit's file_input, which @slack/types does not list among an input's elements.
      element: {
        type: 'file_input',
        action_id: UPLOAD_BLOCKS.file,
        filetypes: [...UPLOAD_FILETYPES],
        max_files: 1,
      } as unknown as InputBlock['element'],
    }),
    inputBlock({
      blockId: UPLOAD_BLOCKS.ifDuplicate,
      label: t.t('uploadModal.duplicates'),
      element: {
        type: 'radio_buttons',
        action_id: UPLOAD_BLOCKS.ifDuplicate,
        options: [policyOption('skip', t), policyOption('update', t)],
        initial_option: policyOption('skip', t),
      },
    }),
    inputBlock({
      blockId: UPLOAD_BLOCKS.country,
      label: t.t('uploadModal.country'),
      hint: t.t('uploadModal.countryHint'),
      element: {
        type: 'static_select',
        action_id: UPLOAD_BLOCKS.country,
        options: uploadCountries(input.defaultCountry).map((c) => countryOption(c, t)),
        initial_option: countryOption(input.defaultCountry, t),
      },
    }),
    context(t.t('uploadModal.rejectedNote')),
  ];
  return {
    type: 'modal',
    callback_id: UPLOAD_CALLBACK_ID,
    title: plainText(t.t('uploadModal.title'), MODAL_TITLE_MAX),
    submit: plainText(t.t('uploadModal.submit'), 24),
    close: plainText(t.t('common.cancel'), 24),
    private_metadata: encodeUploadMetadata({ campaignId: campaign.id, postTo: input.postTo }),
    blocks,
  } as View;
}

function infoView(blocks: KnownBlock[], opts: { externalId?: string; clearOnClose?: boolean }, t: Translator): View {
  return {
    type: 'modal',
    callback_id: UPLOAD_INFO_CALLBACK_ID,
    title: plainText(t.t('uploadModal.title'), MODAL_TITLE_MAX),
    close: plainText(t.t('common.close'), 24),
    ...(opts.clearOnClose ? { clear_on_close: true } : {}),
    ...(opts.externalId ? { external_id: opts.externalId } : {}),
    blocks,
  } as View;
}

/** Opened at once while the campaign is read. */
export function uploadLoadingView(campaignId: number, t: Translator): View {
  return infoView([mrkdwnSection(t.t('uploadModal.loading', { id: String(campaignId) }))], {}, t);
}

/** Why the upload can't go on (plain text sentence, escaped here). */
export function uploadProblemView(sentence: string, opts: { externalId?: string }, t: Translator): View {
  return uploadProblemViewMrkdwn(tmd(t, 'uploadModal.problemText', { sentence }), opts, t);
}

/** Like uploadProblemView, for a sentence that is already mrkdwn we built (it may mention people). */
export function uploadProblemViewMrkdwn(mrkdwn: string, opts: { externalId?: string }, t: Translator): View {
  return infoView(
    [mrkdwnSection(tmd(t, 'uploadModal.problem', { text: raw(mrkdwn) }))],
    { clearOnClose: true, ...opts },
    t,
  );
}

/** Pushed when reading the campaign or the file's start takes longer than Slack waits for an answer. */
export function uploadCheckingView(externalId: string, fileName: string | undefined, t: Translator): View {
  const named = fileName ? 'yes' : 'no';
  return infoView(
    [
      mrkdwnSection(tmd(t, 'uploadModal.checking', { named, name: cleanLabel(fileName ?? '', 200) })),
      context(t.t('uploadModal.checkingNote')),
    ],
    { externalId, clearOnClose: true },
    t,
  );
}

/** Where the progress message is: a channel, or the person's DM with the app. */
export type UploadProgressPlace = { channelId: string } | 'dm';

/** The upload has started; the progress is in a message. */
export function uploadStartedView(
  externalId: string | undefined,
  fileName: string,
  where: UploadProgressPlace,
  t: Translator,
): View {
  // A channel id from our own job record (C…/G…): a channel mention, ours.
  const channel = where === 'dm' ? '' : `<#${where.channelId}>`;
  const text = tmd(t, 'uploadModal.started', {
    name: cleanLabel(fileName, 200),
    inDm: where === 'dm' ? 'yes' : 'no',
    channel: raw(channel),
  });
  return infoView([mrkdwnSection(text)], { clearOnClose: true, ...(externalId ? { externalId } : {}) }, t);
}
