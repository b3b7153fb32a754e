/**
 * Every Prometheus metric of the app, on one prom-client Registry per running app (src/main.ts builds it and hands it
 * to what records into it; tests start several apps in one process, so nothing goes to prom-client's global registry).
 *
 * Label values come only from fixed sets or are checked against a pattern here (route templates, Slack method names,
 * Slack error codes), so no id, text from outside or secret can become a label, and the number of series stays
 * bounded. docs/operations.md ("GET /metrics", "What to alert on") lists every series and what to alert on.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceExchange } from './outreach/client.js';

/** Where a Slack request came from, for the ack latency. */
export type AckSurface =
  'command' | 'action' | 'view_submission' | 'view_closed' | 'options' | 'shortcut' | 'event' | 'other';

const LIMITER_PRIORITIES = ['interactive', 'poller', 'bulk'] as const;
type LimiterPriority = (typeof LIMITER_PRIORITIES)[number];

/** What the metrics read from the service's rate limiter when scraped. */
export interface LimiterGauges {
  queued(priority: LimiterPriority): number;
  pausedForMs(): number;
}

/** Outcomes of uploaded rows: the service's answer per contact, or refused while reading the file. */
export type UploadRowOutcome = 'created' | 'updated' | 'skipped' | 'failed' | 'rejected';

/** One HTTP request to Slack's Web API (every try counts). */
export interface SlackApiExchange {
  /** Web API method, e.g. `chat.postMessage`. */
  method: string;
  seconds: number;
  /** Slack's error code (`ok: false`), `ratelimited`, `http_<status>` or `request_failed`; absent when ok. */
  error?: string;
}

const ENDPOINT_TEMPLATE = /^(GET|POST|PUT|PATCH|DELETE) (\/([a-z_]+|\{[a-z_]+\}))+$/;
const SLACK_METHOD = /^[a-z]+(\.[a-zA-Z0-9]+)+$/;
const SLACK_ERROR = /^[a-z0-9_]{1,64}$/;

/** A route template as a label; anything else (a raw path with ids) becomes `other`. */
export function endpointLabel(endpoint: string): string {
  return ENDPOINT_TEMPLATE.test(endpoint) ? endpoint : 'other';
}

export function slackMethodLabel(method: string): string {
  return SLACK_METHOD.test(method) ? method : 'other';
}

export function slackErrorLabel(error: string): string {
  return SLACK_ERROR.test(error) ? error : 'other';
}

/** What one poll cycle did (src/watch/poller.ts `CycleReport`). */
export interface PollCycleFigures {
  seconds: number;
  failedCampaigns: number;
  /** Service requests the cycle sent, by route template. */
  requests: Readonly<Record<string, number>>;
  conversationsRead: number;
  /** Conversations due for a read and left for a later cycle. */
  conversationsLeft: number;
  /** Watched campaigns whose listing waited for the next cycle. */
  deferredCampaigns: number;
  /** Where the cycle's time went, seconds by phase. */
  phases: Readonly<Record<PollPhase, number>>;
}

const POLL_PHASES = ['listings', 'checks', 'conversations', 'housekeeping'] as const;
type PollPhase = (typeof POLL_PHASES)[number];

/** New calls placed in a channel and not in Slack yet (src/watch/delivery.ts `newCallsWaiting`). */
export interface NewCallsWaiting {
  queued: number;
  /** Running calls held back while the open call messages are at their cap. */
  held: number;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event-loop lag, GC, handles). Default true. */
  defaultMetrics?: boolean;
}

type Registers = Registry[];

