/**
 * What watching remembers, as typed store collections. Nothing is held in memory as the source of truth: every read
 * goes to the store, so another replica's writes (a `watch` made through it, a thread mapping it rebuilt) are seen.
 * Lookups other than by key go through the collections' declared indexes or key prefixes (a campaign's calls by
 * `${campaignId}/`, a channel's posts and digests by `${channelId}/`).
 *
 * Durability rule: a record is written (and awaited) as soon as the Slack post it describes succeeded, and the
 * poll cursor only moves after the calls it covers are recorded; so a restart resumes from exactly what is stored.
 *
 * Retention: records that describe ended calls expire `retentionMs` after their last write (a call `retentionMs`
 * after it became final), handled Slack event ids after `eventTtlMs`. The poller's housekeeping deletes what an older
 * state holds without an expiry (poller.ts).
 */
import type { CampaignCallItem, Schedule } from '../outreach/schemas.js';
import type { DigestLine } from '../render/call-message.js';
import type { WatchFilter, WatchFormat } from './filter.js';
import type { Collection, CollectionSpec, Store, WriteOptions } from '../store/store.js';

/** A collection's spec, carrying in its type (only) the type of the collection's records. */
type Spec<T> = CollectionSpec & { readonly records?: T };
const spec = <T>(name: string, indexes?: readonly string[]): Spec<T> => (indexes ? { name, indexes } : { name });

/** The watch's collections: each becomes a field of WatchState, typed by its records. */
const COLLECTIONS = {
  /** Key `${campaignId}/${channelId}`: a campaign's watches in one unit; listed by channel too. */
  subscriptions: spec<Subscription>('watch_subscriptions', ['channelId']),
  /** Key campaign id. */
  cursors: spec<CampaignCursor>('watch_cursors'),
  /** Key `${campaignId}/${callId}`: a campaign's open calls are `where: { final: false }` under its prefix. */
  calls: spec<CallRecord>('watch_calls', ['final']),
  /**
   * Key `${channelId}/${callId}`: found by (channel prefix, `ts`) for thread replies, by `threadId` for answers, by
   * `sending` for replies from Slack marked and not yet recorded (conversation.ts).
   */
  posts: spec<PostRecord>('watch_posts', ['ts', 'threadId', 'sending']),
  /** Key channel id. */
  channels: spec<ChannelRecord>('watch_channels'),
  /** Key `${channelId}/${seq}` (= the digest's id). */
  digests: spec<DigestRecord>('watch_digests'),
  /** Key Slack event id; expires after `eventTtlMs`. */
  events: spec<number>('watch_events'),
  /** Key Slack user id; found by `threadId` for answers, by `sending` as posts are. */
  tries: spec<TrySession>('watch_try', ['threadId', 'sending']),
  /** Key campaign id. */
  whatsapp: spec<WhatsAppRecord>('watch_whatsapp'),
  /** Key `${channelId}/wa/${campaignId}[/${contact}/${status}]`. */
  waPosts: spec<WhatsAppPost>('watch_whatsapp_posts'),
  /**
   * Key `${channelId}/${callId}`: a call thread whose end user waits for a person's reply (attention.ts). Only the
   * unanswered conversations: a small collection, listed whole after each poll cycle and for the Home tab.
   */
  waiting: spec<WaitingRecord>('watch_waiting'),
  /** Key campaign id: the campaign's status, schedule and zone as last read (attention.ts). */
  campaignFacts: spec<CampaignFacts>('watch_campaign_facts'),
  /**
   * Key channel id: a channel whose last watch was removed, until the poller has let its records go (poller.ts).
   * Only those: a small collection, listed whole after each poll cycle.
   */
  unwatchedChannels: spec<UnwatchedChannel>('watch_unwatched_channels'),
};

/** Each collection of COLLECTIONS opened, by its field. */
type WatchCollections = {
  readonly [K in keyof typeof COLLECTIONS]: (typeof COLLECTIONS)[K] extends Spec<infer T> ? Collection<T> : never;
};

