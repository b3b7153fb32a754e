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
import { humanMessage, OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail, DuplicatePolicy } from '../../outreach/schemas.js';
import { errorMessage } from '../../render/feedback.js';
import { cleanLabel, escapeMrkdwn, truncateMrkdwn } from '../../render/mrkdwn.js';
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
import { readerSettings } from './runner.js';
import type { UploadService } from './service.js';
import { openSlackContactsFile, spawnReader, type OpenedFile } from './source.js';
import { serviceErrorMessage } from '../middleware/errors.js';
import { refuseSubmissionIfReadOnly } from '../middleware/change.js';

/** How long opening the modal waits for the campaign before showing a loading view (trigger ids last 3 s). */
const OPEN_BUDGET_MS = 1500;

function finishedSentence(c: Pick<CampaignDetail, 'id' | 'name'>): string {
  return (
    `Campaign "${cleanLabel(c.name, 120)}" (#${c.id}) is finished, and contacts can't be added to a finished ` +
    'campaign. Create a new campaign for these contacts.'
  );
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

function modalFor(deps: AppDeps, c: CampaignDetail, postTo: string | undefined): View {
  return uploadModalView({
    campaign: c,
    defaultCountry: deps.config.defaultPhoneRegion,
    maxBytes: deps.config.uploadMaxBytes,
    maxSizeText: formatBytes(deps.config.uploadMaxBytes),
    ...(postTo ? { postTo } : {}),
  });
}

/**
 * Opens the upload modal of a campaign (the caller checked the permission). An unknown or finished campaign is
 * answered without a modal when the service answers quickly; otherwise a loading view opens within the trigger's
 * life and is replaced by the modal or the refusal.
 */
export async function openUploadModal(deps: AppDeps, client: WebClient, req: OpenUploadRequest): Promise<void> {
  const campaign = deps.outreach.getCampaign(req.campaignId).then(
    (c) => ({ c }) as const,
    (err: unknown) => ({ err }) as const,
  );
  const first = await Promise.race([campaign, slowAfter(OPEN_BUDGET_MS)]);
  if (first !== 'slow') {
    if ('err' in first) {
      await req.reply.ephemeral(serviceErrorMessage(first.err, { campaignId: req.campaignId }));
      return;
    }
    if (first.c.status === 'finished') {
      await req.reply.ephemeral(errorMessage({ sentence: finishedSentence(first.c) }));
      return;
    }
    await client.views.open({ trigger_id: req.triggerId, view: modalFor(deps, first.c, req.postTo) });
    return;
  }
  const opened = await client.views.open({ trigger_id: req.triggerId, view: uploadLoadingView(req.campaignId) });
  const r = await campaign;
  const view =
    'err' in r
      ? uploadProblemView(humanMessage(r.err))
      : r.c.status === 'finished'
        ? uploadProblemView(finishedSentence(r.c))
        : modalFor(deps, r.c, req.postTo);
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
): UploadChoices | Refusal {
  const fileState = values?.[UPLOAD_BLOCKS.file]?.[UPLOAD_BLOCKS.file] as { files?: unknown } | undefined;
  const files = Array.isArray(fileState?.files) ? (fileState.files as Array<{ id?: unknown; name?: unknown }>) : [];
  if (files.length === 0) return { on: 'file', sentence: 'Choose a CSV, TSV, TXT or XLSX file to upload.' };
  if (files.length > 1) return { on: 'file', sentence: 'Choose one file at a time.' };
  const fileId = files[0]?.id;
  if (typeof fileId !== 'string' || !FILE_ID.test(fileId)) {
    return { on: 'file', sentence: 'Slack did not say which file was chosen; choose it again.' };
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

function refusalOf(err: unknown, deps: AppDeps): Refusal {
  if (err instanceof SlackFileError || err instanceof FileFormatError) return { on: 'file', sentence: err.message };
  if (err instanceof OutreachError) return { on: 'modal', sentence: humanMessage(err) };
  deps.logger.error({ err: errorSummary(err) }, 'checking an upload failed');
  return { on: 'modal', sentence: "Something unexpected went wrong; the details are in the app's logs." };
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
  const meta = decodeUploadMetadata(req.view.private_metadata);
  if (!meta) {
    await req.ack({
      response_action: 'update',
      view: uploadProblemView('This form is out of date. Close it and start again with `/campaign upload <id>`.'),
    });
    return;
  }
  const { campaignId } = meta;
  const refused = await refuseSubmissionIfReadOnly(
    deps,
    client,
    { userId, action: 'upload', what: 'upload contacts', campaignId },
    (text) => req.ack({ response_action: 'update', view: uploadProblemViewMrkdwn(text) }),
  );
  if (refused) return;
  const choices = uploadChoices(req.view.state?.values, deps.config.defaultPhoneRegion);
  if ('sentence' in choices) {
    await req.ack({ response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: choices.sentence } });
    return;
  }
  const svc = deps.uploads;
  const alreadySentence = async (): Promise<string | undefined> => {
    const existing = await svc.job(campaignId, choices.fileId);
    if (!existing || existing.status === 'stopped') return undefined;
    return existing.status === 'running'
      ? 'This file is already being uploaded into this campaign: its progress message shows how far it got.'
      : 'This file was already uploaded into this campaign (its summary is in the progress message). To upload ' +
          'it again, choose the file again.';
  };
  let already = await alreadySentence();
  if (!already) {
    // Claimed in the store (a double submit may reach two replicas), then looked for again: a submission that held
    // the claim until just now may have recorded the job in between.
    if (!(await svc.reserve(campaignId, choices.fileId))) {
      await req.ack({
        response_action: 'errors',
        errors: { [UPLOAD_BLOCKS.file]: 'This file is already being checked for this campaign; wait a moment.' },
      });
      return;
    }
    already = await alreadySentence();
    if (already) await svc.release(campaignId, choices.fileId);
  }
  if (already) {
    await req.ack({ response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: already } });
    return;
  }

  const { config } = deps;
  // What the job will be saved with (launch): the reader opened here is the job's. Its thread starts now, so it
  // is ready by the time the campaign is checked and the file downloaded.
  const reader = readerSettings(deps, svc.tuning, {
    defaultCountry: choices.defaultCountry,
    batchSize: svc.tuning.batchSize,
  });
  const spawned = spawnReader(reader);
  const prepare = (async (): Promise<Prepared | Refusal> => {
    try {
      const campaign = await deps.outreach.getCampaign(campaignId);
      if (campaign.status === 'finished') {
        await spawned.close();
        return { on: 'modal', sentence: finishedSentence(campaign) };
      }
      const opened = await openSlackContactsFile(client, choices.fileId, {
        botToken: config.slackBotToken,
        slackApiUrl: config.slackApiUrl,
        maxBytes: config.uploadMaxBytes,
        reader,
        spawned,
      });
      return { campaign, opened };
    } catch (err) {
      await spawned.close();
      return refusalOf(err, deps);
    }
  })();

  const launch = async (p: Prepared) => {
    const job = await svc.launch(
      {
        fileId: choices.fileId,
        fileName: p.opened.info.name,
        campaignId,
        campaignName: p.campaign.name,
        ifDuplicate: choices.ifDuplicate,
        defaultCountry: choices.defaultCountry,
        userId,
        ...(meta.postTo ? { channelId: meta.postTo } : {}),
      },
      p.opened,
    );
    await deps.audit.record(
      { userId, action: 'upload', campaignId, result: 'ok', detail: `${p.opened.info.name} (${choices.ifDuplicate})` },
      client,
    );
    return job;
  };
  const audited = async (r: Refusal) => {
    await svc.release(campaignId, choices.fileId);
    await deps.audit.record({ userId, action: 'upload', campaignId, result: 'refused', detail: r.sentence }, client);
  };

  const first = await Promise.race([prepare, slowAfter(budgetMs)]);
  if (first !== 'slow') {
    if ('sentence' in first) {
      await req.ack(
        first.on === 'file'
          ? { response_action: 'errors', errors: { [UPLOAD_BLOCKS.file]: fileErrorText(first.sentence) } }
          : { response_action: 'update', view: uploadProblemView(first.sentence) },
      );
      await audited(first);
      return;
    }
    await req.ack(undefined);
    await launch(first);
    return;
  }

  // Slow: answer Slack now with a view that is replaced by the outcome.
  const externalId = `campaign-upload-${randomBytes(12).toString('hex')}`;
  await req.ack({ response_action: 'update', view: uploadCheckingView(externalId, choices.fileName ?? 'the file') });
  const r = await prepare;
  let view: View;
  if ('sentence' in r) {
    await audited(r);
    view = uploadProblemView(r.sentence, { externalId });
  } else {
    const job = await launch(r);
    view = uploadStartedView(
      externalId,
      r.opened.info.name,
      job.channelId === userId ? 'your DM with the app' : `<#${job.channelId}>`,
    );
  }
  try {
    await client.views.update({ external_id: externalId, view });
  } catch (err) {
    deps.logger.info({ err: errorSummary(err) }, 'could not update the upload view (closed?)');
  }
}
