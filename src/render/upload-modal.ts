/**
 * The "Upload contacts" modal and the small views shown around it (loading, a refusal, "checking the file", "upload
 * started"). Pure: data in, views out.
 *
 * The campaign id and where to post the progress travel in `private_metadata` (JSON, well under 3,000 characters);
 * the submission handler trusts nothing else in it and checks the campaign and the person again.
 */
import { getCountryCallingCode, isSupportedCountry, type CountryCode } from '../contacts/libphonenumber.js';
import type { DuplicatePolicy } from '../outreach/schemas.js';
import { campaignStateLabel } from './format.js';
import { cleanLabel, context, md, mrkdwnSection, plainText, raw, truncate } from './mrkdwn.js';
import type { KnownBlock, View } from './types.js';
import { UPLOAD_CALLBACK_ID, UPLOAD_INFO_CALLBACK_ID } from './ids.js';

/** Block ids of the modal's inputs; each input's action_id is the same as its block_id. */
export const UPLOAD_BLOCKS = {
  file: 'file',
  ifDuplicate: 'if_duplicate',
  country: 'default_country',
} as const;

/** What the file input offers (Slack's client filters by these; the server reads the content to decide). */
const UPLOAD_FILETYPES = ['csv', 'tsv', 'txt', 'xlsx'] as const;

const TITLE = 'Upload contacts';
const MODAL_TITLE_MAX = 24;

export interface UploadMetadata {
  campaignId: number;
  /** Conversation to post the progress message in (the person's DM when absent or not possible). */
  postTo?: string;
}

export function encodeUploadMetadata(m: UploadMetadata): string {
  return JSON.stringify({ campaignId: m.campaignId, ...(m.postTo ? { postTo: m.postTo } : {}) });
}

export function decodeUploadMetadata(raw: string | undefined): UploadMetadata | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as { campaignId?: unknown; postTo?: unknown };
    if (typeof v.campaignId !== 'number' || !Number.isSafeInteger(v.campaignId) || v.campaignId < 0) return undefined;
    const postTo = typeof v.postTo === 'string' && /^[CGDU][A-Z0-9]{2,}$/.test(v.postTo) ? v.postTo : undefined;
    return { campaignId: v.campaignId, ...(postTo ? { postTo } : {}) };
  } catch {
    return undefined;
  }
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

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function flag(code: string): string {
  return [...code.toUpperCase()].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65)).join('');
}

/** "🇲🇽 Mexico (+52)". */
export function countryLabel(code: CountryCode): string {
  const name = regionNames.of(code) ?? code;
  return truncate(`${flag(code)} ${name} (+${getCountryCallingCode(code)})`, 75);
}

export function uploadCountries(defaultCountry: CountryCode): CountryCode[] {
  return UPLOAD_COUNTRIES.includes(defaultCountry) ? [...UPLOAD_COUNTRIES] : [defaultCountry, ...UPLOAD_COUNTRIES];
}