/** The base of WatchState: it opens every collection of COLLECTIONS in the store as the field of its name. */
const WithCollections = class {
  constructor(store: Store) {
    for (const [field, s] of Object.entries(COLLECTIONS)) Object.assign(this, { [field]: store.collection(s) });
  }
} as new (store: Store) => WatchCollections;

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
  /** The campaign's timezone when the watch was set (times in the channel are shown in it). */
  campaignTimezone?: string;
  kind: ChannelKind;
  /** How calls are shown here: the card (absent: `detailed`, as before) or one line per call (filter.ts). */
  format?: WatchFormat;
  /** Which calls are shown here (absent: every call, as before; filter.ts). */
  filter?: WatchFilter;
  /**
   * Set while the watch is stopped: Slack refused the channel (resumes by itself when the channel is reachable
   * again, or when someone watches again), or the service no longer has the campaign (`campaign_not_found`).
   */
  suspended?: { error: string; at: string };
  /** The last suspension its owner was told about by DM (the same one is not told twice within a day). */
  lastNotice?: { error: string; at: string };
  /** Minutes an end user's message may wait for a person's reply before one reminder is posted (default 15). */
  reminderMinutes?: number;
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
  /** The service's `ended_at` (kept after the snapshot is let go: an end user writing after it is not the transcript). */
  endedAt?: string;
  /** The latest data, kept until every channel shows it and the call is final. */
  snapshot?: CampaignCallItem;
  /**
   * The poll (its clock, ms) that stored this fingerprint and then placed its messages (or told them of the change).
   * That poll's cursor (`lastPolledAt`) is written only after the placements are stored, so a cursor older than this
   * means a leader died in between: the next poll places them again as if the call had just changed. Clearing a mark
   * this way costs no second write of the call.
   */
  placingAt?: number;
}

/** Where a conversation stands in one Slack thread (or DM): conversation.ts is the one module that changes it. */
export interface ConversationCursor {
  /** How many of the service thread's messages (GET /message, oldest first) are accounted for. */
  count: number;
  /** Key of the last accounted message, to find our place if the list ever changes. */
  lastKey?: string;
  /**
   * Keys (conversation.ts `messageKey`) of the service's messages already in Slack without being counted yet: what
   * the service made of a reply sent from here (its `in_response_to`). Removed once counted.
   */
  accounted: string[];
  /** Our clock (ms) of the last new message or reply; the thread is let go after the idle time. */
  lastActivityAt: number;
  introPosted?: boolean;
  /**
   * A message of this thread (`key`: its messageKey, or `intro`) was about to be posted at `since` (epoch ms), and
   * its posting was not recorded yet: whoever posts next first looks for it in Slack (delivery.ts `postOnce`).
   */
  posting?: { key: string; since: number };
  /** Replies from Slack marked before their POST /message and not recorded yet (relay: mark, act, record). */
  sends?: PendingSend[];
  /** The latest replies from Slack handled here (sent or failed), newest last: a redelivered event is not sent again. */
  relayed?: RelayedReply[];
}

/**
 * A person's reply from Slack on its way to the service (POST /message), marked before the request. The service
 * records the text as an end-user (`EU`) message: until this send is answered, the conversation's next message with
 * this text sent about `at` may be its echo and waits (conversation.ts `nextStep`). Whoever finds the mark after the
 * sender died looks the echo up before sending again with the same Idempotency-Key (reply-send.ts).
 */
export interface PendingSend {
  /** The Slack message (its ts in `channelId`): one mark per message; ✅ or ❌ goes on it. */
  ts: string;
  channelId: string;
  /** Who wrote it (the audit). */
  userId: string;
  /** The text as sent (held only until the send is recorded, to send it again after a death). */
  content: string;
  /** The POST /message's `Idempotency-Key` (a UUID), the same on every attempt. */
  idempotencyKey: string;
  agentId: string;
  endUserId: string;
  /** The service thread when known before the send (where its echo is looked up). */
  threadId?: string;
  /** Marked at (the system's clock, ms: the service's clock is compared with it). */
  at: number;
  /** A finder of the mark took it over at (the system's clock, ms): others leave it until it is old again. */
  attemptAt?: number;
  /**
   * The service took it (`key`: the message it made, when it said). Only the reaction, the audit and the unmarking
   * are left.
   */
  taken?: { key?: string };
}

