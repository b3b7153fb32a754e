/**
 * The one message an upload keeps up to date: "waiting for its turn", a progress bar and counts while it runs, then
 * its summary; plus the comment that comes with the failed-rows CSV (sent to the uploader by DM) and the DM telling
 * the uploader that a crash-looping upload was stopped. Pure: data in, `{ text, blocks }` out.
 */
import type { DuplicatePolicy } from '../outreach/schemas.js';
import { formatCount, formatDuration, plural } from './format.js';
import { mentionUser } from './feedback.js';
import { cleanLabel, context, fallback, fieldSections, md, mrkdwnSection, raw, truncate } from './mrkdwn.js';
import type { KnownBlock, SlackMessage } from './types.js';

export interface UploadStats {
  /** Data rows read from the file so far (blank rows not counted). */
  rowsRead: number;
  /** Contacts sent to the service and answered for. */
  sent: number;
  created: number;
  updated: number;
  /** Numbers already in the campaign, kept as they were (duplicate policy `skip`). */
  skipped: number;
  /** Rows not sent: no usable number, repeated in the file, or a broken row. */
  rejected: number;
  /** Contacts the service answered `failed` for. */
  serviceFailed: number;
}

export interface UploadHeading {
  fileName: string;
  campaignId: number;
  campaignName: string;
  /** The Slack user who uploaded the file. */
  userId: string;
  ifDuplicate: DuplicatePolicy;
}

export interface UploadProgressInput extends UploadHeading {
  stats: UploadStats;
  /** Share done, 0..1; undefined while it cannot be estimated yet. */
  fraction?: number;
  /** The upload was resumed after the app restarted; it went on after this file row. */
  resumedAfterRow?: number;
  /** Why it is slow right now (plain text), e.g. the service asked to wait. */
  note?: string;
  /** Set while the upload waits for its turn. */
  waiting?: UploadWaiting;
}

/** Why an upload waits: another upload into the same campaign, or as many uploads as may run at once. */
export type UploadWaiting =
  { reason: 'campaign'; fileName: string } | { reason: 'busy'; running: number; ahead: number };

export interface UploadFailureGroup {
  /** Plain text, e.g. "not a valid phone number". */
  label: string;
  count: number;
}

export interface UploadSummaryInput extends UploadHeading {
  stats: UploadStats;
  /** Set when the upload stopped before the end of the file: why, and what to do (plain text). */
  stopReason?: string;
  failureGroups: UploadFailureGroup[];
  /** What became of the failed-rows CSV. */
  report: 'attached' | 'none' | 'failed';
  /** Where the CSV went: the uploader's DM (default), or this message's thread when this message is in that DM. */
  reportTo?: 'dm' | 'thread';
  resumedAfterRow?: number;
  elapsedMs?: number;
}

const BAR_WIDTH = 20;

/** `▓▓▓▓▓░░░░░…` with `width` cells; the fraction is clamped to 0..1. */
export function progressBar(fraction: number, width = BAR_WIDTH): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const full = Math.floor(f * width);
  return '▓'.repeat(full) + '░'.repeat(width - full);
}

/** "42%", never 100% before the end: a rounded-up 99.6% would read as finished. */
export function percent(fraction: number, finished = false): string {
  if (finished) return '100%';
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return `${Math.min(99, Math.floor(f * 100))}%`;
}

const POLICY_LABEL: Record<DuplicatePolicy, string> = {
  skip: 'numbers already in the campaign are skipped',
  update: 'numbers already in the campaign are updated',
};

function what(h: UploadHeading): string {
  return md`*${cleanLabel(h.fileName, 120)}* into *${cleanLabel(h.campaignName, 120)}* (#${h.campaignId})`;
}

function failed(s: UploadStats): number {
  return s.rejected + s.serviceFailed;
}

function countFields(s: UploadStats): string[] {
  return [
    `*Rows read*\n${formatCount(s.rowsRead)}`,
    `*Sent*\n${formatCount(s.sent)}`,
    `*Created*\n${formatCount(s.created)}`,
    `*Updated*\n${formatCount(s.updated)}`,
    `*Skipped (already in the campaign)*\n${formatCount(s.skipped)}`,
    `*Failed*\n${formatCount(failed(s))}`,
  ];
}

function resumedNote(row: number | undefined): string | undefined {
  if (row === undefined) return undefined;
  return row > 0
    ? `↩️ The app restarted during this upload; it resumed after row ${formatCount(row)} (the rows before were already sent).`
    : '↩️ The app restarted during this upload; it started again from the first row (nothing had been sent yet).';
}

function waitingLine(w: UploadWaiting): string {
  if (w.reason === 'campaign') {
    return md`⏳ Waiting: the upload of *${cleanLabel(w.fileName, 120)}* into this campaign has to finish first (one upload per campaign at a time). This one starts by itself.`;
  }
  const ahead =
    w.ahead > 0 ? ` and ${plural(w.ahead, 'upload')} ${w.ahead === 1 ? 'is' : 'are'} ahead of this one` : '';
  return (
    `⏳ Waiting for its turn: ${plural(w.running, 'upload')} ${w.running === 1 ? 'is' : 'are'} running${ahead}. ` +
    'This one starts by itself.'
  );
}