/** A country code the modal could have offered (anything libphonenumber knows). */
export function isUploadCountry(code: unknown): code is CountryCode {
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

const POLICY_OPTIONS: Record<DuplicatePolicy, { text: string; description: string }> = {
  skip: {
    text: 'Skip them',
    description: 'Keep the contact already in the campaign as it is.',
  },
  update: {
    text: 'Update them',
    description: "Overwrite name, context, extra data and f_id with the file's.",
  },
};

function policyOption(p: DuplicatePolicy) {
  return {
    text: plainText(POLICY_OPTIONS[p].text, 75),
    description: plainText(POLICY_OPTIONS[p].description, 75),
    value: p,
  };
}

function countryOption(c: CountryCode) {
  return { text: plainText(countryLabel(c), 75), value: c };
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
export function uploadModalView(input: UploadModalInput): View {
  const { campaign } = input;
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      md`Add contacts to *${cleanLabel(campaign.name, 200)}* (#${campaign.id}), now ${campaignStateLabel(campaign.status, campaign.archived)}.`,
    ),
    {
      type: 'input',
      block_id: UPLOAD_BLOCKS.file,
      label: plainText('Contacts file', 2000),
      hint: plainText(
        `CSV, TSV, TXT or Excel (.xlsx, first sheet), up to ${input.maxSizeText}. A header row, then one contact ` +
          'per row. One column must hold the phone number (phone, teléfono, celular, móvil, whatsapp…); name, ' +
          'context and f_id are optional, every other column is kept as extra data.',
        2000,
      ),
      element: {
        type: 'file_input',
        action_id: UPLOAD_BLOCKS.file,
        filetypes: [...UPLOAD_FILETYPES],
        max_files: 1,
      },
    } as unknown as KnownBlock,
    {
      type: 'input',
      block_id: UPLOAD_BLOCKS.ifDuplicate,
      label: plainText('Numbers already in the campaign', 2000),
      element: {
        type: 'radio_buttons',
        action_id: UPLOAD_BLOCKS.ifDuplicate,
        options: [policyOption('skip'), policyOption('update')],
        initial_option: policyOption('skip'),
      },
    } as KnownBlock,
    {
      type: 'input',
      block_id: UPLOAD_BLOCKS.country,
      label: plainText('Country of numbers without a country code', 2000),
      hint: plainText('Numbers written with + and a country code keep their own country.', 2000),
      element: {
        type: 'static_select',
        action_id: UPLOAD_BLOCKS.country,
        options: uploadCountries(input.defaultCountry).map(countryOption),
        initial_option: countryOption(input.defaultCountry),
      },
    } as KnownBlock,
    context(
      'Rows with a missing or invalid number, or a number repeated in the file, are not sent; a CSV listing them ' +
        'comes in the thread of the progress message.',
    ),
  ];
  return {
    type: 'modal',
    callback_id: UPLOAD_CALLBACK_ID,
    title: plainText(TITLE, MODAL_TITLE_MAX),
    submit: plainText('Upload', 24),
    close: plainText('Cancel', 24),
    private_metadata: encodeUploadMetadata({ campaignId: campaign.id, postTo: input.postTo }),
    blocks,
  } as View;
}

function infoView(blocks: KnownBlock[], opts: { externalId?: string; clearOnClose?: boolean } = {}): View {
  return {
    type: 'modal',
    callback_id: UPLOAD_INFO_CALLBACK_ID,
    title: plainText(TITLE, MODAL_TITLE_MAX),
    close: plainText('Close', 24),
    ...(opts.clearOnClose ? { clear_on_close: true } : {}),
    ...(opts.externalId ? { external_id: opts.externalId } : {}),
    blocks,
  } as View;
}

/** Opened at once while the campaign is read. */
export function uploadLoadingView(campaignId: number): View {
  return infoView([mrkdwnSection(md`⏳ Loading campaign #${campaignId}…`)]);
}

/** Why the upload can't go on (plain text sentence, escaped here). */
export function uploadProblemView(sentence: string, opts: { externalId?: string } = {}): View {
  return infoView([mrkdwnSection(md`⚠️ ${sentence}`)], { clearOnClose: true, ...opts });
}

/** Like uploadProblemView, for a sentence that is already mrkdwn we built (it may mention people). */
export function uploadProblemViewMrkdwn(mrkdwn: string): View {
  return infoView([mrkdwnSection(`⚠️ ${mrkdwn}`)], { clearOnClose: true });
}

/** Pushed when reading the campaign or the file's start takes longer than Slack waits for an answer. */
export function uploadCheckingView(externalId: string, fileName: string): View {
  return infoView(
    [
      mrkdwnSection(md`⏳ Checking *${cleanLabel(fileName, 200)}* and the campaign…`),
      context('This view updates itself in a moment.'),
    ],
    { externalId, clearOnClose: true },
  );
}

/** The upload has started; the progress is in a message. `where` is mrkdwn we built (a channel mention). */
export function uploadStartedView(externalId: string | undefined, fileName: string, where: string): View {
  return infoView(
    [
      mrkdwnSection(
        md`✅ Uploading *${cleanLabel(fileName, 200)}*. Follow its progress in the message in ${raw(where)}.`,
      ),
    ],
    { clearOnClose: true, ...(externalId ? { externalId } : {}) },
  );
}
