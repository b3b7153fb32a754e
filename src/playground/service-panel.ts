/**
 * The service's side of the playground: the page's panel acts through the simulator's own controls (end a call,
 * write as the end user, change a campaign's status, the billing limit, an outage for some seconds), and what the
 * simulator's campaigns and calls are now is sent to every page whenever it changes.
 */
import type { SimControl } from '../sim/control.js';
import type { PageService } from './api.js';

/** Calls shown in the panel: those of the last minutes, newest first, a few. */
const RECENT_CALLS_MS = 15 * 60_000;
const MAX_CALLS = 20;

/** A control refused (no such campaign or call): the page is told what to fix. */
export class PanelError extends Error {}

type Status = 'paused' | 'active' | 'finished';
/** The panel's words for the service's statuses: a paused campaign is `inactive` there. */
const SERVICE_STATUS = { paused: 'inactive', active: 'active', finished: 'finished' } as const;

export class ServicePanel {
  private down = false;
  private billingLimitReached = false;
  private outageTimer: NodeJS.Timeout | undefined;
  private last = '';
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly control: SimControl,
    /** Called with the panel's state each time it differs from the last one sent. */
    private readonly changed: (service: PageService) => void,
    pollMs = 1000,
  ) {
    this.poll = setInterval(() => this.notifyIfChanged(), pollMs);
    this.poll.unref();
  }

  state(): PageService {
    const campaigns = this.control.campaignIds().flatMap((id) => {
      const s = this.control.getCampaignState(id);
      return s ? [{ id, name: s.record.name, status: s.record.status, calls: s.calls }] : [];
    });
    const since = Date.now() - RECENT_CALLS_MS;
    const calls = campaigns
      .flatMap((c) => c.calls.map((call) => ({ campaignId: c.id, call })))
      .filter(({ call }) => Date.parse(String(call.created_at)) >= since)
      .sort((a, b) => String(b.call.created_at).localeCompare(String(a.call.created_at)))
      .slice(0, MAX_CALLS)
      .map(({ campaignId, call }) => {
        const contact = call.contact as { name?: string } | null;
        return {
          campaignId,
          callId: String(call.id),
          status: String(call.status),
          endUser: contact?.name ?? '',
          ...(typeof call.thread_id === 'string' ? { threadId: call.thread_id } : {}),
        };
      });
    return {
      campaigns: campaigns.map(({ id, name, status }) => ({ id, name, status })),
      calls,
      down: this.down,
      billingLimitReached: this.billingLimitReached,
    };
  }

  /** Sends the state when it changed since the last time (the simulator moves by itself: this is asked each second). */
  notifyIfChanged(): void {
    const now = this.state();
    const text = JSON.stringify(now);
    if (text === this.last) return;
    this.last = text;
    this.changed(now);
  }

  endCall(campaignId: number, callId: string): void {
    const state = this.campaign(campaignId);
    if (!state.calls.some((c) => c.id === callId)) {
      throw new PanelError(`Campaign ${campaignId} has no call ${callId}: pick one of the panel's calls.`);
    }
    this.control.updateCall(callId, { status: 'ended', ended_by: 'user' });
    this.notifyIfChanged();
  }

  endUserWrites(threadId: string, text: string): void {
    try {
      this.control.addMessage(threadId, { sent_by: 'EU', content: text });
    } catch {
      throw new PanelError(`The service has no conversation ${threadId}: pick a call's thread from the panel.`);
    }
    this.notifyIfChanged();
  }

  setCampaignStatus(campaignId: number, status: Status): void {
    this.campaign(campaignId);
    this.control.setCampaignStatus(campaignId, SERVICE_STATUS[status]);
    this.notifyIfChanged();
  }

  setBillingLimit(reached: boolean): void {
    this.control.setBillingLimitReached(reached);
    this.billingLimitReached = reached;
    this.notifyIfChanged();
  }

  /** The service answers 503 to every request for `seconds`, then comes back by itself. */
  outage(seconds: number): void {
    clearTimeout(this.outageTimer);
    this.control.clearFaults();
    this.control.injectFaults({ status: 503, count: Number.MAX_SAFE_INTEGER, retryAfter: seconds });
    this.down = true;
    this.outageTimer = setTimeout(() => {
      this.control.clearFaults();
      this.down = false;
      this.notifyIfChanged();
    }, seconds * 1000);
    this.outageTimer.unref();
    this.notifyIfChanged();
  }

  close(): void {
    clearInterval(this.poll);
    clearTimeout(this.outageTimer);
  }

  private campaign(id: number) {
    const state = this.control.getCampaignState(id);
    if (!state) throw new PanelError(`The service has no campaign ${id}: pick one of the panel's campaigns.`);
    return state;
  }
}