/** A reply from Slack handled in a conversation: its Slack ts, and the key of what the service made of it (if sent). */
export interface RelayedReply {
  ts: string;
  key?: string;
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
  /** Its post was under way at this time (epoch ms) and its `ts` not recorded yet (delivery.ts `postOnce`). */
  postingSince?: number;
  /** Or the burst digest that lists it. */
  digestId?: string;
  /** Its channel was in digest mode when it came, still running: listed in a digest once it is final. */
  awaitsDigest?: boolean;
  /** Fingerprint shown in Slack. */
  deliveredFp?: string;
  /** Hash of the message last written (a compact line unchanged by a new fingerprint is not written again). */
  shownHash?: string;
  conv?: ConversationCursor;
  /** Cached from the service thread, for relaying replies. */
  agentId?: string;
  endUserId?: string;
  endUserName?: string;
  /** Re-created from the Slack message's metadata after it was let go: the conversation cursor starts at "now". */
  rebuilt?: boolean;
  /** The assignee was mentioned in the current turn (reset when the agent or a person answers: attention.ts). */
  turnMentioned?: boolean;
  /** Set while `conv.sends` holds a reply from Slack not yet recorded (indexed: the leader finds them after a death). */
  sending?: true;
}

/**
 * An end user's message in a call thread that no person has answered in Slack yet. Key: `${channelId}/${callId}`.
 * Written when the first unanswered end-user message is posted, deleted when a person replies or writes a note.
 */
export interface WaitingRecord {
  channelId: string;
  campaignId: number;
  callId: string;
  /** The service thread (its assignee is looked up when the reminder goes out, even if the post was let go). */
  threadId?: string;
  /** The call message (the thread's parent). */
  threadTs: string;
  /** The app's clock (ms) when the end user's first unanswered message was posted. */
  since: number;
  /** Key of that message (conversation.ts `messageKey`). */
  messageKey: string;
  endUserName?: string;
  /** Link to the thread (chat.getPermalink), when Slack gave one. */
  link?: string;
  /** The one reminder was posted (the app's clock, ms). */
  remindedAt?: number;
  /** Its post was under way at this time (epoch ms), not recorded yet: looked up in Slack before posting again. */
  remindingSince?: number;
}

/** A watched campaign's facts as last read (GET /campaigns/{id}). Key: campaign id. */
export interface CampaignFacts {
  campaignId: number;
  status?: string;
  /** The weekly schedule (`scheduling`) and the zone it is in. */
  scheduling?: Schedule;
  timezone?: string;
  /** The app's clock (ms) of the last read. */
  checkedAt: number;
  /** Someone paused it from Slack (the app's clock, ms): the next `inactive` is theirs, not the service's. */
  pausedFromSlackAt?: number;
  /** The watches' owners were last told the plan limit was reached (the app's clock, ms). */
  billingToldAt?: number;
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
  /** Its post was under way at this time (epoch ms) and its `ts` not recorded yet (delivery.ts `postOnce`). */
  postingSince?: number;
  /** Our clock (ms) of the last change of its lines (older states lack it). */
  updatedAt?: number;
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
  /** As a post's `sending`. */
  sending?: true;
}

/** A channel whose last watch was removed (`/campaign unwatch`): its records are let go. Key: channel id. */
interface UnwatchedChannel {
  channelId: string;
  /** Our clock (ms) when its last watch was removed. */
  at: number;
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
  /** Its post was under way at this time (epoch ms) and its `ts` not recorded yet (delivery.ts `postOnce`). */
  postingSince?: number;
  /** Fingerprint of what `payload` renders (a hash of the counts; `contact` for a contact's message). */
  fp: string;
  deliveredFp?: string;
  /** Our clock (ms) when the record was written (older states lack it). */
  at?: number;
  /** What to render (contact messages are posted once, the digest is updated in place). */
  payload: { kind: 'digest'; counts: Record<string, number>; at: string } | { kind: 'contact'; contact: unknown };
}

export const subKey = (campaignId: number, channelId: string) => `${campaignId}/${channelId}`;
export const callKey = (campaignId: number, callId: string) => `${campaignId}/${callId}`;
export const postKey = (channelId: string, callId: string) => `${channelId}/${callId}`;

/** How many times a conditional update is tried again when the record keeps changing under it. */
const MAX_UPDATE_TRIES = 50;

/**
 * Reads a record, applies `fn` and writes the result only if nobody wrote the record in between (compare-and-set),
 * trying again otherwise: for records more than one writer changes (a post's conversation cursor: the delivery worker
 * and a relayed reply, possibly in another replica). `fn` returns undefined to leave the record as it is. Returns
 * the record as written (or as found), undefined when there is none.
 */