/** Slack's requests to the app (how fast they are acknowledged) and the app's requests to Slack's Web API. */
function slackMetrics(registers: Registers) {
  return {
    ackSeconds: new Histogram({
      name: 'outreach_slack_ack_seconds',
      help: 'Time from a Slack request reaching the app to its acknowledgement, by surface (Slack allows 3 s).',
      labelNames: ['surface'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5],
      registers,
    }),
    apiCalls: new Counter({
      name: 'outreach_slack_slack_api_calls_total',
      help: "HTTP requests to Slack's Web API (each try), by method.",
      labelNames: ['method'],
      registers,
    }),
    apiErrors: new Counter({
      name: 'outreach_slack_slack_api_errors_total',
      help: "Slack Web API requests that failed, by method and error (Slack's code, ratelimited, http_<status>, request_failed).",
      labelNames: ['method', 'error'],
      registers,
    }),
    apiSeconds: new Histogram({
      name: 'outreach_slack_slack_api_duration_seconds',
      help: "Duration of HTTP requests to Slack's Web API, by method.",
      labelNames: ['method'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}

/** The app's requests to the outreach service, and its shared rate limiter (read from `limiter` when scraped). */
function serviceMetrics(registers: Registers, limiter: () => LimiterGauges | undefined) {
  return {
    requestSeconds: new Histogram({
      name: 'outreach_slack_service_request_duration_seconds',
      help:
        'HTTP exchanges with the outreach service (each try), by route template and status (network/timeout when ' +
        'no answer came); time on the wire, not waiting in the rate limiter.',
      labelNames: ['endpoint', 'status'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers,
    }),
    limiterQueued: new Gauge({
      name: 'outreach_slack_limiter_queued_requests',
      help: 'Requests to the outreach service waiting in the shared rate limiter, by priority.',
      labelNames: ['priority'],
      registers,
      collect() {
        const l = limiter();
        for (const p of LIMITER_PRIORITIES) this.set({ priority: p }, l ? l.queued(p) : 0);
      },
    }),
    limiterPauseSeconds: new Gauge({
      name: 'outreach_slack_limiter_pause_seconds',
      help: 'Seconds left in the pause of every service request after a 429 (0 when not paused).',
      registers,
      collect() {
        this.set((limiter()?.pausedForMs() ?? 0) / 1000);
      },
    }),
    rateLimited: new Counter({
      name: 'outreach_slack_limiter_rate_limited_total',
      help: 'Answers 429 (rate limited) from the outreach service; each pauses every request to it.',
      registers,
    }),
  };
}

/** The watch's poll cycles: how long, where the time went, what they asked the service and what they left. */
function pollMetrics(registers: Registers) {
  return {
    cycleSeconds: new Histogram({
      name: 'outreach_slack_poll_cycle_duration_seconds',
      help: 'Duration of one poll cycle over every watched campaign.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
      registers,
    }),
    phaseSeconds: new Histogram({
      name: 'outreach_slack_poll_phase_seconds',
      help:
        "Where a poll cycle's time went, by phase: listings (the campaigns' calls and WhatsApp contacts), checks " +
        "(the campaigns' status, reminders), conversations (their reads), housekeeping (letting go of what is done).",
      labelNames: ['phase'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60],
      registers,
    }),
    cycles: new Counter({
      name: 'outreach_slack_poll_cycles_total',
      help: 'Poll cycles, by outcome (ok, or failed: the cycle itself broke off).',
      labelNames: ['outcome'],
      registers,
    }),
    campaignFailures: new Counter({
      name: 'outreach_slack_poll_campaign_failures_total',
      help: 'Watched campaigns whose polling failed in a cycle (service error or timeout); the cycle goes on.',
      registers,
    }),
    requests: new Counter({
      name: 'outreach_slack_poll_requests_total',
      help:
        'Service requests sent by poll cycles (listings, conversation reads, campaign checks; each try and page), by ' +
        'route template. Per cycle: divide its rate by the rate of outreach_slack_poll_cycles_total.',
      labelNames: ['endpoint'],
      registers,
    }),
    cycleRequests: new Histogram({
      name: 'outreach_slack_poll_cycle_requests',
      help: 'Service requests one poll cycle sent, all kinds (it plans for 4/5 of its interval at 12/s: 48 at 5 s).',
      buckets: [5, 10, 20, 30, 40, 48, 60, 80, 120, 200, 400],
      registers,
    }),
    conversations: new Counter({
      name: 'outreach_slack_poll_conversations_total',
      help:
        'Conversations due for a read in poll cycles, by outcome: read, or left for a later cycle (the cycle had ' +
        'no requests left; those of running calls are left first).',
      labelNames: ['outcome'],
      registers,
    }),
    conversationsLeft: new Gauge({
      name: 'outreach_slack_poll_conversations_left',
      help: 'Conversations due for a read that the last poll cycle left for a later one.',
      registers,
    }),
    campaignsDeferred: new Gauge({
      name: 'outreach_slack_poll_campaigns_deferred',
      help:
        'Watched campaigns the last poll cycle left to be listed by the next one (not all fit beside its least ' +
        'conversation reads: half of them are listed each cycle, in turns).',
      registers,
    }),
  };
}

/** How soon calls reach Slack, and the new ones still waiting for their post (read from `waiting` when scraped). */
function deliveryMetrics(registers: Registers, waiting: () => (() => NewCallsWaiting) | undefined) {
  return {
    newCallsWaiting: new Gauge({
      name: 'outreach_slack_watch_new_calls_waiting',
      help:
        'New calls placed in a channel and not in Slack yet, by reason: queued for their post, or open_cap (a ' +
        'running call held back while the messages owing a final update are at their cap: posted when it ends).',
      labelNames: ['reason'],
      registers,
      collect() {
        const w = waiting()?.() ?? { queued: 0, held: 0 };
        this.set({ reason: 'queued' }, w.queued);
        this.set({ reason: 'open_cap' }, w.held);
      },
    }),
    endToSlackSeconds: new Histogram({
      name: 'outreach_slack_call_end_to_slack_seconds',
      help: "Time from a call's end (the service's ended_at) to its final state first shown in Slack.",
      buckets: [1, 2.5, 5, 10, 15, 30, 45, 60, 90, 120, 300, 600, 1800],
      registers,
    }),
    createdToSlackSeconds: new Histogram({
      name: 'outreach_slack_call_created_to_slack_seconds',
      help:
        "Time from a call's creation (the service's created_at) to its first message or digest line in a channel " +
        '(each channel counts).',
      buckets: [1, 2.5, 5, 7.5, 10, 15, 20, 30, 45, 60, 120, 300, 600],
      registers,
    }),
  };
}

/** The replica's state: its /healthz checks (read from `health` when scraped), whether it leads, its uploads' rows. */
function replicaMetrics(registers: Registers, health: () => (() => Promise<Record<string, boolean>>) | undefined) {
  return {
    healthCheck: new Gauge({
      name: 'outreach_slack_health_check_ok',
      help: 'Result of each /healthz check when scraped (1 passing, 0 failing).',
      labelNames: ['check'],
      registers,
      async collect() {
        const checks = (await health()?.()) ?? {};
        for (const [check, ok] of Object.entries(checks)) this.set({ check }, ok ? 1 : 0);
      },
    }),
    leader: new Gauge({
      name: 'outreach_slack_leader',
      help:
        'Whether this replica holds the leader lease, so polls the service and delivers to Slack (1), or stands by ' +
        "(0). Exactly one replica on a DATABASE_URL should say 1; the embedded store's one process always does.",
      registers,
    }),
    uploadRows: new Counter({
      name: 'outreach_slack_upload_rows_total',
      help:
        'Rows of uploaded contact files processed, by outcome: created, updated, skipped (duplicate) or failed ' +
        'as answered by the service; rejected while reading the file (invalid, empty or repeated number).',
      labelNames: ['outcome'],
      registers,
    }),
  };
}

export class AppMetrics {
  readonly registry = new Registry();

  private limiter: LimiterGauges | undefined;
  private health: (() => Promise<Record<string, boolean>>) | undefined;
  private waitingCalls: (() => NewCallsWaiting) | undefined;

  // Arrow functions keep `this` (the AppMetrics) inside prom-client's collect callbacks.
  private readonly slack = slackMetrics([this.registry]);
  private readonly service = serviceMetrics([this.registry], () => this.limiter);
  private readonly poll = pollMetrics([this.registry]);
  private readonly delivery = deliveryMetrics([this.registry], () => this.waitingCalls);
  private readonly replica = replicaMetrics([this.registry], () => this.health);

  constructor(opts: MetricsOptions = {}) {
    this.replica.leader.set(0);
    // Series that exist from the start at 0, so a rate() or an absent() alert works before the first event.
    for (const outcome of ['created', 'updated', 'skipped', 'failed', 'rejected'] as const) {
      this.replica.uploadRows.inc({ outcome }, 0);
    }
    for (const outcome of ['ok', 'failed']) this.poll.cycles.inc({ outcome }, 0);
    for (const outcome of ['read', 'left']) this.poll.conversations.inc({ outcome }, 0);

    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The limiter whose queue and pause are reported. */
  watchLimiter(limiter: LimiterGauges): void {
    this.limiter = limiter;
  }

  /** The source of `outreach_slack_health_check_ok`: each check's result, run at scrape time. */
  watchHealth(latest: () => Promise<Record<string, boolean>>): void {
    this.health = latest;
  }

  /** The source of `outreach_slack_watch_new_calls_waiting`, read at scrape time. */
  watchNewCalls(source: () => NewCallsWaiting): void {
    this.waitingCalls = source;
  }

  /** This replica started (true) or stopped (false) leading. */
  setLeader(leader: boolean): void {
    this.replica.leader.set(leader ? 1 : 0);
  }

  ack(surface: AckSurface, seconds: number): void {
    this.slack.ackSeconds.observe({ surface }, seconds);
  }

  serviceExchange(x: ServiceExchange): void {
    this.service.requestSeconds.observe({ endpoint: endpointLabel(x.endpoint), status: String(x.status) }, x.seconds);
    if (x.status === 429) this.service.rateLimited.inc();
  }

  pollCycle(f: PollCycleFigures): void {
    this.poll.cycles.inc({ outcome: 'ok' });
    this.poll.cycleSeconds.observe(f.seconds);
    for (const phase of POLL_PHASES) this.poll.phaseSeconds.observe({ phase }, f.phases[phase]);
    if (f.failedCampaigns > 0) this.poll.campaignFailures.inc(f.failedCampaigns);
    let total = 0;
    for (const [endpoint, n] of Object.entries(f.requests)) {
      total += n;
      this.poll.requests.inc({ endpoint: endpointLabel(endpoint) }, n);
    }
    this.poll.cycleRequests.observe(total);
    this.poll.conversations.inc({ outcome: 'read' }, f.conversationsRead);
    this.poll.conversations.inc({ outcome: 'left' }, f.conversationsLeft);
    this.poll.conversationsLeft.set(f.conversationsLeft);
    this.poll.campaignsDeferred.set(f.deferredCampaigns);
  }

  pollCycleFailed(): void {
    this.poll.cycles.inc({ outcome: 'failed' });
  }

  /** A call's final state first shown in Slack at `shownAt` (ms); `endedAt` is the service's ended_at. */
  callShown(endedAt: string | null | undefined, shownAt: number): void {
    const ended = endedAt ? Date.parse(endedAt) : NaN;
    // Without an end time there is nothing to measure from; clocks differ, so a negative lag counts as 0.
    if (!Number.isNaN(ended)) this.delivery.endToSlackSeconds.observe(Math.max(0, (shownAt - ended) / 1000));
  }

  /** A call first shown in a channel at `postedAt` (ms); `createdAt` is the service's created_at. */
  callPosted(createdAt: string, postedAt: number): void {
    const created = Date.parse(createdAt);
    if (!Number.isNaN(created)) this.delivery.createdToSlackSeconds.observe(Math.max(0, (postedAt - created) / 1000));
  }

  slackApiCall(x: SlackApiExchange): void {
    const method = slackMethodLabel(x.method);
    this.slack.apiCalls.inc({ method });
    this.slack.apiSeconds.observe({ method }, x.seconds);
    if (x.error !== undefined) this.slack.apiErrors.inc({ method, error: slackErrorLabel(x.error) });
  }

  uploadRowsProcessed(outcome: UploadRowOutcome, rows: number): void {
    if (rows > 0) this.replica.uploadRows.inc({ outcome }, rows);
  }

  /** The exposition text for GET /metrics. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

export function createMetrics(opts: MetricsOptions = {}): AppMetrics {
  return new AppMetrics(opts);
}
