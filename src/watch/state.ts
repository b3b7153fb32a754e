/**
 * What watching remembers, as typed store collections, plus in-memory indexes rebuilt from them at start-up.
 *
 * Durability rule: a record is written (and awaited) as soon as the Slack post it describes succeeded, and the
 * poll cursor only moves after the calls it covers are recorded; so a restart resumes from exactly what is on disk.
 */
import type { CampaignCallItem } from '../outreach/schemas.js';
import type { DigestLine } from '../render/call-message.js';
import type { Collection, Store } from '../store/store.js';

const COLLECTIONS = {
  subscriptions: 'watch_subscriptions',
  cursors: 'watch_cursors',
  calls: 'watch_calls',
  posts: 'watch_posts',
  channels: 'watch_channels',
  digests: 'watch_digests',
  events: 'watch_events',
  tries: 'watch_try',
  whatsapp: 'watch_whatsapp',
} as const;

type ChannelKind = 'phone_call' | 'whatsapp' | 'unknown';

/** One channel watching one campaign. Key: `${campaignId}/${channelId}`. */
export interface Subscription {
  campaignId: number;
  channelId: string;
  createdBy: string;
  createdAt: string;
  /** Calls created from this instant on (less the overlap window) are posted here. */
  startFrom: string;
  campaignName?: string;
  kind: ChannelKind;
  /**
   * Set while the watch is stopped: Slack refused the channel (resumes by itself when the channel is reachable
   * again, or when someone watches again), or the service no longer has the campaign (`campaign_not_found`).
   */
  suspended?: { error: string; at: string };
  /** The last suspension its owner was told about by DM (the same one is not told twice within a day). */
  lastNotice?: { error: string; at: string };
}

/** Where polling of one campaign stands. Key: campaign id. */
export interface CampaignCursor {
  campaignId: number;
  /** Newest `created_at` seen (the service's clock). */
  newestCreatedAt?: string;
  lastPolledAt?: string;
  failures: number;
  lastError?: string;
}

/** A call the poller knows. Key: `${campaignId}/${callId}`. */
export interface CallRecord {
  campaignId: number;
  callId: string;
  threadId?: string;
  createdAt: string;
  status: string;
  /** Fingerprint of the rendered message: a change means the Slack message needs an update. */
  fp: string;
  /** Hash of the listed item as received: unchanged means no need to render it again. */
  ih?: string;
  /** Outcome known and settled: no longer re-listed. */
  final: boolean;
  /** Our clock (ms) when the call was first seen / reached a final status. */
  firstSeenAt: number;
  finalAt?: number;
  /** The latest data, kept until every channel shows it and the call is final. */
  snapshot?: CampaignCallItem;
}

/** Where a conversation stands in one Slack thread (or DM). */
export interface ConversationCursor {
  /** How many of the service thread's messages (GET /message, oldest first) are accounted for. */
  count: number;
  /** Key of the last accounted message, to find our place if the list ever changes. */
  lastKey?: string;
  /** Keys of messages already in Slack without being counted yet (a person's relayed reply, answers posted directly). */
  accounted: string[];
  /** Our clock (ms) of the last new message or reply; the thread is let go after the idle time. */
  lastActivityAt: number;
  introPosted?: boolean;
}

/** A call as shown in one channel. Key: `${channelId}/${callId}`. */
export interface PostRecord {
  channelId: string;
  campaignId: number;
  callId: string;
  threadId?: string;
  createdAt: string;
  /** The call's own message (parent of its conversation thread). */
  ts?: string;
  /** Or the burst digest that lists it. */
  digestId?: string;
  /** Fingerprint shown in Slack. */
  deliveredFp?: string;
  conv?: ConversationCursor;
  /** Cached from the service thread, for relaying replies. */
  agentId?: string;
  endUserId?: string;
  endUserName?: string;
  /** Re-created from the Slack message's metadata after it was let go: the conversation cursor starts at "now". */
  rebuilt?: boolean;
}

/** Per channel: burst mode. Key: channel id. */
export interface ChannelRecord {
  channelId: string;
  mode: 'normal' | 'digest';
  currentDigestId?: string;
  digestSeq: number;
  /** Our clock (ms) of the last call that went into a digest. */
  lastDigestAt?: number;
}

/** One burst digest message. Key: `${channelId}/${seq}`. */
export interface DigestRecord {
  channelId: string;
  id: string;
  seq: number;
  ts?: string;
  lines: DigestLine[];
  fp: string;
  deliveredFp?: string;
}

/** A person trying an agent in their DM with the app. Key: Slack user id. */
export interface TrySession {
  userId: string;
  /** Created once per person (POST /enduser) and reused for every try. */
  endUserId: string;
  agentId?: string;
  agentName?: string;
  dmChannelId?: string;
  threadId?: string;
  conv?: ConversationCursor;
}

/** WhatsApp campaign contacts' status. Key: campaign id. */
export interface WhatsAppRecord {
  campaignId: number;
  counts: Record<string, number>;
  /** Contact ids already announced, per notable status. */
  announced: Record<string, number[]>;
}

/** A WhatsApp message of a channel (digest or a contact's). Key: `${channelId}/wa/${campaignId}[/${contact}/${status}]`. */
export interface WhatsAppPost {
  channelId: string;
  campaignId: number;
  ts?: string;
  /** Fingerprint of what `payload` renders (a hash of the counts; `contact` for a contact's message). */
  fp: string;
  deliveredFp?: string;
  /** What to render (contact messages are posted once, the digest is updated in place). */
  payload: { kind: 'digest'; counts: Record<string, number>; at: string } | { kind: 'contact'; contact: unknown };
}