async function updateRecord<T>(
  c: Collection<T>,
  key: string,
  fn: (cur: T) => T | undefined,
  opts: (next: T) => WriteOptions = () => ({}),
): Promise<T | undefined> {
  for (let i = 0; i < MAX_UPDATE_TRIES; i++) {
    const cur = await c.getVersioned(key);
    if (!cur) return undefined;
    const next = fn(cur.value);
    if (next === undefined) return cur.value;
    if (await c.compareAndSet(key, cur.version, next, opts(next))) return next;
  }
  throw new Error(`${c.name}/${key} kept changing while it was being updated`);
}

export interface WatchStateOptions {
  /** Records of ended calls (calls, posts, digests, WhatsApp posts and counts) are kept this long. */
  retentionMs: number;
  /** Handled Slack event ids are remembered this long (Slack retries within minutes). */
  eventTtlMs: number;
  now?: () => number;
}

export class WatchState extends WithCollections {
  readonly retentionMs: number;
  private readonly eventTtlMs: number;
  private readonly now: () => number;

  constructor(
    readonly store: Store,
    opts: WatchStateOptions,
  ) {
    super(store);
    this.retentionMs = opts.retentionMs;
    this.eventTtlMs = opts.eventTtlMs;
    this.now = opts.now ?? Date.now;
  }

  /** Kept `retentionMs` from now (each write moves it on). */
  private kept(): WriteOptions {
    return { expiresAt: this.now() + this.retentionMs };
  }

  // ---- subscriptions (one per watching channel and campaign: a small collection)
  async allSubscriptions(): Promise<Subscription[]> {
    return (await this.subscriptions.list()).map(([, s]) => s);
  }

  async activeSubscriptions(campaignId?: number): Promise<Subscription[]> {
    const all = await this.subscriptions.list(campaignId === undefined ? {} : { prefix: `${campaignId}/` });
    return all.map(([, s]) => s).filter((s) => !s.suspended);
  }

  /** Every watch set in a channel (suspended ones too). */
  async subscriptionsIn(channelId: string): Promise<Subscription[]> {
    return (await this.subscriptions.list({ where: { channelId } })).map(([, s]) => s);
  }

  /** Whether a campaign is watched (not suspended) in this channel. */
  async watchedChannel(channelId: string): Promise<boolean> {
    return (await this.subscriptionsIn(channelId)).some((s) => !s.suspended);
  }

  async putSubscription(sub: Subscription): Promise<void> {
    await this.subscriptions.put(subKey(sub.campaignId, sub.channelId), sub);
  }

  /** The name a campaign's watches know it by. */
  async campaignName(campaignId: number): Promise<string | undefined> {
    const subs = await this.subscriptions.list({ prefix: `${campaignId}/` });
    return subs.find(([, s]) => s.campaignName)?.[1].campaignName;
  }

  // ---- cursors
  async cursor(campaignId: number): Promise<CampaignCursor | undefined> {
    return this.cursors.get(String(campaignId));
  }

  /** Written every poll of a watched campaign: an unwatched campaign's cursor expires after the retention. */
  async putCursor(cur: CampaignCursor): Promise<void> {
    await this.cursors.put(String(cur.campaignId), cur, this.kept());
  }

  // ---- calls
  /** A final call expires `retentionMs` after it became final; an open one `retentionMs` after its last change. */
  async putCall(rec: CallRecord): Promise<void> {
    const base = rec.final ? (rec.finalAt ?? this.now()) : this.now();
    await this.calls.put(callKey(rec.campaignId, rec.callId), rec, { expiresAt: base + this.retentionMs });
  }

  call(campaignId: number, callId: string): Promise<CallRecord | undefined> {
    return this.calls.get(callKey(campaignId, callId));
  }

  /** A campaign's calls (ended calls are let go soon after they left the listing window: a small list). */
  async callsOf(campaignId: number): Promise<CallRecord[]> {
    return (await this.calls.list({ prefix: `${campaignId}/` })).map(([, c]) => c);
  }

  async openCallsOf(campaignId: number): Promise<CallRecord[]> {
    return (await this.calls.list({ prefix: `${campaignId}/`, where: { final: false } })).map(([, c]) => c);
  }

  async deleteCall(rec: Pick<CallRecord, 'campaignId' | 'callId'>): Promise<void> {
    await this.calls.delete(callKey(rec.campaignId, rec.callId));
  }

