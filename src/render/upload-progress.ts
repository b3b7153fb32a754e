/**
 * The one message an upload keeps up to date: "waiting for its turn", a progress bar and counts while it runs, then
 * its summary; plus the comment that comes with the failed-rows CSV (sent to the uploader by DM) and the DM telling
 * the uploader that a crash-looping upload was stopped. Pure: data in, `{ text, blocks }` out, in the words of `t`:
 * the progress and summary in the language of the conversation they are in, the CSV and DMs in the uploader's.
 */
import type { MessageKey, Translator } from '../i18n/translator.js';
import type { DuplicatePolicy } from '../outreach/schemas.js';
import { formatDuration } from './format.js';
import { mentionUser } from './feedback.js';
import { cleanLabel, context, fallback, fieldSections, mrkdwnSection, raw, truncate } from './mrkdwn.js';
import { tmd } from './text.js';
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

/** Why rows were not added, by kind (the summary's "Not added" line). */
type UploadFailureKind = 'invalid' | 'empty' | 'repeated' | 'broken' | 'tooLong' | 'service';

export interface UploadFailureGroup {
  kind: UploadFailureKind;
  count: number;
}

const FAILURE_GROUP_KEYS: Record<UploadFailureKind, MessageKey> = {
  invalid: 'uploadProgress.group.invalid',
  empty: 'uploadProgress.group.empty',
  repeated: 'uploadProgress.group.repeated',
  broken: 'uploadProgress.group.broken',
  tooLong: 'uploadProgress.group.tooLong',
  service: 'uploadProgress.group.service',
};

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

/** "42%" / "42 %", never 100% before the end: a rounded-up 99.6% would read as finished. */
export function percent(fraction: number, finished: boolean, t: Translator): string {
  if (finished) return t.t('uploadProgress.percent', { p: 100 });
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return t.t('uploadProgress.percent', { p: Math.min(99, Math.floor(f * 100)) });
}

const POLICY_LABEL: Record<DuplicatePolicy, MessageKey> = {
  skip: 'uploadProgress.policy.skip',
  update: 'uploadProgress.policy.update',
};

/** "*contacts.csv* into *Renewals* (#12)" (mrkdwn, the names escaped). */
function what(h: UploadHeading, t: Translator): string {
  return tmd(t, 'uploadProgress.what', {
    file: cleanLabel(h.fileName, 120),
    campaign: cleanLabel(h.campaignName, 120),
    id: String(h.campaignId),
  });
}

function failed(s: UploadStats): number {
  return s.rejected + s.serviceFailed;
}

function countFields(s: UploadStats, t: Translator): string[] {
  return [
    t.t('uploadProgress.field.rowsRead', { n: s.rowsRead }),
    t.t('uploadProgress.field.sent', { n: s.sent }),
    t.t('uploadProgress.field.created', { n: s.created }),
    t.t('uploadProgress.field.updated', { n: s.updated }),
    t.t('uploadProgress.field.skipped', { n: s.skipped }),
    t.t('uploadProgress.field.failed', { n: failed(s) }),
  ];
}

function resumedNote(row: number | undefined, t: Translator): string | undefined {
  if (row === undefined) return undefined;
  return t.t('uploadProgress.resumed', { row });
}

function waitingLine(w: UploadWaiting, t: Translator): string {
  if (w.reason === 'campaign') return tmd(t, 'uploadProgress.waitingCampaign', { file: cleanLabel(w.fileName, 120) });
  return t.t('uploadProgress.waitingBusy', { running: w.running, ahead: w.ahead });
}

/** The message while the upload runs. */
export function uploadProgressMessage(input: UploadProgressInput, t: Translator): SlackMessage {
  const head = tmd(t, 'uploadProgress.head', { who: raw(mentionUser(input.userId)), what: raw(what(input, t)) });
  const bar =
    input.fraction === undefined
      ? t.t('uploadProgress.reading')
      : t.t('uploadProgress.bar', { bar: progressBar(input.fraction), percent: percent(input.fraction, false, t) });
  const resumed = resumedNote(input.resumedAfterRow, t);
  const blocks: KnownBlock[] = [
    mrkdwnSection(`${head}\n${input.waiting ? waitingLine(input.waiting, t) : bar}`),
    ...fieldSections(countFields(input.stats, t)),
  ];
  if (input.note) blocks.push(context(tmd(t, 'uploadProgress.note', { note: input.note })));
  if (resumed) blocks.push(context(resumed));
  blocks.push(context(t.t('uploadProgress.footer', { policy: t.t(POLICY_LABEL[input.ifDuplicate]) })));
  const text = tmd(t, 'uploadProgress.fallback', {
    what: raw(what(input, t)),
    hasPercent: input.fraction === undefined ? 'no' : 'yes',
    percent: input.fraction === undefined ? '' : percent(input.fraction, false, t),
  });
  return { text: fallback(text), blocks };
}

