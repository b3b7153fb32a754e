/**
 * Helpers of the upload integration tests: a campaign in the simulator, the upload modal opened through the real
 * command, a file submitted through it, and waiting for the upload's summary message.
 */
import { jobsOf, uploadJobId, type UploadJob } from '../../src/slack/upload/jobs.js';
import type { FakeFileObject, FakeMessage } from '../../src/emulator/fake-slack.js';
import { stateValue, type ViewSubmissionResult } from '../../src/emulator/slack-driver.js';
import type { TestApp } from './test-app.js';

export type Json = Record<string, unknown>;
export const ADMIN = 'U0ADMIN';
export const READER = 'U0READER';
export const CHANNEL = 'C0OPS';
/** How long a step of an upload may take before a test fails: a loaded machine takes seconds (only a failure waits). */
const PATIENCE_MS = 20_000;

export function seedCampaign(
  t: TestApp,
  name = 'Cobranza',
  status: 'pending' | 'ready' | 'active' | 'finished' = 'ready',
): number {
  const { control } = t.sim;
  const agent = control.addAgent({ name: 'Sofía' });
  const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  return Number(control.seedCampaign({ name, agentId: agent.id, integrationId: phone.id, status }).id);
}

/** `/campaign upload <id>` and the id of the upload modal it opened. */
export async function openUploadModal(t: TestApp, campaignId: number, userId = ADMIN): Promise<string> {
  const before = new Set(t.fake.openViews(userId).map((v) => v.id));
  const ack = await t.driver.command(`upload ${campaignId}`, { userId, channelId: CHANNEL });
  expect(ack.status).toBe(200);
  const view = await t.fake.waitFor(
    () => t.fake.openViews(userId).find((v) => v.callback_id === 'campaign_upload' && !before.has(v.id)),
    PATIENCE_MS,
  );
  return String(view.id);
}

export async function submitUpload(
  t: TestApp,
  viewId: string,
  file: FakeFileObject,
  opts: { ifDuplicate?: 'skip' | 'update'; country?: string; userId?: string } = {},
) {
  const values: Json = { file: { file: stateValue.files([file]) } };
  if (opts.ifDuplicate) values.if_duplicate = { if_duplicate: stateValue.radio(opts.ifDuplicate) };
  if (opts.country) values.default_country = { default_country: stateValue.staticSelect(opts.country) };
  return t.driver.viewSubmission({ viewId, values, ...(opts.userId ? { userId: opts.userId } : {}) });
}

/** How an upload submission ended, whichever way the app answered (see `submitAndSettle`). */
export interface UploadSubmitted {
  ack: ViewSubmissionResult;
  /** The job was launched: the modal closed at once, or said it had started. */
  started: boolean;
  /** The file was refused: the text under the file input, or the modal's text when the refusal came later. */
  refusal?: string;
  /** The app answered "checking" first (the file took longer to check than its ack budget). */
  slow: boolean;
}

/**
 * Submits the modal and waits for its outcome. When the app has checked the campaign and the file within its ack
 * budget it answers at once (the modal closes, or the refusal shows under the file input); otherwise it answers
 * "checking" and puts the outcome in the modal once it knows it. Which of the two depends on how fast this machine
 * is at that moment: a test asserts on the outcome, not on the way.
 */
export async function submitAndSettle(
  t: TestApp,
  campaignId: number,
  viewId: string,
  file: FakeFileObject,
  opts: { ifDuplicate?: 'skip' | 'update'; country?: string; userId?: string } = {},
  timeoutMs = 30_000,
): Promise<UploadSubmitted> {
  const ack = await submitUpload(t, viewId, file, opts);
  expect(ack.status).toBe(200);
  const answer = ack.json as { response_action?: string; errors?: Record<string, string>; view?: Json } | undefined;
  if (ack.viewResult?.action === 'close') return { ack, started: true, slow: false };
  if (ack.viewResult?.action === 'errors') return { ack, started: false, refusal: answer?.errors?.file, slow: false };
  const shown = viewText(answer?.view);
  const checking = String(answer?.view?.external_id ?? '').startsWith('campaign-upload-');
  if (!checking) return { ack, started: false, refusal: shown, slow: false };
  // The checking view is replaced by the outcome: the job launched before it, or the claim released.
  const outcome = await t.fake.waitFor(() => {
    const now = viewText(t.fake.view(viewId));
    return now !== shown ? now : undefined;
  }, timeoutMs);
  if (await job(t, campaignId, file.id)) return { ack, started: true, slow: true };
  return { ack, started: false, refusal: outcome, slow: true };
}

/** The texts of a view's blocks, one a line (mrkdwn as sent). */
function viewText(view: Json | undefined): string {
  const texts: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'text' && typeof v === 'string') texts.push(v);
        else walk(v);
      }
    }
  };
  walk(view?.blocks ?? []);
  return texts.join('\n');
}

export function job(t: TestApp, campaignId: number, fileId: string): Promise<UploadJob | undefined> {
  return jobsOf(t.app.deps.store).get(uploadJobId(campaignId, fileId));
}

/** Polls `fn` (which may read the store) until it gives a value; the last try's value after `timeoutMs`. */
export async function until<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 2000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The upload's message in the channel once it shows the summary. */
export async function waitForSummary(
  t: TestApp,
  campaignId: number,
  fileId: string,
  timeoutMs = PATIENCE_MS,
): Promise<FakeMessage> {
  const j = await until(async () => {
    const found = await job(t, campaignId, fileId);
    return found?.status !== 'running' && found;
  }, timeoutMs);
  return t.fake.waitFor(() => {
    const m = t.fake.message(j.channelId, j.messageTs ?? '');
    return m && /Upload (finished|stopped)/.test(m.text) ? m : undefined;
  }, timeoutMs);
}

export const blocksText = (m: { blocks?: unknown[]; text?: string }) => JSON.stringify(m.blocks ?? []) + (m.text ?? '');

export function simContacts(t: TestApp, campaignId: number): Json[] {
  return t.sim.control.getCampaignState(campaignId)?.contacts ?? [];
}

/** Requests of POST /campaigns/{id}/contacts the simulator received (answered or not). */
export function contactPosts(t: TestApp, campaignId: number) {
  return t.sim.control
    .requests()
    .filter((r) => r.method === 'POST' && r.path.endsWith(`/campaigns/${campaignId}/contacts`));
}

/** A CSV of `n` distinct valid Mexican mobile numbers, `Nombre,Teléfono`, starting at `from`. */
export function numbersCsv(n: number, from = 0): string {
  const lines = ['Nombre,Teléfono'];
  for (let i = 0; i < n; i++) lines.push(`Persona ${from + i},55${String(10_000_000 + from + i).slice(-8)}`);
  return `${lines.join('\n')}\n`;
}
