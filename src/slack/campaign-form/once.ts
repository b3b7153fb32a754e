import { createHash } from 'node:crypto';
import { OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail } from '../../outreach/schemas.js';
import type { Collection, Store } from '../../store/store.js';

/** A submission, as the record that makes it happen once. */
interface SubmissionRecord {
  /** Times the service refused this exact content (moves the Idempotency-Key on). */
  refusals: number;
  campaignId?: number;
  /** The result was posted (or is being posted): never again. */
  done?: boolean;
  at: number;
}

const SUBMISSIONS = 'campaignFormSubmissions';
/** Records expire this long after their last write (Slack views live far shorter). */
const SUBMISSION_KEEP_MS = 3 * 24 * 3600_000;

export type Outcome = { campaign: CampaignDetail; first: boolean; changed?: string[] };

/** A UUID-shaped key (version nibble 5: name-based) from any text. */
function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The submission's identity: same view, same person, same content. */
export function submissionKey(viewId: string, userId: string, body: unknown): string {
  return uuidFrom(`campaign-form|${viewId}|${userId}|${JSON.stringify(body)}`);
}

/** A refusal by the service itself: nothing was created or changed, so the same content may be sent again later. */
function definitelyNotApplied(err: unknown): boolean {
  if (!(err instanceof OutreachError)) return false;
  if (err.kind === 'network' || err.kind === 'timeout') return err.mayHaveBeenApplied === false;
  if (err.kind !== 'service' || err.status === undefined) return false;
  return err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

/**
 * The submissions of the campaign form, each carried out once: a concurrent duplicate shares the first one's promise;
 * a later duplicate of a submission that succeeded is answered from its record (in the store) without calling the
 * service again. One per app, built by src/main.ts.
 */
export class FormSubmissions {
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly records: Collection<SubmissionRecord>;

  constructor(store: Store) {
    this.records = store.collection<SubmissionRecord>(SUBMISSIONS);
  }

  /** Runs the service call of the submission `baseKey` once (see above). */
  async once(
    baseKey: string,
    call: (idempotencyKey: string) => Promise<{ campaign: CampaignDetail; changed?: string[] }>,
    replay: (campaignId: number) => Promise<CampaignDetail>,
  ): Promise<Outcome> {
    const map = this.inflight;
    const running = map.get(baseKey);
    if (running) return running.then((o) => ({ ...o, first: false }));
    const coll = this.records;
    const p = (async (): Promise<Outcome> => {
      const rec = await coll.get(baseKey);
      if (rec?.done && rec.campaignId !== undefined) return { campaign: await replay(rec.campaignId), first: false };
      const refusals = rec?.refusals ?? 0;
      const key = refusals ? uuidFrom(`${baseKey}#${refusals}`) : baseKey;
      try {
        const r = await call(key);
        const now = Date.now();
        await coll.put(
          baseKey,
          { refusals, campaignId: r.campaign.id, done: true, at: now },
          { expiresAt: now + SUBMISSION_KEEP_MS },
        );
        return { ...r, first: true };
      } catch (err) {
        if (definitelyNotApplied(err)) {
          const at = Date.now();
          await coll.put(baseKey, { refusals: refusals + 1, at }, { expiresAt: at + SUBMISSION_KEEP_MS });
        }
        throw err;
      }
    })();
    map.set(baseKey, p);
    try {
      return await p;
    } finally {
      map.delete(baseKey);
    }
  }
}