export const subKey = (campaignId: number, channelId: string) => `${campaignId}/${channelId}`;
export const callKey = (campaignId: number, callId: string) => `${campaignId}/${callId}`;
export const postKey = (channelId: string, callId: string) => `${channelId}/${callId}`;

export class WatchState {
  readonly subscriptions: Collection<Subscription>;
  readonly cursors: Collection<CampaignCursor>;
  readonly calls: Collection<CallRecord>;
  readonly posts: Collection<PostRecord>;
  readonly channels: Collection<ChannelRecord>;
  readonly digests: Collection<DigestRecord>;
  readonly events: Collection<number>;
  readonly tries: Collection<TrySession>;
  readonly whatsapp: Collection<WhatsAppRecord>;
  readonly waPosts: Collection<WhatsAppPost>;

  /** `${channelId}/${threadTs}` -> post key. */
  private readonly byThreadTs = new Map<string, string>();
  /** service thread id -> post keys mirroring it. */
  private readonly byServiceThread = new Map<string, Set<string>>();
  /** campaign id -> call keys not yet final. */
  private readonly openCalls = new Map<number, Set<string>>();

  constructor(readonly store: Store) {
    this.subscriptions = store.collection<Subscription>(COLLECTIONS.subscriptions);
    this.cursors = store.collection<CampaignCursor>(COLLECTIONS.cursors);
    this.calls = store.collection<CallRecord>(COLLECTIONS.calls);
    this.posts = store.collection<PostRecord>(COLLECTIONS.posts);
    this.channels = store.collection<ChannelRecord>(COLLECTIONS.channels);
    this.digests = store.collection<DigestRecord>(COLLECTIONS.digests);
    this.events = store.collection<number>(COLLECTIONS.events);
    this.tries = store.collection<TrySession>(COLLECTIONS.tries);
    this.whatsapp = store.collection<WhatsAppRecord>(COLLECTIONS.whatsapp);
    this.waPosts = store.collection<WhatsAppPost>('watch_whatsapp_posts');
    for (const [key, p] of this.posts.entries()) this.indexPost(key, p);
    for (const [key, c] of this.calls.entries()) this.indexCall(key, c);
  }

  // ---- subscriptions
  activeSubscriptions(campaignId?: number): Subscription[] {
    return this.subscriptions
      .values()
      .filter((s) => !s.suspended && (campaignId === undefined || s.campaignId === campaignId));
  }

  /** Whether a campaign is watched (not suspended) in this channel. */
  watchedChannel(channelId: string): boolean {
    return this.subscriptions.values().some((s) => s.channelId === channelId && !s.suspended);
  }

  // ---- calls
  async putCall(rec: CallRecord): Promise<void> {
    const key = callKey(rec.campaignId, rec.callId);
    this.indexCall(key, rec);
    await this.calls.set(key, rec);
  }

  private indexCall(key: string, rec: CallRecord): void {
    let set = this.openCalls.get(rec.campaignId);
    if (!rec.final) {
      if (!set) this.openCalls.set(rec.campaignId, (set = new Set()));
      set.add(key);
    } else set?.delete(key);
  }

  openCallsOf(campaignId: number): CallRecord[] {
    const keys = this.openCalls.get(campaignId);
    if (!keys) return [];
    return [...keys].map((k) => this.calls.get(k)).filter((c): c is CallRecord => c !== undefined);
  }

  async deleteCall(rec: CallRecord): Promise<void> {
    const key = callKey(rec.campaignId, rec.callId);
    this.openCalls.get(rec.campaignId)?.delete(key);
    await this.calls.delete(key);
  }

  // ---- posts
  async putPost(rec: PostRecord): Promise<void> {
    const key = postKey(rec.channelId, rec.callId);
    this.indexPost(key, rec);
    await this.posts.set(key, rec);
  }

  private indexPost(key: string, rec: PostRecord): void {
    if (rec.ts) this.byThreadTs.set(`${rec.channelId}/${rec.ts}`, key);
    if (rec.threadId && rec.ts) {
      let set = this.byServiceThread.get(rec.threadId);
      if (!set) this.byServiceThread.set(rec.threadId, (set = new Set()));
      set.add(key);
    }
  }

  async deletePost(rec: PostRecord): Promise<void> {
    const key = postKey(rec.channelId, rec.callId);
    if (rec.ts) this.byThreadTs.delete(`${rec.channelId}/${rec.ts}`);
    if (rec.threadId) this.byServiceThread.get(rec.threadId)?.delete(key);
    await this.posts.delete(key);
  }

  postByThreadTs(channelId: string, ts: string): PostRecord | undefined {
    const key = this.byThreadTs.get(`${channelId}/${ts}`);
    return key ? this.posts.get(key) : undefined;
  }

  postsOfServiceThread(threadId: string): PostRecord[] {
    const keys = this.byServiceThread.get(threadId);
    if (!keys) return [];
    return [...keys].map((k) => this.posts.get(k)).filter((p): p is PostRecord => p !== undefined);
  }

  serviceThreadIds(): string[] {
    return [...this.byServiceThread.keys()].filter((t) => (this.byServiceThread.get(t)?.size ?? 0) > 0);
  }

  channel(channelId: string): ChannelRecord {
    return this.channels.get(channelId) ?? { channelId, mode: 'normal', digestSeq: 0 };
  }
}