/** The message while the upload runs. */
export function uploadProgressMessage(input: UploadProgressInput): SlackMessage {
  const head = md`📤 ${raw(mentionUser(input.userId))} is uploading ${raw(what(input))}`;
  const bar =
    input.fraction === undefined
      ? '⏳ Reading the file…'
      : `\`${progressBar(input.fraction)}\` ${percent(input.fraction)}`;
  const resumed = resumedNote(input.resumedAfterRow);
  const blocks: KnownBlock[] = [
    mrkdwnSection(`${head}\n${input.waiting ? waitingLine(input.waiting) : bar}`),
    ...fieldSections(countFields(input.stats)),
  ];
  if (input.note) blocks.push(context(md`⏸ ${input.note}`));
  if (resumed) blocks.push(context(resumed));
  blocks.push(
    context(`Duplicates: ${POLICY_LABEL[input.ifDuplicate]}. This message updates itself until the upload is done.`),
  );
  const pct = input.fraction === undefined ? '' : ` (${percent(input.fraction)})`;
  return { text: fallback(md`📤 Uploading ${raw(what(input))}${pct}`), blocks };
}

/** The message once the upload is over (finished or stopped). */
export function uploadSummaryMessage(input: UploadSummaryInput): SlackMessage {
  const s = input.stats;
  const who = raw(mentionUser(input.userId));
  const title = input.stopReason
    ? md`⚠️ Upload stopped: ${raw(what(input))} (by ${who})`
    : md`✅ Upload finished: ${raw(what(input))} (by ${who})`;
  const result =
    `\`${progressBar(input.stopReason ? 0 : 1)}\` ` +
    (input.stopReason ? 'stopped' : '100%') +
    `\n${formatCount(s.created)} added, ${formatCount(s.updated)} updated, ` +
    `${formatCount(s.skipped)} already in the campaign, ${formatCount(failed(s))} not added.`;
  const blocks: KnownBlock[] = [mrkdwnSection(`${title}\n${result}`)];
  if (input.stopReason) blocks.push(mrkdwnSection(md`*Why it stopped:* ${input.stopReason}`));
  blocks.push(...fieldSections(countFields(s)));
  const groups = input.failureGroups.filter((g) => g.count > 0);
  if (groups.length) {
    blocks.push(mrkdwnSection(`*Not added:* ${groups.map((g) => md`${formatCount(g.count)} ${g.label}`).join(' · ')}`));
  }
  const notes: string[] = [];
  if (failed(s) > 0) {
    const who = mentionUser(input.userId);
    if (input.report === 'attached') {
      notes.push(
        input.reportTo === 'thread'
          ? '📎 Every row that was not added is listed in the CSV in this thread.'
          : `📎 The rows that were not added (with their phone numbers) were sent to ${who} in a direct message.`,
      );
    } else if (input.report === 'failed') {
      notes.push(`The list of rows not added could not be sent to ${who}.`);
    }
  }
  const resumed = resumedNote(input.resumedAfterRow);
  if (resumed) notes.push(resumed);
  notes.push(`Duplicates: ${POLICY_LABEL[input.ifDuplicate]}.`);
  if (input.elapsedMs !== undefined) notes.push(`Took ${formatDuration(Math.round(input.elapsedMs / 1000))}.`);
  blocks.push(context(...notes));
  const text = input.stopReason
    ? md`⚠️ Upload stopped: ${raw(what(input))}. ${input.stopReason}`
    : md`✅ Upload finished: ${raw(what(input))}: ${formatCount(s.created)} added, ${formatCount(failed(s))} not added.`;
  return { text: fallback(text), blocks };
}

/**
 * The comment posted with the failed-rows CSV. mrkdwn: Slack shows initial_comment as a message, so the file's name
 * (chosen by whoever made the file) is cleaned and escaped like any outside text.
 */
export function failureReportComment(
  fileName: string,
  rows: number,
  opts: { listed?: number; campaignName?: string; campaignId?: number } = {},
): string {
  const into =
    opts.campaignName !== undefined
      ? md` into *${cleanLabel(opts.campaignName, 120)}*${opts.campaignId !== undefined ? ` (#${opts.campaignId})` : ''}`
      : '';
  const capped =
    opts.listed !== undefined && opts.listed < rows
      ? ` The CSV lists the first ${formatCount(opts.listed)} of them; the other ${formatCount(rows - opts.listed)} ` +
        'are not listed (fix the rows listed, then upload the file again to see the next ones).'
      : '';
  return (
    md`${plural(rows, 'row')} of *${cleanLabel(fileName, 120)}*` +
    into +
    ` ${rows === 1 ? 'was' : 'were'} not added: row number, the phone value as written, and why. ` +
    'Fix them and upload just those rows again.' +
    capped
  );
}

/** The DM to the uploader when an upload was stopped for good without their doing (plain text in, mrkdwn out). */
export function uploadStoppedDm(input: UploadHeading & { stopReason: string }): SlackMessage {
  const text = md`⚠️ Your upload ${raw(what(input))} was stopped. ${input.stopReason}`;
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

/** `failed-rows-<name>.csv` (the name without its extension, cut to a sane length). */
export function failureReportFileName(fileName: string): string {
  const base = fileName.replace(/\.[^./\\]{1,8}$/, '').replace(/[^\p{L}\p{N}._ -]+/gu, '_') || 'contacts';
  return `failed-rows-${truncate(base, 80, '')}.csv`;
}