  // ---- posts
  /** Each write keeps the post `retentionMs` longer (a post's last write is at or after its call's end). */
  async putPost(rec: PostRecord): Promise<void> {
    await this.posts.put(postKey(rec.channelId, rec.callId), rec, this.kept());
  }

  /** Writes a post only if none is stored under its key (a mapping rebuilt while another writer may create it). */
  insertPost(rec: PostRecord): Promise<boolean> {
    return this.posts.insertIfAbsent(postKey(rec.channelId, rec.callId), rec, this.kept());
  }

  post(channelId: string, callId: string): Promise<PostRecord | undefined> {
    return this.posts.get(postKey(channelId, callId));
  }

  /** Changes a post unless someone else wrote it in between (then reads it again); undefined when there is none. */
  updatePost(channelId: string, callId: string, fn: (cur: PostRecord) => PostRecord | undefined) {
    return updateRecord(this.posts, postKey(channelId, callId), fn, () => this.kept());
  }

  async deletePost(rec: Pick<PostRecord, 'channelId' | 'callId'>): Promise<void> {
    await this.posts.delete(postKey(rec.channelId, rec.callId));
  }

  /** A channel's posts (let go once settled and idle: a small list). */
  async postsIn(channelId: string): Promise<PostRecord[]> {
    return (await this.posts.list({ prefix: `${channelId}/` })).map(([, p]) => p);
  }

  async postByThreadTs(channelId: string, ts: string): Promise<PostRecord | undefined> {
    return (await this.posts.list({ prefix: `${channelId}/`, where: { ts }, limit: 1 }))[0]?.[1];
  }

  /** The posts mirroring a service thread (those with a message in Slack). */
  async postsOfServiceThread(threadId: string): Promise<PostRecord[]> {
    return (await this.posts.list({ where: { threadId } })).map(([, p]) => p).filter((p) => p.ts !== undefined);
  }

  // ---- channels and digests
  async channel(channelId: string): Promise<ChannelRecord> {
    return (await this.channels.get(channelId)) ?? { channelId, mode: 'normal', digestSeq: 0 };
  }

  async putDigest(rec: DigestRecord): Promise<void> {
    await this.digests.put(rec.id, rec, this.kept());
  }

  updateDigest(id: string, fn: (cur: DigestRecord) => DigestRecord | undefined) {
    return updateRecord(this.digests, id, fn, () => this.kept());
  }

  // ---- waiting end users and campaign facts (attention.ts)
  /** Changes a waiting record unless someone else wrote it in between; undefined when there is none. */
  updateWaiting(key: string, fn: (cur: WaitingRecord) => WaitingRecord | undefined) {
    return updateRecord(this.waiting, key, fn, () => this.kept());
  }

  updateCampaignFacts(campaignId: number, fn: (cur: CampaignFacts) => CampaignFacts | undefined) {
    return updateRecord(this.campaignFacts, String(campaignId), fn, () => this.kept());
  }

  // ---- tries
  updateTry(userId: string, fn: (cur: TrySession) => TrySession | undefined) {
    return updateRecord(this.tries, userId, fn);
  }

  /** The try sessions talking in a service thread. */
  async triesOfServiceThread(threadId: string): Promise<TrySession[]> {
    return (await this.tries.list({ where: { threadId } })).map(([, t]) => t);
  }

  // ---- WhatsApp
  async putWaPost(key: string, rec: WhatsAppPost): Promise<void> {
    await this.waPosts.put(key, { ...rec, at: this.now() }, this.kept());
  }

  updateWaPost(key: string, fn: (cur: WhatsAppPost) => WhatsAppPost | undefined) {
    return updateRecord(this.waPosts, key, fn, () => this.kept());
  }

  /** Written every poll of a watched WhatsApp campaign: an unwatched one's counts expire after the retention. */
  async putWhatsApp(rec: WhatsAppRecord): Promise<void> {
    await this.whatsapp.put(String(rec.campaignId), rec, this.kept());
  }

  // ---- Slack events
  /**
   * Claims a Slack event id: true for exactly one caller, in this process or any other replica; false for a
   * redelivery (Slack's retry, or the same event at another replica). Remembered for `eventTtlMs`.
   */
  async claimEvent(eventId: string): Promise<boolean> {
    const now = this.now();
    return this.events.insertIfAbsent(eventId, now, { expiresAt: now + this.eventTtlMs });
  }
}
