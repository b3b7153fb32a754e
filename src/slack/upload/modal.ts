/**
 * Uploading a contacts file into a campaign, the Slack side: opening the modal (command and button) and carrying out
 * its submission.
 *
 * Refusals come before anything is read: no permission (checked again at submission, the modal can be old), an
 * unknown campaign, a finished one. Then the file: files.info (size checked against UPLOAD_MAX_BYTES), the download
 * started, and its header read and mapped. All of that is tried within Slack's 3 seconds so that a problem with the
 * file shows under the file input and the person can pick another; when it takes longer the modal shows "checking"
 * and is updated with the outcome. The file opened here is handed to the job as is: it is downloaded once.
 */
import { slowAfter } from '../middleware/listener.js';
import { randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { FileFormatError } from '../../contacts/errors.js';
import { translator, type Translator } from '../../i18n/translator.js';
import { OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail, DuplicatePolicy } from '../../outreach/schemas.js';
import { errorMessage } from '../../render/feedback.js';
import { cleanLabel, escapeMrkdwn, truncateMrkdwn } from '../../render/mrkdwn.js';
import { serviceErrorText } from '../../render/service-error.js';
import type { View } from '../../render/types.js';
import {
  decodeUploadMetadata,
  isUploadCountry,
  UPLOAD_BLOCKS,
  uploadCheckingView,
  uploadLoadingView,
  uploadModalView,
  uploadProblemView,
  uploadProblemViewMrkdwn,
  uploadStartedView,
} from '../../render/upload-modal.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import type { Reply } from '../reply.js';
import { FILE_ID, formatBytes, SlackFileError } from './download.js';
import { fileErrorSentence } from './file-problem-text.js';
import { readerSettings } from './runner.js';
import type { UploadService } from './service.js';
import { openSlackContactsFile, spawnReader, type OpenedFile } from './source.js';
import { serviceErrorMessage } from '../middleware/errors.js';
import { refuseSubmissionIfReadOnly } from '../middleware/change.js';

/** How long opening the modal waits for the campaign before showing a loading view (trigger ids last 3 s). */
const OPEN_BUDGET_MS = 1500;

function finishedSentence(c: Pick<CampaignDetail, 'id' | 'name'>, t: Translator): string {
  return t.t('uploadModal.finished', { name: cleanLabel(c.name, 120), id: String(c.id) });
}

// ---------------------------------------------------------------------------------------------------------------
// Opening the modal

export interface OpenUploadRequest {
  triggerId: string;
  userId: string;
  campaignId: number;
  /** Conversation the progress goes to; the person's DM when absent. */
  postTo?: string;
  reply: Reply;
}

function modalFor(deps: AppDeps, c: CampaignDetail, postTo: string | undefined, t: Translator): View {
  return uploadModalView(
    {
      campaign: c,
      defaultCountry: deps.config.defaultPhoneRegion,
      maxBytes: deps.config.uploadMaxBytes,
      maxSizeText: formatBytes(deps.config.uploadMaxBytes),
      ...(postTo ? { postTo } : {}),
    },
    t,
  );
}

/**
 * Opens the upload modal of a campaign (the caller checked the permission). An unknown or finished campaign is
 * answered without a modal when the service answers quickly; otherwise a loading view opens within the trigger's
 * life and is replaced by the modal or the refusal.
 */
export async function openUploadModal(
  deps: AppDeps,
  t: Translator,
  client: WebClient,
  req: OpenUploadRequest,
): Promise<void> {
  const campaign = deps.outreach.getCampaign(req.campaignId).then(
    (c) => ({ c }) as const,
    (err: unknown) => ({ err }) as const,
  );
  const first = await Promise.race([campaign, slowAfter(OPEN_BUDGET_MS)]);
  if (first !== 'slow') {
    if ('err' in first) {
      await req.reply.ephemeral(serviceErrorMessage(first.err, { campaignId: req.campaignId }, t));
      return;
    }
    if (first.c.status === 'finished') {
      await req.reply.ephemeral(errorMessage({ sentence: finishedSentence(first.c, t) }, t));
      return;
    }
    await client.views.open({ trigger_id: req.triggerId, view: modalFor(deps, first.c, req.postTo, t) });
    return;
  }
  const opened = await client.views.open({ trigger_id: req.triggerId, view: uploadLoadingView(req.campaignId, t) });
  const r = await campaign;
  const view =
    'err' in r
      ? uploadProblemView(serviceErrorText(r.err, t), {}, t)
      : r.c.status === 'finished'
        ? uploadProblemView(finishedSentence(r.c, t), {}, t)
        : modalFor(deps, r.c, req.postTo, t);
  if (!opened.view?.id) return;
  try {
    await client.views.update({ view_id: opened.view.id, view });
  } catch (err) {
    deps.logger.info({ err: errorSummary(err) }, 'could not update the upload modal (closed?)');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Submitting

export type UploadAck =
  undefined | { response_action: 'errors'; errors: Record<string, string> } | { response_action: 'update'; view: View };

export interface SubmittedUploadView {
  id: string;
  private_metadata?: string;
  state?: { values?: Record<string, Record<string, unknown>> };
}

export interface UploadSubmitRequest {
  view: SubmittedUploadView;
  userId: string;
  client: WebClient;
  /** Sends the view_submission's ack (once). */
  ack: (response: UploadAck) => Promise<void>;
}

interface UploadChoices {
  fileId: string;
  /** The file's name as the submission gave it (shown while the file is checked). */
  fileName?: string;
  ifDuplicate: DuplicatePolicy;
  defaultCountry: string;
}

type Refusal = { on: 'file' | 'modal'; sentence: string };
type Prepared = { campaign: CampaignDetail; opened: OpenedFile };

/** The values of the submitted modal, or a refusal to show under the file input. */
function uploadChoices(
  values: Record<string, Record<string, unknown>> | undefined,
  defaultCountry: string,
  t: Translator,
): UploadChoices | Refusal {
  const fileState = values?.[UPLOAD_BLOCKS.file]?.[UPLOAD_BLOCKS.file] as { files?: unknown } | undefined;
  const files = Array.isArray(fileState?.files) ? (fileState.files as Array<{ id?: unknown; name?: unknown }>) : [];
  if (files.length === 0) return { on: 'file', sentence: t.t('uploadModal.chooseFile') };
  if (files.length > 1) return { on: 'file', sentence: t.t('uploadModal.oneFile') };
  const fileId = files[0]?.id;
  if (typeof fileId !== 'string' || !FILE_ID.test(fileId)) {
    return { on: 'file', sentence: t.t('uploadModal.whichFile') };
  }
  const fileName = files[0]?.name;
  const selected = (block: string) =>
    (values?.[block]?.[block] as { selected_option?: { value?: unknown } | null } | undefined)?.selected_option?.value;
  const policy = selected(UPLOAD_BLOCKS.ifDuplicate);
  const country = selected(UPLOAD_BLOCKS.country);
  return {
    fileId,
    ...(typeof fileName === 'string' ? { fileName } : {}),
    ifDuplicate: policy === 'update' ? 'update' : 'skip',
    defaultCountry: isUploadCountry(country) ? country : defaultCountry,
  };
}

function refusalOf(err: unknown, deps: AppDeps, t: Translator): Refusal {
  if (err instanceof SlackFileError || err instanceof FileFormatError) {
    return { on: 'file', sentence: fileErrorSentence(err, t) };
  }
  if (err instanceof OutreachError) return { on: 'modal', sentence: serviceErrorText(err, t) };
  deps.logger.error({ err: errorSummary(err) }, 'checking an upload failed');
  return { on: 'modal', sentence: t.t('uploadModal.unexpected') };
}

/** Error texts under an input are short in Slack's client: keep them readable. */
const ERROR_TEXT_MAX = 1500;

/**
 * The text under the file input. The sentence can quote the file (its name, its headers), so it is escaped like
 * mrkdwn: Slack reads the same three entities there, and no `<…>` from the file reaches Slack raw.
 */
function fileErrorText(sentence: string): string {
  return truncateMrkdwn(escapeMrkdwn(sentence), ERROR_TEXT_MAX, '…');
}

/** A submission past its first checks: who sent it, in which words, for which campaign, with which choices. */
interface Submission {
  deps: AppDeps & { uploads: UploadService };
  req: UploadSubmitRequest;
  t: Translator;
  campaignId: number;
  postTo: string | undefined;
  choices: UploadChoices;
}

/**
 * The modal's submission: the person's permission, the choices, the campaign and the file checked (see the top of
 * the file), then the job launched and the modal closed. The ack is sent within `budgetMs`.
 */
export async function submitUpload(
  deps: AppDeps & { uploads: UploadService },
  req: UploadSubmitRequest,
  budgetMs: number,
): Promise<void> {
  const { client, userId } = req;
  // The person opened this modal moments ago: their language is cached, so this rarely asks Slack before the ack.
  const t = translator((await deps.languages.person(userId, client)).locale);
  const meta = decodeUploadMetadata(req.view.private_metadata);
  if (!meta) {
    await req.ack({
      response_action: 'update',
      view: uploadProblemViewMrkdwn(t.t('uploadModal.staleForm'), {}, t),
    });
    return;
  }
  const { campaignId } = meta;
  const refused = await refuseSubmissionIfReadOnly(deps, client, { userId, what: 'upload', campaignId }, (text) =>
    req.ack({ response_action: 'update', view: uploadProblemViewMrkdwn(text, {}, t) }),
  );
  if (refused) return;
  const choices = uploadChoices(req.view.state?.values, deps.config.defaultPhoneRegion, t);
  if ('sentence' in choices) {
    await req.ack({ response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: choices.sentence } });
    return;
  }
  const taken = await claimFile(deps.uploads, campaignId, choices.fileId, t);
  if (taken) {
    await req.ack({ response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: taken } });
    return;
  }
  const s: Submission = { deps, req, t, campaignId, postTo: meta.postTo, choices };
  const prepare = prepareUpload(s);
  const first = await Promise.race([prepare, slowAfter(budgetMs)]);
  await (first === 'slow' ? answerLater(s, prepare) : answerAtOnce(s, first));
}

/**
 * Claims the file for this campaign's upload; resolves with the sentence that refuses it (a job of it running or
 * done, or another submission checking it) or undefined once it is this submission's.
 */
async function claimFile(
  svc: UploadService,
  campaignId: number,
  fileId: string,
  t: Translator,
): Promise<string | undefined> {
  const alreadySentence = async (): Promise<string | undefined> => {
    const existing = await svc.job(campaignId, fileId);
    if (!existing || existing.status === 'stopped') return undefined;
    return t.t(existing.status === 'running' ? 'uploadModal.alreadyRunning' : 'uploadModal.alreadyDone');
  };
  const already = await alreadySentence();
  if (already) return already;
  // Claimed in the store (a double submit may reach two replicas), then looked for again: a submission that held
  // the claim until just now may have recorded the job in between.
  if (!(await svc.reserve(campaignId, fileId))) return t.t('uploadModal.beingChecked');
  const recorded = await alreadySentence();
  if (recorded) await svc.release(campaignId, fileId);
  return recorded;
}

/** The campaign checked and the file opened with its reader, or the refusal of either. */
function prepareUpload(s: Submission): Promise<Prepared | Refusal> {
  const { deps, choices, t } = s;
  const { config } = deps;
  const svc = deps.uploads;
  // What the job will be saved with (launch): the reader opened here is the job's. Its thread starts now, so it
  // is ready by the time the campaign is checked and the file downloaded.
  const reader = readerSettings(deps, svc.tuning, {
    defaultCountry: choices.defaultCountry,
    batchSize: svc.tuning.batchSize,
  });
  const spawned = spawnReader(reader);
  return (async (): Promise<Prepared | Refusal> => {
    try {
      const campaign = await deps.outreach.getCampaign(s.campaignId);
      if (campaign.status === 'finished') {
        await spawned.close();
        return { on: 'modal', sentence: finishedSentence(campaign, t) };
      }
      const opened = await openSlackContactsFile(s.req.client, choices.fileId, {
        botToken: config.slackBotToken,
        slackApiUrl: config.slackApiUrl,
        maxBytes: config.uploadMaxBytes,
        reader,
        spawned,
      });
      return { campaign, opened };
    } catch (err) {
      await spawned.close();
      return refusalOf(err, deps, t);
    }
  })();
}

/** The job of a prepared upload, saved and started with the file opened for it. */
function launch(s: Submission, p: Prepared) {
  const { choices } = s;
  return s.deps.uploads.launch(
    {
      fileId: choices.fileId,
      fileName: p.opened.info.name,
      campaignId: s.campaignId,
      campaignName: p.campaign.name,
      ifDuplicate: choices.ifDuplicate,
      defaultCountry: choices.defaultCountry,
      userId: s.req.userId,
      ...(s.postTo ? { channelId: s.postTo } : {}),
    },
    p.opened,
  );
}

/**
 * The audit line of the outcome. It is written after the person has their answer: the audit channel's posts queue
 * in Slack's budget (about one a second per channel) and the modal must not wait behind them.
 */
function audit(s: Submission, outcome: Prepared | Refusal): Promise<void> {
  const refused = 'sentence' in outcome;
  const detail = refused ? outcome.sentence : `${outcome.opened.info.name} (${s.choices.ifDuplicate})`;
  const { userId, client } = s.req;
  return s.deps.audit.record(
    { userId, action: 'upload', campaignId: s.campaignId, result: refused ? 'refused' : 'ok', detail },
    client,
  );
}

/** The outcome came within the budget: the ack carries it (the refusal, or the modal closed and the job started). */
async function answerAtOnce(s: Submission, first: Prepared | Refusal): Promise<void> {
  const { req, t } = s;
  if ('sentence' in first) {
    await req.ack(
      first.on === 'file'
        ? { response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: fileErrorText(first.sentence) } }
        : { response_action: 'update', view: uploadProblemView(first.sentence, {}, t) },
    );
    await s.deps.uploads.release(s.campaignId, s.choices.fileId);
    await audit(s, first);
    return;
  }
  await req.ack(undefined);
  await launch(s, first);
  await audit(s, first);
}

/** Slow: Slack is answered now with a view that is replaced by the outcome. */
async function answerLater(s: Submission, prepare: Promise<Prepared | Refusal>): Promise<void> {
  const { req, t } = s;
  const externalId = `campaign-upload-${randomBytes(12).toString('hex')}`;
  await req.ack({ response_action: 'update', view: uploadCheckingView(externalId, s.choices.fileName, t) });
  const r = await prepare;
  let view: View;
  if ('sentence' in r) {
    await s.deps.uploads.release(s.campaignId, s.choices.fileId);
    view = uploadProblemView(r.sentence, { externalId }, t);
  } else {
    const job = await launch(s, r);
    const inDm = job.channelId === req.userId || job.channelId.startsWith('D');
    view = uploadStartedView(externalId, r.opened.info.name, inDm ? 'dm' : { channelId: job.channelId }, t);
  }
  try {
    await req.client.views.update({ external_id: externalId, view });
  } catch (err) {
    s.deps.logger.info({ err: errorSummary(err) }, 'could not update the upload view (closed?)');
  }
  await audit(s, r);
}