/** The message once the upload is over (finished or stopped). */
export function uploadSummaryMessage(input: UploadSummaryInput, t: Translator): SlackMessage {
  const s = input.stats;
  const who = raw(mentionUser(input.userId));
  const stopped = input.stopReason ? 'yes' : 'no';
  const title = tmd(t, 'uploadProgress.summaryTitle', { stopped, what: raw(what(input, t)), who });
  const result = t.t('uploadProgress.result', {
    bar: progressBar(input.stopReason ? 0 : 1),
    stopped,
    created: s.created,
    updated: s.updated,
    skipped: s.skipped,
    failed: failed(s),
  });
  const blocks: KnownBlock[] = [mrkdwnSection(`${title}\n${result}`)];
  if (input.stopReason) blocks.push(mrkdwnSection(tmd(t, 'uploadProgress.whyStopped', { reason: input.stopReason })));
  blocks.push(...fieldSections(countFields(s, t)));
  const groups = input.failureGroups.filter((g) => g.count > 0);
  if (groups.length) {
    const list = groups.map((g) => t.t(FAILURE_GROUP_KEYS[g.kind], { count: g.count })).join(' · ');
    blocks.push(mrkdwnSection(t.t('uploadProgress.notAdded', { groups: list })));
  }
  const notes: string[] = [];
  if (failed(s) > 0) {
    const uploader = raw(mentionUser(input.userId));
    if (input.report === 'attached') {
      notes.push(
        input.reportTo === 'thread'
          ? t.t('uploadProgress.reportInThread')
          : tmd(t, 'uploadProgress.reportInDm', { who: uploader }),
      );
    } else if (input.report === 'failed') {
      notes.push(tmd(t, 'uploadProgress.reportFailed', { who: uploader }));
    }
  }
  const resumed = resumedNote(input.resumedAfterRow, t);
  if (resumed) notes.push(resumed);
  notes.push(t.t('uploadProgress.duplicates', { policy: t.t(POLICY_LABEL[input.ifDuplicate]) }));
  if (input.elapsedMs !== undefined) {
    notes.push(t.t('uploadProgress.took', { duration: formatDuration(Math.round(input.elapsedMs / 1000), t) }));
  }
  blocks.push(context(...notes));
  const text = tmd(t, 'uploadProgress.summaryFallback', {
    stopped,
    what: raw(what(input, t)),
    reason: input.stopReason ?? '',
    created: s.created,
    failed: failed(s),
  });
  return { text: fallback(text), blocks };
}

/**
 * The comment posted with the failed-rows CSV, in the uploader's words. mrkdwn: Slack shows initial_comment as a
 * message, so the file's name (chosen by whoever made the file) is cleaned and escaped like any outside text.
 */
export function failureReportComment(
  fileName: string,
  rows: number,
  opts: { listed?: number; campaignName?: string; campaignId?: number },
  t: Translator,
): string {
  const capped = opts.listed !== undefined && opts.listed < rows;
  return tmd(t, 'uploadProgress.reportComment', {
    rows,
    file: cleanLabel(fileName, 120),
    into: opts.campaignName !== undefined ? 'yes' : 'no',
    campaign: cleanLabel(opts.campaignName ?? '', 120),
    hasId: opts.campaignId !== undefined ? 'yes' : 'no',
    id: String(opts.campaignId ?? ''),
    capped: capped ? 'yes' : 'no',
    listed: opts.listed ?? rows,
    rest: capped ? rows - (opts.listed ?? rows) : 0,
  });
}

/** The DM to the uploader when an upload was stopped for good without their doing (plain text in, mrkdwn out). */
export function uploadStoppedDm(input: UploadHeading & { stopReason: string }, t: Translator): SlackMessage {
  const text = tmd(t, 'uploadProgress.stoppedDm', { what: raw(what(input, t)), reason: input.stopReason });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

/** `failed-rows-<name>.csv` / `filas-no-agregadas-<name>.csv` (the name without its extension, cut). */
export function failureReportFileName(fileName: string, t: Translator): string {
  const base = fileName.replace(/\.[^./\\]{1,8}$/, '').replace(/[^\p{L}\p{N}._ -]+/gu, '_') || 'contacts';
  return t.t('uploadProgress.reportFileName', { name: truncate(base, 80, '') });
}

/** The failed-rows CSV's header line (`row,value,reason` / `fila,valor,motivo`): the uploader's language. */
export function failureReportHeader(t: Translator): string {
  return t.t('uploadProgress.csvHeader');
}
