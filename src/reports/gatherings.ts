/**
 * The report gatherings of this process, so that reports cannot crowd out everything else:
 *
 * - one gathering per campaign and period at a time: an ask for a campaign already being gathered (or waiting its
 *   turn) joins it and gets the same figures, with no request of its own;
 * - at most `maxAtOnce` gatherings read the service at once across campaigns; the others wait their turn, first come
 *   first served, and the asker is told how many are ahead;
 * - a gathering costs the people who asked for it one action of their budget (src/slack/middleware/fair-use.ts) per
 *   `requestsPerAction` requests, taken as it reads (from the first asker while they have some, then the next); when
 *   none of them has any left it stops there with `ReportOverBudget`. Scheduled reports have no asker and cost no one,
 *   nor does a gathering a scheduled run shares.
 *
 * Nothing is kept once a gathering ends: its figures go to whoever asked, and the next ask reads afresh.
 */
import type { OutreachApi } from '../outreach/api.js';
import type { CampaignDetail } from '../outreach/schemas.js';
import type { Clock } from '../clock.js';
import type { ReportFigures } from './figures.js';
import type { Taken } from '../store/token-buckets.js';
import { gatherReport } from './gather.js';

/** A person's budget of actions, as the fair-use middleware keeps it (`PersonBudget.take`: one action per call). */
export interface ActionBudget {
  take(userId: string): Promise<Taken>;
}

/** The gathering stopped: none of the people who asked for it has an action left. */
export class ReportOverBudget extends Error {
  constructor(
    /** How long until the first of them has one again. */
    readonly waitMs: number,
    /** Requests read before it stopped. */
    readonly requests: number,
  ) {
    super(`the report stopped after ${requests} requests: its askers are over their budget`);
    this.name = 'ReportOverBudget';
  }
}

export interface GatheringOptions {
  /** Gatherings reading the service at once, across campaigns. */
  maxAtOnce: number;
  /** Service requests per action of the asker's budget. */
  requestsPerAction: number;
  budget?: ActionBudget;
}

export interface GatherAsk {
  campaignId: number;
  periodDays: number;
  /** The campaign, when the caller already read it. */
  campaign?: CampaignDetail;
  /** Who asked (Slack user id): pays for it. None: a scheduled report. */
  payer?: string;
}

/** Where an ask stands: whether it joined a gathering already under way, and how many gatherings are ahead of it. */
export interface AskStatus {
  joined: boolean;
  /** 0: reading now. */
  ahead: number;
}

interface Gathering {
  ask: GatherAsk;
  /** Who pays, in the order they asked. */
  payers: string[];
  /** A scheduled run asked for it: it costs no one (and no one's budget can stop it). */
  free: boolean;
  figures: Promise<ReportFigures>;
  /** Lets it read the service (called once: at once, or when a place frees up). */
  start: () => void;
}

export class ReportGatherings {
  private readonly byKey = new Map<string, Gathering>();
  private readonly waiting: Gathering[] = [];
  private running = 0;

  constructor(
    private readonly api: OutreachApi,
    private readonly clock: Clock,
    private readonly opts: GatheringOptions,
  ) {}

  /** Joins the campaign's gathering or starts one (now, or when a place frees up). */
  ask(a: GatherAsk): { status: AskStatus; figures: Promise<ReportFigures> } {
    const key = `${a.campaignId}/${a.periodDays}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (!a.payer) existing.free = true;
      else if (!existing.payers.includes(a.payer)) existing.payers.push(a.payer);
      return { status: { joined: true, ahead: this.aheadOf(existing) }, figures: existing.figures };
    }
    const g = this.queue(key, a);
    return { status: { joined: false, ahead: this.aheadOf(g) }, figures: g.figures };
  }

  /** Gatherings reading now, and waiting for a place (metrics, tests). */
  counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private aheadOf(g: Gathering): number {
    const i = this.waiting.indexOf(g);
    return i < 0 ? 0 : this.running + i;
  }

  private queue(key: string, ask: GatherAsk): Gathering {
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    const g: Gathering = {
      ask,
      payers: ask.payer ? [ask.payer] : [],
      free: !ask.payer,
      figures: started.then(() => this.read(g)).finally(() => this.done(key)),
      start: () => {
        this.running += 1;
        begin();
      },
    };
    this.byKey.set(key, g);
    if (this.running < this.opts.maxAtOnce) g.start();
    else this.waiting.push(g);
    return g;
  }

  private read(g: Gathering): Promise<ReportFigures> {
    const every = Math.max(1, this.opts.requestsPerAction);
    return gatherReport(this.api, g.ask.campaignId, {
      clock: this.clock,
      periodDays: g.ask.periodDays,
      ...(g.ask.campaign ? { campaign: g.ask.campaign } : {}),
      // The ask itself was one action (the command or click); every further `every` requests cost one more.
      beforeRequest: async (sent) => {
        if (sent > 0 && sent % every === 0) await this.charge(g, sent);
      },
    });
  }

  private async charge(g: Gathering, sent: number): Promise<void> {
    const budget = this.opts.budget;
    if (!budget || g.free) return;
    let waitMs = Infinity;
    for (const payer of g.payers) {
      const answer = await budget.take(payer);
      if (answer.ok) return;
      waitMs = Math.min(waitMs, answer.waitMs);
    }
    throw new ReportOverBudget(waitMs, sent);
  }

  private done(key: string): void {
    this.byKey.delete(key);
    this.running -= 1;
    this.waiting.shift()?.start();
  }
}
