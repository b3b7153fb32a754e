// A fake Slack Web API for integration tests: plain node:http on 127.0.0.1, spoken to by the real @slack/web-api
// WebClient through `slackApiUrl: fake.apiUrl`. It keeps the workspace's state (messages, threads, views, files),
// rejects what real Slack rejects (auth, Block Kit limits, trigger ids, hashes, rate limits) and records every call.
// Socket Mode: apps.connections.open with the app-level token, and the WebSocket endpoint in fake-slack-socket.ts.
// Facts it follows: docs/slack-platform-notes.md §1-§6 (rate limits: §4, opt-in with tierLimits).

import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { LIMITS, validateBlocks, validateView, viewByteLength } from './block-kit-limits.js';
import { payloadProblems, reportRawMentions, type MentionScope, type RawMention } from './raw-mentions.js';
import { FakeSocketMode } from './fake-slack-socket.js';
import { harnessNow, harnessSeq, nextHarnessSeq, type Json } from './harness.js';

export type { Json } from './harness.js';

// ---------------------------------------------------------------------------------------------------------------
// Public types

export interface FakeChannelInit {
  id: string;
  name?: string;
  isPrivate?: boolean;
  isArchived?: boolean;
  /** Whether the bot is in the channel. Default true. */
  isMember?: boolean;
  /** A Slack Connect channel: shared with people of another organization. Default false. */
  isExtShared?: boolean;
  /** The people in the channel (the bot's own membership is `isMember`). Default: nobody. */
  members?: string[];
}

export interface FakeChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  isMember: boolean;
  isIm: boolean;
  isExtShared?: boolean;
  /** The people in the channel (users.conversations); the bot's own membership is `isMember`. */
  members?: string[];
  /** For DM channels: the other user. */
  user?: string;
  created: number;
}

export interface FakeUserInit {
  id: string;
  name?: string;
  realName?: string;
  displayName?: string;
  email?: string;
  tz?: string;
  tzOffset?: number;
  /** The person's Slack language, e.g. `es-MX` (users.info returns it only with `include_locale`). Default `en-US`. */
  locale?: string;
  isBot?: boolean;
  deleted?: boolean;
  /** The person's own team: another organization's for a Slack Connect member. Default: the fake's team. */
  teamId?: string;
  /** Guests: multi-channel (`is_restricted`) and single-channel (`is_ultra_restricted`). */
  isRestricted?: boolean;
  isUltraRestricted?: boolean;
}

export interface PostMessageRateLimit {
  /** Sustained messages per second per channel. Default 1. */
  perSecond: number;
  /** Messages allowed at once before the sustained rate applies. Default 3. */
  burst: number;
  /** Retry-After header value in whole seconds. Default 1 (0 only for fast tests; real Slack never sends 0). */
  retryAfterSec: number;
}

/**
 * Slack's per-method limits for the workspace (docs/slack-platform-notes.md §4: "per API method per app per
 * workspace"). Calls per minute; a method not listed is not limited. Tier 2 = 20, Tier 3 = 50, Tier 4 = 100 ("20+",
 * "50+", "100+": the floor is used).
 *
 * The same figures as the app's budget (src/slack/method-budget.ts), written twice on purpose: the emulator is
 * Slack's side and must not share the app's belief about Slack. Were it to import the app's table, a wrong figure there
 * would be Slack's figure here too, and no test could catch the app sending more than Slack takes.
 */
const SLACK_TIER_PER_MINUTE: Readonly<Record<string, number>> = Object.freeze({
  // Special: ~1/s per channel (postMessageRateLimit) plus a workspace-wide cap of "several hundred" a minute; the
  // notes give no number, so the smallest reading of "several hundred" is taken.
  'chat.postMessage': 300,
  'chat.update': 50,
  'chat.delete': 50,
  'chat.postEphemeral': 100,
  // Special: "hundreds/min".
  'chat.getPermalink': 300,
  'auth.test': 300,
  'views.open': 100,
  'views.update': 100,
  'views.push': 100,
  'views.publish': 100,
  'conversations.history': 50,
  'conversations.replies': 50,
  'conversations.info': 50,
  'conversations.members': 100,
  'users.info': 100,
  'users.conversations': 50,
  'users.lookupByEmail': 50,
  'files.getUploadURLExternal': 100,
  'files.completeUploadExternal': 100,
  'files.info': 100,
  'files.list': 50,
  'files.delete': 50,
  // Not in the notes; from Slack's method pages: reactions.*, conversations.join/open Tier 3, usergroups Tier 2.
  'reactions.add': 50,
  'reactions.remove': 50,
  'conversations.join': 50,
  'conversations.open': 50,
  'usergroups.users.list': 20,
});

export interface TierLimits {
  /** Calls per minute per method for the whole workspace. Default SLACK_TIER_PER_MINUTE. */
  perMinute: Record<string, number>;
  /**
   * Time runs this many times faster (benches): each method's allowance holds per 60 s / timeScale, and the
   * per-channel chat.postMessage rate (unless given) is timeScale messages/s. Default 1.
   */
  timeScale: number;
}

/** What the fake counted for one method since the last reset. */
export interface MethodCount {
  calls: number;
  /** Of those, answered 429 by the fake's own limits (injected failures are not counted here). */
  ratelimited: number;
}

export interface FakeSlackOptions {
  /** The bot token the app uses. Default 'xoxb-test'. */
  botToken?: string;
  /** The app-level token (Socket Mode: apps.connections.open only). Default 'xapp-1-A0TEST-1-fake'. */
  appToken?: string;
  /** Further tokens accepted as the same bot. */
  extraTokens?: string[];
  teamId?: string;
  teamDomain?: string;
  appId?: string;
  botId?: string;
  botUserId?: string;
  channels?: FakeChannelInit[];
  users?: FakeUserInit[];
  /** usergroup id -> user ids */
  usergroups?: Record<string, string[]>;
  /**
   * false (default): unknown C…/G… channels and U…/W… users are created on first use (public channel the bot is
   * in / plain user). true: unknown ids give channel_not_found / user_not_found, and chat.postMessage with a
   * thread_ts of no stored message gives thread_not_found.
   */
  strict?: boolean;
  /** Lifetime of a trigger_id. Default 3000 ms. */
  triggerTtlMs?: number;
  /** Lifetime of a response_url. Default 30 min. */
  responseUrlTtlMs?: number;
  /** Uses of a response_url. Default 5. */
  responseUrlMaxUses?: number;
  /** Per-channel chat.postMessage rate limit; off unless given (true = defaults), or on with tierLimits. */
  postMessageRateLimit?: boolean | Partial<PostMessageRateLimit>;
  /**
   * Slack's per-method limits for the workspace (a sliding window of one minute per method: at most `perMinute`
   * calls accepted in any 60 s), answered like Slack with 429 + Retry-After (the seconds until the window has
   * room). Also turns the per-channel chat.postMessage limit on unless postMessageRateLimit says otherwise.
   * Off unless given (true = SLACK_TIER_PER_MINUTE at real time).
   */
  tierLimits?: boolean | Partial<TierLimits>;
  /** Delay added before every API answer. Default 0. */
  latencyMs?: number;
  /** Scopes reported in `x-oauth-scopes` on every Web API answer, as Slack does; default: none reported. */
  scopes?: string[];
  /**
   * Report every raw `<…>` sequence from outside text in what the app sends (raw-mentions.ts), failing the test
   * through the jest setup file. Default true; false only for tests of the fake itself; 'notify': only as a refusal
   * to onChange's watchers (the playground), never to the process-wide list.
   */
  checkRawMentions?: boolean | 'notify';
  /**
   * A long-running emulator (the playground): only the last `keepCalls` recorded calls are kept, and trigger ids,
   * response_urls and ephemerals past their use are forgotten. Default: everything is kept (tests look back).
   */
  keepCalls?: number;
}

/**
 * What changed in the workspace, for a watcher of the emulator (the playground streams it to its page): a message
 * posted, updated (text, blocks, reactions, replies, files) or deleted; an ephemeral message shown (or replaced) for
 * one person; a view opened, pushed, updated or published, or closed; a channel changed (the bot joined); and every
 * refusal: a call Slack answered with an error, or outside text sent as a live mention.
 */
export type EmulatorChange =
  | { kind: 'message'; channel: string; ts: string }
  | { kind: 'message_deleted'; channel: string; ts: string }
  | { kind: 'ephemeral'; ephemeral: FakeEphemeral }
  | { kind: 'view'; viewId: string }
  | { kind: 'view_closed'; viewId: string }
  | { kind: 'channel'; channel: string }
  | { kind: 'refusal'; refusal: EmulatorRefusal };

/** A refusal named by method and JSON path, as Slack's own `[json-pointer:/blocks/3/text/text]` names it. */
interface EmulatorRefusal {
  method: string;
  error: string;
  /** `blocks[3].text.text`, when Slack names a part. */
  path?: string;
  /** What is wrong there, in Slack's words. */
  detail?: string;
}

/** An injected failure. A string is a platform error (HTTP 200, `{ok:false, error}`). */
export type FakeFailure =
  | string
  | {
      /** Platform error code (HTTP 200 unless status given). For status 429 defaults to 'ratelimited'. */
      error?: string;
      /** HTTP status to answer with (e.g. 429, 500, 503). */
      status?: number;
      /** Retry-After header (seconds); defaults to 1 for status 429. */
      retryAfter?: number;
      /** Raw response body (for non-JSON failures such as an HTML 503 page). */
      body?: string;
      /** Wait this long before answering (or dropping). Given alone: a slow but normal answer. */
      delayMs?: number;
      /** Close the connection without any answer (the client sees a network error). */
      dropConnection?: boolean;
      /**
       * Carry out the call first (state changes, e.g. the message IS posted), then answer with the failure:
       * the "request succeeded but the response was lost" case.
       */
      afterApply?: boolean;
      /** Only calls naming this channel (`channel` argument) fail; calls for other channels pass untouched. */
      channel?: string;
      /** missing_scope: the scope Slack says the call needs (its `needed` field). */
      needed?: string;
    };

/** A request held before it is carried out (FakeSlack.holdRequest). */
interface RequestHold {
  method: string;
  channel?: string;
  match?: (args: Json) => boolean;
  received(args: Json): void;
  dropped(): void;
  outcome: Promise<{ fail?: FakeFailure }>;
}

export interface FakeCall {
  /** Harness sequence number taken when the request arrived (comparable with a driver ack's seq). */
  seq: number;
  /** When the request arrived (harnessNow()). */
  at: number;
  /** API method, or 'upload' (POST to an upload_url), 'download' (GET of a file), 'response_url'. */
  method: string;
  args: Json;
  token?: string;
  status: number;
  ok: boolean;
  error?: string;
  response: unknown;
  injected?: FakeFailure;
}

export interface FakeMessage {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
  user: string;
  team: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: { event_type: string; event_payload: Json };
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  reply_users_count?: number;
  latest_reply?: string;
  parent_user_id?: string;
  bot_id?: string;
  app_id?: string;
  bot_profile?: Json;
  subtype?: string;
  edited?: { user: string; ts: string };
  reactions?: { name: string; users: string[]; count: number }[];
  files?: Json[];
  upload?: boolean;
  reply_broadcast?: boolean;
  client_msg_id?: string;
  /** How many times chat.update changed this message. */
  updates: number;
}

export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  message_ts: string;
  via: 'chat.postEphemeral' | 'response_url';
}

export interface FakeFileInit {
  name: string;
  content: Buffer | string;
  title?: string;
  mimetype?: string;
  filetype?: string;
  /** Uploader. Default 'U_UPLOADER'. */
  userId?: string;
  /**
   * A remote or external file (files.remote.add, Google Drive, …): files.info says `mode: "external"`,
   * `is_external: true`, and its url_private / url_private_download are this URL, which can point anywhere.
   */
  externalUrl?: string;
  /** The url_private_download files.info gives instead of the fake's own (to test where the token may go). */
  downloadUrl?: string;
}

/** The file object Slack returns (files.info, view_submission file_input values). */
export type FakeFileObject = Json & {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  url_private: string;
  url_private_download: string;
};

export interface FakeUploadedFile {
  id: string;
  name: string;
  title: string;
  bytes: Buffer;
  declaredLength: number;
  channel?: string;
  threadTs?: string;
  initialComment?: string;
  /** ts of the message that shared the file, when shared to a channel. */
  messageTs?: string;
  /** The description of an image given to files.getUploadURLExternal (`alt_txt`, or `alt_text` as web-api sends it). */
  altText?: string;
}

export interface FakeResponseUrlUse {
  id: string;
  url: string;
  at: number;
  status: number;
  body: Json;
  error?: string;
  /** What Slack found wrong in the body's blocks. */
  problems?: string[];
}

interface StoredMessage extends FakeMessage {
  deleted: boolean;
}

interface StoredView {
  view: Json;
  userId: string;
  open: boolean;
}

interface StoredFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  user: string;
  created: number;
  bytes: Buffer | undefined;
  declaredLength: number;
  channels: string[];
  threadTs?: string;
  initialComment?: string;
  messageTs?: string;
  altText?: string;
  /** Registered by the test (addFile) or completed by files.completeUploadExternal. */
  visible: boolean;
  uploadId?: string;
  externalUrl?: string;
  downloadUrl?: string;
}

interface Trigger {
  issuedAt: number;
  userId: string;
  used: boolean;
}

interface ResponseUrl {
  id: string;
  issuedAt: number;
  uses: number;
  channelId?: string;
  userId?: string;
  messageTs?: string;
  /** The ephemeral message it belongs to (a click in one): replace_original replaces it. */
  ephemeralTs?: string;
}

class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Json = {},
  ) {
    super(code);
  }
}

type Handler = (args: Json, token: string) => Json | Promise<Json>;
/** What is known of a call when it arrives; its answer completes its record (FakeCall). */
type CallHead = Pick<FakeCall, 'seq' | 'at' | 'method' | 'args' | 'token'>;

/** Slack's answer to a missing or malformed argument: invalid_arguments, the problem in response_metadata. */
function invalidArguments(problem: string): ApiError {
  return new ApiError('invalid_arguments', { response_metadata: { messages: [`[ERROR] ${problem}`] } });
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'files', 'file_uploads', 'user_auth_blocks']);

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true' || v === '1' || v === 1;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function randomId(prefix: string, len = 10): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(len);
  let s = prefix;
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return s;
}

function isPureDelay(f: FakeFailure): f is { delayMs: number } {
  return (
    typeof f !== 'string' &&
    f.delayMs !== undefined &&
    f.error === undefined &&
    f.status === undefined &&
    f.body === undefined &&
    !f.dropConnection
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Whether a message's ts is within a history call's `oldest`/`latest` (`inclusive` or not), as Slack reads them. */
function inWindow(args: Json): (ts: string) => boolean {
  const oldest = str(args.oldest);
  const latest = str(args.latest);
  const inclusive = truthy(args.inclusive);
  return (ts) => {
    const t = tsToMicros(ts);
    if (oldest && (inclusive ? t < tsToMicros(oldest) : t <= tsToMicros(oldest))) return false;
    if (latest && (inclusive ? t > tsToMicros(latest) : t >= tsToMicros(latest))) return false;
    return true;
  };
}

function tsToMicros(ts: string): number {
  const [s, f = '0'] = ts.split('.');
  return Number(s) * 1e6 + Number(f.padEnd(6, '0').slice(0, 6));
}

const MIME_BY_EXT: Record<string, [string, string]> = {
  csv: ['text/csv', 'csv'],
  tsv: ['text/tab-separated-values', 'tsv'],
  txt: ['text/plain', 'text'],
  json: ['application/json', 'json'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  xls: ['application/vnd.ms-excel', 'xls'],
  pdf: ['application/pdf', 'pdf'],
  png: ['image/png', 'png'],
};

function mimeFor(name: string): [string, string] {
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return MIME_BY_EXT[ext] ?? ['application/octet-stream', ext || 'binary'];
}

/** What a long-running emulator (keepCalls) keeps: each channel's newest messages, and the views not closed long ago. */
const KEPT_MESSAGES = 5000;
const KEPT_VIEWS = 2000;

/** `/blocks/3/text/text` (a JSON pointer) as `blocks[3].text.text`. */
function jsonPath(pointer: string): string {
  return pointer
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const LOGIN_PAGE = `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>Slack</title></head>
<body><h1>Sign in to your workspace</h1><form action="/signin" method="post"><input name="email" type="email">
<button type="submit">Sign In</button></form></body></html>`;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Decodes a Web API request body the way Slack does: form, JSON or multipart. */
async function parseArgs(req: IncomingMessage, raw: Buffer, query: URLSearchParams): Promise<Json> {
  const args: Json = {};
  for (const [k, v] of query) args[k] = v;
  const ct = (req.headers['content-type'] ?? '').toLowerCase();
  const decodeField = (k: string, v: string) => {
    if (JSON_FIELDS.has(k) && /^\s*[[{]/.test(v)) {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v; // left as a string: the method reports it as malformed
      }
    }
    return v;
  };
  if (raw.length === 0) return args;
  if (ct.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new ApiError('invalid_json');
    }
    if (!isObj(parsed)) throw new ApiError('json_not_object');
    Object.assign(args, parsed);
  } else if (ct.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': ct } }).formData();
    for (const [k, v] of form) {
      if (typeof v === 'string') args[k] = decodeField(k, v);
      else args[k] = Buffer.from(await v.arrayBuffer());
    }
  } else if (ct.startsWith('application/x-www-form-urlencoded') || ct === '') {
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) args[k] = decodeField(k, v);
  } else {
    throw new ApiError('invalid_post_type');
  }
  return args;
}

// ---------------------------------------------------------------------------------------------------------------

export class FakeSlack {
  readonly botToken: string;
  readonly appToken: string;
  /** The Socket Mode endpoint (WebSocket on this server; URLs from apps.connections.open). */
  readonly socket: FakeSocketMode;
  readonly teamId: string;
  readonly teamDomain: string;
  readonly appId: string;
  readonly botId: string;
  readonly botUserId: string;
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** http://127.0.0.1:PORT/api/ — give this to WebClient / Bolt as slackApiUrl. */
  readonly apiUrl: string;

  private readonly opts: FakeSlackOptions;
  private readonly server: Server;
  private readonly emitter = new EventEmitter();
  private readonly handlers: Record<string, Handler>;

  private tokens = new Set<string>();
  private revoked = new Set<string>();
  private scopes: string[] | undefined;
  private callLog: FakeCall[] = [];
  private failures: { method: string; failure: FakeFailure; remaining: number }[] = [];
  private holds: { method: string; channel?: string; applied: (args: Json) => void; gate: Promise<void> }[] = [];
  private requestHolds: RequestHold[] = [];
  private channelsById = new Map<string, FakeChannel>();
  private deletedChannels = new Set<string>();
  private usersById = new Map<string, Json>();
  private usergroupMembers = new Map<string, string[]>();
  private dmByUser = new Map<string, string>();
  private messagesByChannel = new Map<string, StoredMessage[]>();
  private ephemeralList: FakeEphemeral[] = [];
  private viewsById = new Map<string, StoredView>();
  private modalStacks = new Map<string, string[]>();
  private homeViewIdByUser = new Map<string, string>();
  private triggers = new Map<string, Trigger>();
  private responseUrls = new Map<string, ResponseUrl>();
  private responseUses: FakeResponseUrlUse[] = [];
  private filesById = new Map<string, StoredFile>();
  private uploadsById = new Map<string, string>(); // upload id -> file id
  private rateLimit: PostMessageRateLimit | undefined;
  private buckets = new Map<string, { tokens: number; last: number }>();
  private tiers: TierLimits | undefined;
  /** Per method: when each call the tier window accepted arrived (ms), oldest first. */
  private tierWindows = new Map<string, number[]>();
  private methodCounts = new Map<string, MethodCount>();
  private lastTsMicros = 0;
  private counter = 0;
  /** Ids the app may mention on purpose besides the workspace's users/channels/groups (config, request senders). */
  private mentionable = new Set<string>();
  private rawMentionLog: RawMention[] = [];
  private readonly watchers = new Set<(change: EmulatorChange) => void>();

  private constructor(server: Server, port: number, opts: FakeSlackOptions) {
    this.opts = opts;
    this.server = server;
    this.botToken = opts.botToken ?? 'xoxb-test';
    this.appToken = opts.appToken ?? 'xapp-1-A0TEST-1-fake';
    this.teamId = opts.teamId ?? 'T0TEST';
    this.teamDomain = opts.teamDomain ?? 'fake-team';
    this.appId = opts.appId ?? 'A0TEST';
    this.botId = opts.botId ?? 'B0BOT';
    this.botUserId = opts.botUserId ?? 'U0BOT';
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.apiUrl = `${this.baseUrl}/api/`;
    this.emitter.setMaxListeners(1000);
    this.handlers = this.buildHandlers();
    this.socket = new FakeSocketMode({
      wsBaseUrl: `ws://127.0.0.1:${port}`,
      appId: this.appId,
      changed: () => this.emitter.emit('change'),
    });
    this.reset();
  }

  static async start(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeSlack(server, port, opts);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      fake.socket.handleUpgrade(req, socket, head),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      fake.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake slack crashed: ${e instanceof Error ? e.stack : String(e)}`);
      });
    });
    return fake;
  }

  /**
   * Forgets recorded calls, and messages whose thread started, more than `ageMs` ago: a long benchmark
   * (bench/soak.bench.ts) keeps the fake's own memory flat while the app runs for hours. counts() keeps counting.
   */
  forgetOlderThan(ageMs: number): void {
    const cutoff = harnessNow() - ageMs;
    this.callLog = this.callLog.filter((c) => c.at >= cutoff);
    for (const [channel, list] of this.messagesByChannel) {
      this.messagesByChannel.set(
        channel,
        list.filter((m) => Number(m.thread_ts ?? m.ts) * 1000 >= cutoff),
      );
    }
    this.ephemeralList = this.ephemeralList.slice(-1000);
  }

  /** Forget all state and recorded calls; channels, users and usergroups go back to the start options. */
  reset(): void {
    const o = this.opts;
    this.tokens = new Set([this.botToken, ...(o.extraTokens ?? [])]);
    this.revoked = new Set();
    this.scopes = o.scopes ? [...o.scopes] : undefined;
    this.callLog = [];
    this.failures = [];
    this.requestHolds = [];
    this.channelsById = new Map();
    this.deletedChannels = new Set();
    this.usersById = new Map();
    this.usergroupMembers = new Map(Object.entries(o.usergroups ?? {}).map(([k, v]) => [k, [...v]]));
    this.dmByUser = new Map();
    this.messagesByChannel = new Map();
    this.ephemeralList = [];
    this.viewsById = new Map();
    this.modalStacks = new Map();
    this.homeViewIdByUser = new Map();
    this.triggers = new Map();
    this.responseUrls = new Map();
    this.responseUses = [];
    this.filesById = new Map();
    this.uploadsById = new Map();
    this.buckets = new Map();
    this.methodCounts = new Map();
    this.setTierLimits(o.tierLimits ?? false);
    const tierScale = this.tiers?.timeScale ?? 1;
    this.setPostMessageRateLimit(o.postMessageRateLimit ?? (this.tiers ? { perSecond: tierScale } : false));
    for (const c of o.channels ?? []) this.addChannel(c);
    this.addUser({ id: this.botUserId, name: 'outreach-bot', realName: 'Outreach', isBot: true });
    for (const u of o.users ?? []) this.addUser(u);
    this.emitter.emit('change');
  }

  async close(): Promise<void> {
    await this.socket.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Configuration

  addChannel(init: FakeChannelInit): FakeChannel {
    const isIm = init.id.startsWith('D');
    const ch: FakeChannel = {
      id: init.id,
      name: init.name ?? init.id.toLowerCase(),
      isPrivate: init.isPrivate ?? (init.id.startsWith('G') || isIm),
      isArchived: init.isArchived ?? false,
      isMember: init.isMember ?? true,
      isIm,
      isExtShared: init.isExtShared ?? false,
      members: [...(init.members ?? [])],
      created: Math.floor(Date.now() / 1000),
    };
    this.channelsById.set(ch.id, ch);
    return clone(ch);
  }

  /** Change a channel (e.g. archive it, remove the bot). */
  updateChannel(id: string, patch: Partial<Omit<FakeChannel, 'id'>>): FakeChannel {
    const ch = this.channelsById.get(id);
    if (!ch) throw new Error(`fake slack: no channel ${id}`);
    Object.assign(ch, patch);
    return clone(ch);
  }

  /** A person joins a channel (created if unknown), or leaves it with `inChannel` false. */
  setMember(channelId: string, userId: string, inChannel = true): void {
    const ch = this.channelsById.get(channelId) ?? this.channelsById.get(this.addChannel({ id: channelId }).id)!;
    const others = (ch.members ?? []).filter((u) => u !== userId);
    ch.members = inChannel ? [...others, userId] : others;
  }

  /** Delete a channel: every call naming it gets channel_not_found from now on (even when not strict). */
  deleteChannel(id: string): void {
    this.channelsById.delete(id);
    this.deletedChannels.add(id);
  }

  channel(id: string): FakeChannel | undefined {
    const ch = this.channelsById.get(id);
    return ch ? clone(ch) : undefined;
  }

  addUser(init: FakeUserInit): Json {
    const name = init.name ?? init.id.toLowerCase();
    const realName = init.realName ?? name;
    const user: Json = {
      id: init.id,
      team_id: init.teamId ?? this.teamId,
      name,
      deleted: init.deleted ?? false,
      real_name: realName,
      tz: init.tz ?? 'Europe/London',
      tz_label: init.tz ?? 'Europe/London',
      tz_offset: init.tzOffset ?? 0,
      locale: init.locale ?? 'en-US',
      is_admin: false,
      is_owner: false,
      is_restricted: init.isRestricted ?? init.isUltraRestricted ?? false,
      is_ultra_restricted: init.isUltraRestricted ?? false,
      is_bot: init.isBot ?? false,
      is_app_user: false,
      updated: Math.floor(Date.now() / 1000),
      profile: {
        real_name: realName,
        display_name: init.displayName ?? name,
        email: init.email ?? `${name}@example.com`,
        team: init.teamId ?? this.teamId,
        ...(init.isBot ? { bot_id: this.botId, api_app_id: this.appId } : {}),
      },
    };
    this.usersById.set(init.id, user);
    return clone(user);
  }

  /** The team a user belongs to (the fake's own unless added with another `teamId`). */
  userTeamId(userId: string): string {
    const team = this.usersById.get(userId)?.team_id;
    return typeof team === 'string' ? team : this.teamId;
  }

  setUsergroup(id: string, userIds: string[]): void {
    this.usergroupMembers.set(id, [...userIds]);
  }

  /** Calls with this token get token_revoked from now on (downloads get the sign-in page). */
  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  /** Undoes revokeToken: the token works again (as after reinstalling the app with the same token). */
  restoreToken(token: string): void {
    this.revoked.delete(token);
  }

  /** The scopes the token carries from now on (reported in `x-oauth-scopes`); undefined: none reported. */
  setScopes(scopes: string[] | undefined): void {
    this.scopes = scopes ? [...scopes] : undefined;
  }

  setPostMessageRateLimit(limit: boolean | Partial<PostMessageRateLimit>): void {
    this.buckets = new Map();
    if (limit === false) this.rateLimit = undefined;
    else {
      const l = limit === true ? {} : limit;
      this.rateLimit = { perSecond: l.perSecond ?? 1, burst: l.burst ?? 3, retryAfterSec: l.retryAfterSec ?? 1 };
    }
  }

  /** Slack's per-method workspace limits on (true = defaults) or off; the windows start empty. */
  setTierLimits(limits: boolean | Partial<TierLimits>): void {
    this.tierWindows = new Map();
    if (limits === false) this.tiers = undefined;
    else {
      const l = limits === true ? {} : limits;
      this.tiers = { perMinute: { ...(l.perMinute ?? SLACK_TIER_PER_MINUTE) }, timeScale: l.timeScale ?? 1 };
    }
  }

  /** Web API calls per method since the last reset, and how many of them the fake's limits answered 429. */
  counts(): Record<string, MethodCount> {
    return Object.fromEntries([...this.methodCounts].map(([m, c]) => [m, { ...c }]));
  }

  /**
   * The next `count` calls of `method` ('*' = any method; also 'upload', 'download', 'response_url') fail as
   * described. Use Infinity for a permanent failure; clearFailures() to drop them.
   */
  failNext(method: string, failure: FakeFailure, count = 1): void {
    this.failures.push({ method, failure, remaining: count });
  }

  clearFailures(): void {
    this.failures = [];
  }

  /**
   * The next call of `method` (in `channel`, if given) is carried out (a message IS posted and visible) but its
   * answer is held until `release()`: the moment between Slack doing something and the app learning of it.
   * `applied` resolves with the call's arguments once it was carried out.
   */
  holdAnswer(method: string, opts: { channel?: string } = {}): { applied: Promise<Json>; release(): void } {
    let release!: () => void;
    let applied!: (args: Json) => void;
    const gate = new Promise<void>((r) => (release = r));
    const done = new Promise<Json>((r) => (applied = r));
    this.holds.push({ method, ...(opts.channel ? { channel: opts.channel } : {}), applied, gate });
    return { applied: done, release };
  }

  /**
   * The next call of `method` (in `channel`, if given) is held BEFORE Slack carries it out: nothing is posted yet.
   * `release()` carries it out and answers as usual; `fail(failure)` answers with the failure, nothing carried out. If
   * the caller's connection closes first (its process was killed), the call is never carried out, as a request that
   * never left the process: `dropped` resolves then. `received` resolves with the call's arguments once it arrived.
   * `match` narrows which call is held (by its arguments).
   */
  holdRequest(
    method: string,
    opts: { channel?: string; match?: (args: Json) => boolean } = {},
  ): { received: Promise<Json>; dropped: Promise<void>; release(): void; fail(failure: FakeFailure): void } {
    let settle!: (outcome: { fail?: FakeFailure }) => void;
    let received!: (args: Json) => void;
    let dropped!: () => void;
    const hold: RequestHold = {
      method,
      ...(opts.channel ? { channel: opts.channel } : {}),
      ...(opts.match ? { match: opts.match } : {}),
      received: (args) => received(args),
      dropped: () => dropped(),
      outcome: new Promise((r) => (settle = r)),
    };
    this.requestHolds.push(hold);
    return {
      received: new Promise((r) => (received = r)),
      dropped: new Promise((r) => (dropped = r)),
      release: () => settle({}),
      fail: (failure) => settle({ fail: failure }),
    };
  }

  /**
   * A held request's outcome: carried out (undefined), a failure to answer with, or 'dropped' when the caller's
   * connection closed while it was held.
   */
  private async heldOutcome(
    method: string,
    args: Json,
    res: ServerResponse,
  ): Promise<FakeFailure | 'dropped' | undefined> {
    const hold = this.requestHolds.find(
      (x) =>
        x.method === method && (!x.channel || x.channel === str(args.channel)) && (!x.match || x.match(clone(args))),
    );
    if (!hold) return undefined;
    this.requestHolds = this.requestHolds.filter((x) => x !== hold);
    hold.received(clone(args));
    const gone = new Promise<'dropped'>((r) => res.once('close', () => r('dropped')));
    const outcome = await Promise.race([hold.outcome, gone]);
    if (outcome === 'dropped') {
      hold.dropped();
      return 'dropped';
    }
    return outcome.fail;
  }

  /** A trigger_id as Slack hands one out with an interaction. `ageMs` backdates it (to test expiry). */
  issueTriggerId(opts: { userId?: string; ageMs?: number } = {}): string {
    const issuedAt = Date.now() - (opts.ageMs ?? 0);
    if (this.opts.keepCalls !== undefined) this.forgetSpent();
    if (opts.userId) this.mentionable.add(opts.userId);
    const id = `${Math.floor(issuedAt / 1000)}.${Math.floor(Math.random() * 1e12)}.${randomBytes(16).toString('hex')}`;
    this.triggers.set(id, { issuedAt, userId: opts.userId ?? 'U_TRIGGER', used: false });
    return id;
  }

  /** A response_url served by this fake. messageTs: the message it belongs to (for replace/delete_original). */
  issueResponseUrl(
    opts: { channelId?: string; userId?: string; messageTs?: string; ephemeralTs?: string; ageMs?: number } = {},
  ): string {
    const id = `${this.teamId}/${++this.counter}/${randomBytes(12).toString('hex')}`;
    for (const known of [opts.channelId, opts.userId]) if (known) this.mentionable.add(known);
    this.responseUrls.set(id, {
      id,
      issuedAt: Date.now() - (opts.ageMs ?? 0),
      uses: 0,
      channelId: opts.channelId,
      userId: opts.userId,
      messageTs: opts.messageTs,
      ...(opts.ephemeralTs ? { ephemeralTs: opts.ephemeralTs } : {}),
    });
    return `${this.baseUrl}/response/${id}`;
  }

  /** A long-running emulator forgets trigger ids and response_urls past their lifetime (keepCalls). */
  private forgetSpent(): void {
    const now = Date.now();
    const triggerTtl = this.opts.triggerTtlMs ?? 3000;
    for (const [id, t] of this.triggers) if (now - t.issuedAt > triggerTtl) this.triggers.delete(id);
    const urlTtl = this.opts.responseUrlTtlMs ?? 30 * 60_000;
    for (const [id, u] of this.responseUrls) if (now - u.issuedAt > urlTtl) this.responseUrls.delete(id);
    if (this.responseUses.length > 2000) this.responseUses = this.responseUses.slice(-1000);
  }

  /** The bot's DM with a person, opened if it was not (as conversations.open does). */
  dm(userId: string): FakeChannel {
    return clone(this.openDm(userId));
  }

  /** Slack's file object of a file (files.info's), or undefined when there is none. */
  fileObjectOf(fileId: string): FakeFileObject | undefined {
    const f = this.filesById.get(fileId);
    return f?.visible ? this.fileObject(f) : undefined;
  }

  /** A file's bytes as stored, with its name and type (to show it without a token). */
  fileContent(fileId: string): { name: string; mimetype: string; bytes: Buffer } | undefined {
    const f = this.filesById.get(fileId);
    if (!f?.visible || !f.bytes) return undefined;
    return { name: f.name, mimetype: f.mimetype, bytes: Buffer.from(f.bytes) };
  }

  /** Registers a file (as if a user uploaded it through a file_input); returns Slack's file object for it. */
  addFile(init: FakeFileInit): FakeFileObject {
    const [mimetype, filetype] = mimeFor(init.name);
    const bytes = typeof init.content === 'string' ? Buffer.from(init.content, 'utf8') : init.content;
    const f: StoredFile = {
      id: randomId('F'),
      name: init.name,
      title: init.title ?? init.name,
      mimetype: init.mimetype ?? mimetype,
      filetype: init.filetype ?? filetype,
      user: init.userId ?? 'U_UPLOADER',
      created: Math.floor(Date.now() / 1000),
      bytes,
      declaredLength: bytes.length,
      channels: [],
      visible: true,
      ...(init.externalUrl ? { externalUrl: init.externalUrl } : {}),
      ...(init.downloadUrl ? { downloadUrl: init.downloadUrl } : {}),
    };
    this.filesById.set(f.id, f);
    return this.fileObject(f);
  }

  /** Adds a message by someone else (a user reply in a thread, say) so conversations.replies returns it. */
  addMessage(
    channel: string,
    msg: { user: string; text: string; thread_ts?: string; ts?: string } & Json,
  ): FakeMessage {
    const ch = this.resolveChannel(channel, { forPosting: true, skipMembership: true });
    this.mentionable.add(msg.user);
    const stored = this.storeMessage(ch.id, {
      ...msg,
      type: 'message',
      user: msg.user,
      text: msg.text,
      thread_ts: msg.thread_ts,
      ts: msg.ts,
    });
    return this.publicMessage(stored);
  }

  /** Ids the app may mention on purpose (its configured admins, responders, user groups). */
  allowMentions(...ids: (string | undefined)[]): void {
    for (const id of ids) if (id) this.mentionable.add(id);
  }

  /** Calls `watcher` with every change of the workspace from now on (see EmulatorChange); returns the unsubscribe. */
  onChange(watcher: (change: EmulatorChange) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private notify(change: EmulatorChange): void {
    this.emitter.emit('change');
    for (const w of this.watchers) w(change);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Inspection

  /** Raw `<…>` sequences from outside text found in what the app sent (also reported to the jest setup file). */
  rawMentions(): RawMention[] {
    return clone(this.rawMentionLog);
  }

  /** Checks a payload the app sends for raw mentions (see raw-mentions.ts); records and reports what it finds. */
  checkOutgoing(method: string, payload: unknown): RawMention[] {
    if (this.opts.checkRawMentions === false) return [];
    const found = payloadProblems(payload, this.mentionScope(), method);
    if (found.length === 0) return found;
    for (const m of found) {
      this.notify({
        kind: 'refusal',
        refusal: { method: m.method, error: 'raw_mention', path: m.path, detail: `${m.sequence}: ${m.why}` },
      });
    }
    if (this.opts.checkRawMentions === 'notify') return found;
    this.rawMentionLog.push(...found);
    reportRawMentions(found);
    return found;
  }

  private mentionScope(): MentionScope {
    return {
      isUser: (id) =>
        id === this.botUserId ||
        this.usersById.has(id) ||
        this.mentionable.has(id) ||
        [...this.usergroupMembers.values()].some((m) => m.includes(id)),
      isChannel: (id) => this.channelsById.has(id) || this.mentionable.has(id),
      isUsergroup: (id) => this.usergroupMembers.has(id) || this.mentionable.has(id),
    };
  }

  calls(method?: string): FakeCall[] {
    return clone(method ? this.callLog.filter((c) => c.method === method) : this.callLog);
  }

  /** Top-level messages of a channel, oldest first, as they are now (after updates; deleted ones left out). */
  messages(channel: string, opts: { includeReplies?: boolean } = {}): FakeMessage[] {
    const id = this.dmByUser.get(channel) ?? channel;
    const list = (this.messagesByChannel.get(id) ?? []).filter(
      (m) => !m.deleted && (opts.includeReplies || !m.thread_ts || m.thread_ts === m.ts || m.reply_broadcast),
    );
    return list.map((m) => this.publicMessage(m));
  }

  /** One message (top-level or reply) by ts. */
  message(channel: string, ts: string): FakeMessage | undefined {
    const id = this.dmByUser.get(channel) ?? channel;
    const m = this.messagesByChannel.get(id)?.find((x) => x.ts === ts && !x.deleted);
    return m ? this.publicMessage(m) : undefined;
  }

  /** Replies in the thread under `parentTs`, oldest first (without the parent). */
  threadReplies(channel: string, parentTs: string): FakeMessage[] {
    const id = this.dmByUser.get(channel) ?? channel;
    return (this.messagesByChannel.get(id) ?? [])
      .filter((m) => !m.deleted && m.thread_ts === parentTs && m.ts !== parentTs)
      .map((m) => this.publicMessage(m));
  }

  /** Every message in every channel, in posting order. */
  allMessages(): FakeMessage[] {
    const all = [...this.messagesByChannel.values()].flat().filter((m) => !m.deleted);
    all.sort((a, b) => tsToMicros(a.ts) - tsToMicros(b.ts));
    return all.map((m) => this.publicMessage(m));
  }

  ephemerals(channel?: string): FakeEphemeral[] {
    return clone(channel ? this.ephemeralList.filter((e) => e.channel === channel) : this.ephemeralList);
  }

  /** The DM channel id of the bot with a user (created by conversations.open or posting to a user id). */
  dmChannel(userId: string): string | undefined {
    return this.dmByUser.get(userId);
  }

  publishedHome(userId: string): Json | undefined {
    const id = this.homeViewIdByUser.get(userId);
    return id ? clone(this.viewsById.get(id)?.view) : undefined;
  }

  /** Modal views currently open (every view of every user's stack, bottom first). */
  openViews(userId?: string): Json[] {
    const out: Json[] = [];
    for (const [user, stack] of this.modalStacks) {
      if (userId && user !== userId) continue;
      for (const id of stack) {
        const v = this.viewsById.get(id);
        if (v) out.push(clone(v.view));
      }
    }
    return out;
  }

  /** A view by id as last stored (open or not). */
  view(viewId: string): Json | undefined {
    const v = this.viewsById.get(viewId);
    return v ? clone(v.view) : undefined;
  }

  /** Whose view it is (the user of the trigger that opened it / the Home tab owner). */
  viewOwner(viewId: string): string | undefined {
    return this.viewsById.get(viewId)?.userId;
  }

  /** Files uploaded through files.getUploadURLExternal / upload / files.completeUploadExternal. */
  uploadedFiles(): FakeUploadedFile[] {
    return [...this.filesById.values()]
      .filter((f) => f.uploadId !== undefined && f.bytes !== undefined)
      .map((f) => ({
        id: f.id,
        name: f.name,
        title: f.title,
        bytes: Buffer.from(f.bytes as Buffer),
        declaredLength: f.declaredLength,
        channel: f.channels[0],
        threadTs: f.threadTs,
        initialComment: f.initialComment,
        messageTs: f.messageTs,
        ...(f.altText !== undefined ? { altText: f.altText } : {}),
      }));
  }

  responseUrlUses(): FakeResponseUrlUse[] {
    return clone(this.responseUses);
  }

  /** Current value of the harness sequence (to wait only for calls after this point). */
  seq(): number {
    return harnessSeq();
  }

  /**
   * Resolves with the first truthy value of `predicate`, re-evaluated on every change of the fake (and every
   * 10 ms, for predicates looking elsewhere). Rejects after `timeoutMs` naming the calls seen.
   */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 2000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const check = () => {
        if (done) return;
        let v: T | undefined | null | false;
        try {
          v = predicate();
        } catch (e) {
          finish();
          reject(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        if (v) {
          finish();
          resolve(v);
        }
      };
      const timer = setInterval(check, 10);
      const deadline = setTimeout(() => {
        finish();
        const seen = this.callLog.map((c) => `${c.method}${c.ok ? '' : `(${c.error ?? c.status})`}`).join(', ');
        reject(new Error(`fake slack: condition not met within ${timeoutMs} ms; calls so far: [${seen}]`));
      }, timeoutMs);
      const finish = () => {
        done = true;
        clearInterval(timer);
        clearTimeout(deadline);
        this.emitter.off('change', check);
      };
      this.emitter.on('change', check);
      check();
    });
  }

  /** The first recorded call of `method` (already made or still to come) matching `predicate`. */
  waitForCall(method: string, predicate: (c: FakeCall) => boolean = () => true, timeoutMs = 2000): Promise<FakeCall> {
    return this.waitFor(() => {
      const c = this.callLog.find((x) => x.method === method && predicate(x));
      return c ? clone(c) : undefined;
    }, timeoutMs);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Hooks for the driver: what Slack does with a view_submission / view_closed ack.

  /**
   * Applies the app's answer to a view_submission: empty ack closes the view; response_action 'update' replaces
   * it, 'push' pushes a new one, 'clear' closes the stack, 'errors' keeps it open. Returns Slack's verdict.
   */
  applyViewSubmissionAck(viewId: string, ack: unknown): { ok: boolean; action: string; error?: string; view?: Json } {
    const stored = this.viewsById.get(viewId);
    if (!stored) return { ok: false, action: 'unknown', error: 'not_found' };
    const action = isObj(ack) && typeof ack.response_action === 'string' ? ack.response_action : 'close';
    if (isObj(ack)) {
      // The modal's errors are shown as text under their inputs.
      const errors = isObj(ack.errors) ? Object.values(ack.errors).map((text) => ({ text })) : [];
      this.checkOutgoing('view_submission ack', { view: ack.view, errors });
    }
    const stack = this.modalStacks.get(stored.userId) ?? [];
    const check = (view: unknown): string | undefined => {
      if (viewByteLength(view) > LIMITS.viewBytes) return 'view_too_large';
      const errs = validateView(view, 'modal', '/response_action/view');
      return errs.length ? `invalid_arguments: ${errs.join('; ')}` : undefined;
    };
    switch (action) {
      case 'close':
        this.closeView(viewId);
        return { ok: true, action };
      case 'clear':
        for (const id of [...stack]) this.closeView(id);
        return { ok: true, action };
      case 'errors': {
        if (!isObj(ack) || !isObj(ack.errors)) return { ok: false, action, error: 'errors must be an object' };
        const inputIds = new Set(
          ((stored.view.blocks as Json[] | undefined) ?? [])
            .filter((b) => isObj(b) && b.type === 'input')
            .map((b) => b.block_id),
        );
        const unknown = Object.keys(ack.errors).filter((k) => !inputIds.has(k));
        if (unknown.length) return { ok: false, action, error: `errors name no input block: ${unknown.join(', ')}` };
        return { ok: true, action };
      }
      case 'update': {
        const v = isObj(ack) ? ack.view : undefined;
        const error = check(v);
        if (error) return { ok: false, action, error };
        const updated = this.replaceView(stored, v as Json);
        return { ok: true, action, view: clone(updated) };
      }
      case 'push': {
        const v = isObj(ack) ? ack.view : undefined;
        const error = check(v) ?? (stack.length >= 3 ? 'push_limit_reached' : undefined);
        if (error) return { ok: false, action, error };
        const pushed = this.createView(v as Json, stored.userId, { rootViewId: stack[0], previousViewId: viewId });
        stack.push(pushed.id as string);
        this.emitter.emit('change');
        return { ok: true, action, view: clone(pushed) };
      }
      default:
        return { ok: false, action, error: `unknown response_action ${action}` };
    }
  }

  /** The user closed the view (Cancel / X): the view leaves the stack (all of it when isCleared). */
  closeView(viewId: string, opts: { isCleared?: boolean } = {}): void {
    const stored = this.viewsById.get(viewId);
    if (!stored) return;
    const stack = this.modalStacks.get(stored.userId) ?? [];
    const ids = opts.isCleared ? [...stack] : [viewId];
    for (const id of ids) {
      const v = this.viewsById.get(id);
      if (v) v.open = false;
      const i = stack.indexOf(id);
      if (i >= 0) stack.splice(i, 1);
      this.notify({ kind: 'view_closed', viewId: id });
    }
    if (stack.length === 0) this.modalStacks.delete(stored.userId);
    this.emitter.emit('change');
  }

  // -------------------------------------------------------------------------------------------------------------
  // HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const path = url.pathname;
    if (path.startsWith('/api/')) return this.handleApi(req, res, decodeURIComponent(path.slice(5)), url.searchParams);
    if (req.method === 'POST' && path.startsWith('/upload/v1/')) return this.handleUpload(req, res, path.slice(11));
    if (req.method === 'POST' && path.startsWith('/response/')) return this.handleResponseUrl(req, res, path.slice(10));
    if (req.method === 'GET' && path.startsWith('/files-pri/')) return this.handleDownload(req, res, path);
    if (req.method === 'GET' && (path === '/' || path === '/signin')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LOGIN_PAGE);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  private takeFailure(method: string, args: Json = {}): FakeFailure | undefined {
    const forChannel = (x: FakeFailure) => typeof x === 'string' || !x.channel || x.channel === str(args.channel);
    const f = this.failures.find(
      (x) => x.remaining > 0 && (x.method === method || x.method === '*') && forChannel(x.failure),
    );
    if (!f) return undefined;
    f.remaining--;
    this.failures = this.failures.filter((x) => x.remaining > 0);
    return f.failure;
  }

  private record(call: FakeCall): void {
    this.callLog.push(call);
    const keep = this.opts.keepCalls;
    if (keep !== undefined && this.callLog.length > keep * 2) this.callLog = this.callLog.slice(-keep);
    this.emitter.emit('change');
  }

  private authToken(req: IncomingMessage, args: Json): string | undefined {
    const h = req.headers.authorization;
    if (typeof h === 'string' && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim();
    return str(args.token);
  }

  /** Answers with an injected failure; returns what was sent (status 0 = connection dropped). */
  private async sendFailure(res: ServerResponse, failure: FakeFailure): Promise<{ status: number; body: unknown }> {
    const f = typeof failure === 'string' ? { error: failure } : failure;
    if (f.delayMs) await sleep(f.delayMs);
    if (f.dropConnection) {
      res.socket?.destroy();
      return { status: 0, body: undefined };
    }
    const status = f.status ?? 200;
    const headers: Record<string, string> = {};
    if (status === 429 || f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter ?? 1);
    if (f.body !== undefined) {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(f.body);
      return { status, body: f.body };
    }
    const body = {
      ok: false,
      error: f.error ?? (status === 429 ? 'ratelimited' : 'fatal_error'),
      ...(f.needed ? { needed: f.needed, provided: (this.scopes ?? []).join(',') } : {}),
    };
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
    return { status, body };
  }

  /** Answers with an injected failure and records the call as failed. */
  private async answerInjected(res: ServerResponse, injected: FakeFailure, call: CallHead): Promise<void> {
    const r = await this.sendFailure(res, injected);
    if (this.handlers[call.method]) this.count(call.method).calls++;
    this.recordInjected(call, r, injected);
  }

  /** Records a call answered with an injected failure (what sendFailure sent). */
  private recordInjected(call: CallHead, sent: { status: number; body: unknown }, injected: FakeFailure): void {
    const error = this.errorOf(sent.body);
    this.record({ ...call, status: sent.status, ok: false, error, response: sent.body, injected });
  }

  /** Records a call to one of the fake's plain HTTP endpoints (upload, download) as it was answered. */
  private recordHttp(call: CallHead, status: number, response: unknown, error?: string): void {
    this.record({ ...call, status, ok: error === undefined, ...(error === undefined ? {} : { error }), response });
  }

  private async handleApi(req: IncomingMessage, res: ServerResponse, method: string, query: URLSearchParams) {
    const at = harnessNow();
    const seq = nextHarnessSeq();
    const raw = await readBody(req);
    let args: Json = {};
    let token: string | undefined;
    let status = 200;
    let body: Json;
    let injected: FakeFailure | undefined;
    let headers: Record<string, string> = {};
    try {
      args = await parseArgs(req, raw, query);
      token = this.authToken(req, args);
      delete args.token;
      const handler = this.handlers[method];
      if (!handler) throw new ApiError('unknown_method', { req_method: method });
      const held = await this.heldOutcome(method, args, res);
      // The caller went away while its request was held: never carried out, never answered.
      if (held === 'dropped') return;
      injected = held ?? this.takeFailure(method, args);
      if (injected !== undefined && isPureDelay(injected)) {
        // Only slowness was asked for: wait, then answer normally.
        await sleep(injected.delayMs ?? 0);
        injected = undefined;
      }
      const applyFirst = injected !== undefined && typeof injected !== 'string' && injected.afterApply;
      if (injected && !applyFirst) {
        await this.answerInjected(res, injected, { seq, at, method, args, token });
        return;
      }
      if (method !== 'api.test') {
        if (!token) throw new ApiError('not_authed');
        if (this.revoked.has(token)) throw new ApiError('token_revoked');
        const appToken = token === this.appToken;
        if (!appToken && !this.tokens.has(token)) throw new ApiError('invalid_auth');
        // The app-level token opens Socket Mode connections and does nothing else; a bot token cannot open them.
        if (appToken !== (method === 'apps.connections.open')) throw new ApiError('not_allowed_token_type');
      }
      const retryAfter = this.rateLimited(method, args);
      if (retryAfter !== undefined) {
        status = 429;
        headers = { 'retry-after': String(retryAfter) };
        this.count(method).ratelimited++;
        throw new ApiError('ratelimited');
      }
      body = { ok: true, ...(await handler(args, token as string)) };
      // Checked once Slack took the call (a rejected payload is shown to no one).
      this.checkOutgoing(method, args);
      const hold = this.holds.find((x) => x.method === method && (!x.channel || x.channel === str(args.channel)));
      if (hold) {
        this.holds = this.holds.filter((x) => x !== hold);
        hold.applied(clone(args));
        await hold.gate;
      }
      if (applyFirst && injected) {
        await this.answerInjected(res, injected, { seq, at, method, args, token });
        return;
      }
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      body = { ok: false, error: e.code, ...e.extra };
      const meta = e.extra.response_metadata;
      this.notifyRefusal(method, e.code, isObj(meta) && Array.isArray(meta.messages) ? meta.messages : []);
    }
    if (this.opts.latencyMs) await sleep(this.opts.latencyMs);
    const ok = body.ok === true;
    if (this.handlers[method]) this.count(method).calls++;
    this.record({
      seq,
      at,
      method,
      args,
      token,
      status,
      ok,
      error: ok ? undefined : String(body.error),
      response: clone(body),
    });
    if (this.scopes) headers['x-oauth-scopes'] = this.scopes.join(',');
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  }

  private errorOf(body: unknown): string | undefined {
    if (isObj(body) && typeof body.error === 'string') return body.error;
    return body === undefined ? 'connection dropped' : 'http error';
  }

  private count(method: string): MethodCount {
    let c = this.methodCounts.get(method);
    if (!c) this.methodCounts.set(method, (c = { calls: 0, ratelimited: 0 }));
    return c;
  }

  /**
   * Slack's limits for this call: the per-channel pace of chat.postMessage, then the method's workspace window.
   * Returns the Retry-After seconds of a refusal; an accepted call is counted in both.
   */
  private rateLimited(method: string, args: Json): number | undefined {
    const tierWait = this.tierWait(method);
    if (method === 'chat.postMessage') {
      // The channel's token is only spent when the workspace window also has room.
      if (tierWait === undefined || tierWait <= 0) {
        const channelRetry = this.takeRateToken(str(args.channel) ?? '');
        if (channelRetry !== undefined) return channelRetry;
      }
    }
    if (tierWait === undefined) return undefined;
    if (tierWait > 0) return Math.max(1, Math.ceil(tierWait / 1000));
    this.tierWindows.get(method)?.push(Date.now());
    return undefined;
  }

  /** ms until the method's window has room (0: room now); undefined when the method is not limited. */
  private tierWait(method: string): number | undefined {
    const t = this.tiers;
    const limit = t?.perMinute[method];
    if (!t || limit === undefined) return undefined;
    const windowMs = 60_000 / t.timeScale;
    const now = Date.now();
    let w = this.tierWindows.get(method);
    if (!w) this.tierWindows.set(method, (w = []));
    while (w.length > 0 && (w[0] as number) <= now - windowMs) w.shift();
    if (w.length < limit) return 0;
    return (w[w.length - limit] as number) + windowMs - now;
  }

  /** Token bucket per channel; returns Retry-After seconds when the channel is over its rate. */
  private takeRateToken(channel: string): number | undefined {
    const l = this.rateLimit;
    if (!l) return undefined;
    const now = Date.now();
    const b = this.buckets.get(channel) ?? { tokens: l.burst, last: now };
    b.tokens = Math.min(l.burst, b.tokens + ((now - b.last) / 1000) * l.perSecond);
    b.last = now;
    this.buckets.set(channel, b);
    if (b.tokens < 1) return l.retryAfterSec;
    b.tokens -= 1;
    return undefined;
  }

  private async handleUpload(req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<void> {
    const at = harnessNow();
    const seq = nextHarnessSeq();
    const raw = await readBody(req);
    const injected = this.takeFailure('upload');
    const args: Json = { upload_id: uploadId };
    const call: CallHead = { seq, at, method: 'upload', args };
    if (injected) return this.answerInjected(res, injected, call);
    const fileId = this.uploadsById.get(uploadId);
    const file = fileId ? this.filesById.get(fileId) : undefined;
    let bytes: Buffer;
    const ct = req.headers['content-type'] ?? '';
    if (ct.toLowerCase().startsWith('multipart/form-data')) {
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': ct } }).formData();
      const part = form.get('body') ?? form.get('file');
      bytes =
        part === null
          ? Buffer.alloc(0)
          : typeof part === 'string'
            ? Buffer.from(part)
            : Buffer.from(await part.arrayBuffer());
    } else {
      bytes = raw;
    }
    args.length = bytes.length;
    if (!file) {
      this.recordHttp(call, 404, 'Not Found', 'unknown upload url');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    file.bytes = bytes;
    const body = `OK - ${bytes.length}`;
    // Whether a token came with the bytes (an upload URL needs none; tests check the app sends none).
    const token = this.authToken(req, {});
    this.recordHttp({ ...call, ...(token ? { token } : {}) }, 200, body);
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  }

  private async handleDownload(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const at = harnessNow();
    const seq = nextHarnessSeq();
    // /files-pri/<team>-<fileId>/download/<name>  or  /files-pri/<team>-<fileId>/<name>
    const m = /^\/files-pri\/[^/]+-([A-Z0-9]+)\//.exec(path);
    const token = this.authToken(req, {});
    const args: Json = { path, file: m?.[1] };
    const call: CallHead = { seq, at, method: 'download', args, token };
    const injected = this.takeFailure('download');
    if (injected) return this.answerInjected(res, injected, call);
    const authed = token !== undefined && this.tokens.has(token) && !this.revoked.has(token);
    if (!authed) {
      // Real Slack sends people without a valid token to the sign-in page rather than answering 401.
      this.recordHttp(call, 302, 'redirect to login', 'not_authed');
      res.writeHead(302, { location: `${this.baseUrl}/?redir=${encodeURIComponent(path)}` }).end();
      return;
    }
    const file = m?.[1] ? this.filesById.get(m[1]) : undefined;
    if (!file || !file.visible || !file.bytes) {
      this.recordHttp(call, 404, 'not found', 'file_not_found');
      res
        .writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html><body>File not found</body></html>');
      return;
    }
    this.recordHttp(call, 200, `${file.bytes.length} bytes`);
    res
      .writeHead(200, {
        'content-type': file.mimetype,
        'content-length': String(file.bytes.length),
        // Any name a person gave the file (newlines, quotes, any script) in a valid header, as Slack sends it.
        'content-disposition':
          `attachment; filename="${file.name.replace(/[^\x20-\x7e]|"/g, '_')}"; ` +
          `filename*=UTF-8''${encodeURIComponent(file.name)}`,
      })
      .end(file.bytes);
  }

  private async handleResponseUrl(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const at = harnessNow();
    const seq = nextHarnessSeq();
    const raw = await readBody(req);
    const url = `${this.baseUrl}/response/${id}`;
    let body: Json = {};
    const ct = (req.headers['content-type'] ?? '').toLowerCase();
    try {
      if (ct.startsWith('application/json')) body = JSON.parse(raw.toString('utf8')) as Json;
      else {
        const p = new URLSearchParams(raw.toString('utf8')).get('payload');
        body = p ? (JSON.parse(p) as Json) : {};
      }
    } catch {
      return this.answerResponseUrl(res, { id, url, at, status: 400, body: {}, error: 'invalid_payload' }, seq);
    }
    const injected = this.takeFailure('response_url');
    if (injected) {
      const r = await this.sendFailure(res, injected);
      this.responseUses.push({ id, url, at, status: r.status, body, error: this.errorOf(r.body) });
      this.recordInjected({ seq, at, method: 'response_url', args: body }, r, injected);
      return;
    }
    const ru = this.responseUrls.get(id);
    const ttl = this.opts.responseUrlTtlMs ?? 30 * 60_000;
    const maxUses = this.opts.responseUrlMaxUses ?? 5;
    if (!ru) return this.answerResponseUrl(res, { id, url, at, status: 404, body, error: 'invalid_url' }, seq);
    if (Date.now() - ru.issuedAt > ttl || ru.uses >= maxUses) {
      return this.answerResponseUrl(res, { id, url, at, status: 404, body, error: 'expired_url' }, seq);
    }
    const blocks = body.blocks;
    if (blocks !== undefined) {
      const errs = validateBlocks(blocks, 'message');
      if (errs.length)
        return this.answerResponseUrl(
          res,
          { id, url, at, status: 400, body, error: 'invalid_blocks', problems: errs },
          seq,
        );
    }
    ru.uses++;
    this.applyResponse(ru, body);
    return this.answerResponseUrl(res, { id, url, at, status: 200, body }, seq);
  }

  /**
   * What Slack does with a response_url body (or a command's ack body): delete or replace the original message
   * (or the ephemeral clicked in), post in the channel, or show an ephemeral message to the person.
   */
  private applyResponse(ru: Omit<ResponseUrl, 'id' | 'issuedAt' | 'uses'>, body: Json): void {
    const text = str(body.text) ?? '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    const channel = ru.channelId;
    const original = channel && ru.messageTs ? this.findMessage(channel, ru.messageTs) : undefined;
    const ephemeral = ru.ephemeralTs
      ? this.ephemeralList.find((e) => e.message_ts === ru.ephemeralTs && e.user === ru.userId)
      : undefined;
    // A response_url of a message (or an ephemeral) acts on it; one gone already leaves nothing to act on.
    const hasOriginal = Boolean((channel && ru.messageTs) || ru.ephemeralTs);
    if (truthy(body.delete_original) && hasOriginal) {
      if (original && channel) {
        original.deleted = true;
        this.notify({ kind: 'message_deleted', channel, ts: original.ts });
      }
      if (ephemeral) this.ephemeralList = this.ephemeralList.filter((e) => e !== ephemeral);
    } else if (truthy(body.replace_original) && hasOriginal) {
      if (original && channel) {
        // The original is replaced wholesale: no blocks in the body means a text-only message.
        original.text = text;
        if (blocks) original.blocks = this.withIds(blocks);
        else delete original.blocks;
        original.edited = { user: this.botUserId, ts: this.nextTs() };
        original.updates++;
        this.notify({ kind: 'message', channel, ts: original.ts });
      }
      if (ephemeral) {
        ephemeral.text = text;
        if (blocks) ephemeral.blocks = this.withIds(blocks);
        else delete ephemeral.blocks;
        this.notify({ kind: 'ephemeral', ephemeral: clone(ephemeral) });
      }
    } else if (body.response_type === 'in_channel' && channel) {
      this.storeMessage(channel, {
        ...this.botAuthor(),
        text,
        blocks: blocks ? this.withIds(blocks) : undefined,
        thread_ts: str(body.thread_ts),
      });
    } else {
      this.addEphemeral({
        channel: channel ?? '',
        user: ru.userId ?? '',
        text,
        // Slack fills in block and action ids of an ephemeral message as of any other.
        blocks: blocks ? this.withIds(blocks) : undefined,
        thread_ts: str(body.thread_ts),
        message_ts: this.nextTs(),
        via: 'response_url',
      });
    }
  }

  private addEphemeral(e: FakeEphemeral): void {
    for (const k of Object.keys(e) as (keyof FakeEphemeral)[]) if (e[k] === undefined) delete e[k];
    this.ephemeralList.push(e);
    if (this.opts.keepCalls !== undefined && this.ephemeralList.length > 2000) {
      this.ephemeralList = this.ephemeralList.slice(-1000);
    }
    this.notify({ kind: 'ephemeral', ephemeral: clone(e) });
  }

  /**
   * Slack shows a slash command's ack body to the person who typed it (ephemeral), or in the channel with
   * `response_type: "in_channel"`, as it does a response_url's.
   */
  showCommandAck(opts: { channelId: string; userId: string; body: unknown }): void {
    if (!isObj(opts.body) || (opts.body.text === undefined && opts.body.blocks === undefined)) return;
    const errs = opts.body.blocks === undefined ? [] : validateBlocks(opts.body.blocks, 'message');
    if (errs.length) {
      this.notifyRefusal('command ack', 'invalid_blocks', errs);
      return;
    }
    // (The driver checked the body for raw mentions when the ack arrived.)
    this.applyResponse({ channelId: opts.channelId, userId: opts.userId }, opts.body);
  }

  /** Tells the watchers of a refusal; Slack's problem messages name the part (`[json-pointer:/blocks/3]`). */
  private notifyRefusal(method: string, error: string, problems: unknown[] = []): void {
    const first = problems.find((p): p is string => typeof p === 'string');
    const pointer = first ? /\[json-pointer:([^\]]*)\]/.exec(first) : null;
    const refusal: EmulatorRefusal = { method, error };
    if (pointer?.[1] !== undefined) refusal.path = jsonPath(pointer[1]);
    if (first) refusal.detail = first.replace(/^\[ERROR\]\s*/, '').replace(/\s*\[json-pointer:[^\]]*\]/, '');
    if (problems.length > 1) refusal.detail = `${refusal.detail ?? ''} (and ${problems.length - 1} more)`.trim();
    this.notify({ kind: 'refusal', refusal });
  }

  private answerResponseUrl(res: ServerResponse, use: FakeResponseUrlUse, seq: number): void {
    this.responseUses.push(use);
    const ok = use.status === 200;
    if (ok) this.checkOutgoing('response_url', use.body);
    else this.notifyRefusal('response_url', use.error ?? `HTTP ${use.status}`, use.problems);
    this.record({
      seq,
      at: use.at,
      method: 'response_url',
      args: use.body,
      status: use.status,
      ok,
      error: use.error,
      response: ok ? { ok: true } : use.error,
    });
    if (ok) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else res.writeHead(use.status, { 'content-type': 'text/plain' }).end(use.error);
  }

  // -------------------------------------------------------------------------------------------------------------
  // State helpers

  private nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.lastTsMicros + 1);
    this.lastTsMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  private botAuthor(): Pick<FakeMessage, 'user' | 'bot_id' | 'app_id' | 'bot_profile'> {
    return {
      user: this.botUserId,
      bot_id: this.botId,
      app_id: this.appId,
      bot_profile: { id: this.botId, app_id: this.appId, name: 'Outreach', team_id: this.teamId, deleted: false },
    };
  }

  /**
   * Finds the channel a call names, applying Slack's access rules. `forPosting`: user ids mean the bot's DM with
   * them. Throws channel_not_found / is_archived / not_in_channel like Slack.
   */
  private resolveChannel(
    channel: unknown,
    opts: { forPosting?: boolean; needMember?: boolean; skipMembership?: boolean; allowArchived?: boolean } = {},
  ): FakeChannel {
    const id = str(channel);
    if (!id) throw new ApiError('channel_not_found');
    if (opts.forPosting && /^[UW]/.test(id)) return this.openDm(id);
    let ch = this.channelsById.get(id);
    if (!ch && !this.opts.strict && /^[CG][A-Z0-9_]+$/.test(id) && !this.deletedChannels.has(id)) {
      this.addChannel({ id });
      ch = this.channelsById.get(id);
    }
    if (!ch) throw new ApiError('channel_not_found');
    if (!opts.skipMembership) {
      // A private channel the bot is not in does not exist for it.
      if (ch.isPrivate && !ch.isMember) throw new ApiError('channel_not_found');
      if (!opts.allowArchived && ch.isArchived) throw new ApiError('is_archived');
      if (opts.needMember && !ch.isMember) throw new ApiError('not_in_channel');
    }
    return ch;
  }

  private openDm(userId: string): FakeChannel {
    this.resolveUser(userId);
    let id = this.dmByUser.get(userId);
    if (!id) {
      id = `D${userId.slice(1)}${++this.counter}`;
      this.dmByUser.set(userId, id);
      this.channelsById.set(id, {
        id,
        name: id,
        isPrivate: true,
        isArchived: false,
        isMember: true,
        isIm: true,
        user: userId,
        created: Math.floor(Date.now() / 1000),
      });
    }
    return this.channelsById.get(id) as FakeChannel;
  }

  private resolveUser(userId: unknown): Json {
    const id = str(userId);
    if (!id) throw new ApiError('user_not_found');
    let u = this.usersById.get(id);
    if (!u && !this.opts.strict && /^[UW][A-Z0-9_]+$/.test(id)) {
      this.addUser({ id });
      u = this.usersById.get(id);
    }
    if (!u) throw new ApiError('user_not_found');
    return u;
  }

  private findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messagesByChannel.get(channel)?.find((m) => m.ts === ts && !m.deleted);
  }

  /** Slack fills in missing block_ids and action_ids. */
  private withIds(blocks: unknown[]): unknown[] {
    const copy = clone(blocks);
    for (const b of copy) {
      if (!isObj(b)) continue;
      if (b.block_id === undefined) b.block_id = randomId('', 5);
      const els = [
        ...(Array.isArray(b.elements) && b.type === 'actions' ? b.elements : []),
        ...(isObj(b.accessory) ? [b.accessory] : []),
        ...(isObj(b.element) ? [b.element] : []),
      ];
      for (const el of els)
        if (isObj(el) && el.type !== 'image' && el.action_id === undefined) el.action_id = randomId('', 5);
    }
    return copy;
  }

  private storeMessage(
    channel: string,
    fields: Partial<FakeMessage> & { user: string; text: string } & Json,
  ): StoredMessage {
    const list = this.messagesByChannel.get(channel) ?? [];
    this.messagesByChannel.set(channel, list);
    let threadTs = fields.thread_ts;
    if (threadTs) {
      // A reply to a reply lands in the parent's thread.
      const target = list.find((m) => m.ts === threadTs && !m.deleted);
      if (target?.thread_ts) threadTs = target.thread_ts;
    }
    const ts = fields.ts ?? this.nextTs();
    if (fields.ts) this.lastTsMicros = Math.max(this.lastTsMicros, tsToMicros(fields.ts));
    const msg: StoredMessage = {
      ...fields,
      type: 'message',
      channel,
      ts,
      team: this.teamId,
      thread_ts: threadTs,
      updates: 0,
      deleted: false,
    };
    for (const k of Object.keys(msg) as (keyof StoredMessage)[]) if (msg[k] === undefined) delete msg[k];
    list.push(msg);
    list.sort((a, b) => tsToMicros(a.ts) - tsToMicros(b.ts));
    // A long-running emulator keeps each channel's newest messages only.
    if (this.opts.keepCalls !== undefined && list.length > KEPT_MESSAGES) list.splice(0, list.length - KEPT_MESSAGES);
    if (threadTs) {
      const parent = list.find((m) => m.ts === threadTs);
      if (parent) {
        parent.thread_ts = parent.ts;
        const replies = list.filter((m) => m.thread_ts === threadTs && m.ts !== threadTs && !m.deleted);
        parent.reply_count = replies.length;
        parent.reply_users = [...new Set(replies.map((r) => r.user))];
        parent.reply_users_count = parent.reply_users.length;
        parent.latest_reply = replies[replies.length - 1]?.ts;
        msg.parent_user_id = parent.user;
        this.notify({ kind: 'message', channel, ts: parent.ts });
      }
    }
    this.notify({ kind: 'message', channel, ts });
    return msg;
  }

  private publicMessage(m: StoredMessage): FakeMessage {
    const { deleted: _deleted, ...rest } = m;
    return clone(rest);
  }

  /** The message as the Web API returns it (no internal fields). */
  private apiMessage(m: StoredMessage, includeMetadata = true): Json {
    const { deleted: _d, updates: _u, channel: _c, ...rest } = m;
    const out: Json = clone(rest);
    if (!includeMetadata) delete out.metadata;
    return out;
  }

  private fileObject(f: StoredFile): FakeFileObject {
    const base = `${this.baseUrl}/files-pri/${this.teamId}-${f.id}`;
    const name = encodeURIComponent(f.name);
    return {
      id: f.id,
      created: f.created,
      timestamp: f.created,
      name: f.name,
      title: f.title,
      mimetype: f.mimetype,
      filetype: f.filetype,
      pretty_type: f.filetype.toUpperCase(),
      user: f.user,
      user_team: this.teamId,
      editable: false,
      size: f.bytes?.length ?? f.declaredLength,
      mode: f.externalUrl ? 'external' : 'hosted',
      is_external: f.externalUrl !== undefined,
      external_type: f.externalUrl ? 'app' : '',
      ...(f.externalUrl ? { external_url: f.externalUrl, external_id: `ext-${f.id}` } : {}),
      is_public: false,
      public_url_shared: false,
      display_as_bot: false,
      username: '',
      url_private: f.externalUrl ?? `${base}/${name}`,
      url_private_download: f.externalUrl ?? f.downloadUrl ?? `${base}/download/${name}`,
      permalink: `https://${this.teamDomain}.slack.com/files/${f.user}/${f.id}/${name}`,
      permalink_public: `https://slack-files.com/${this.teamId}-${f.id}-${randomBytes(5).toString('hex')}`,
      channels: f.channels.filter((c) => !this.channelsById.get(c)?.isPrivate),
      groups: f.channels.filter((c) => this.channelsById.get(c)?.isPrivate && !this.channelsById.get(c)?.isIm),
      ims: f.channels.filter((c) => this.channelsById.get(c)?.isIm),
      comments_count: 0,
    };
  }

  private checkMessageContent(
    args: Json,
    opts: { update?: boolean } = {},
  ): { blocks?: unknown[]; attachments?: unknown[] } {
    let blocks: unknown[] | undefined;
    let attachments: unknown[] | undefined;
    if (args.blocks !== undefined && args.blocks !== '') {
      if (!Array.isArray(args.blocks)) throw new ApiError('invalid_blocks_format');
      const errs = validateBlocks(args.blocks, 'message');
      if (errs.length) {
        throw new ApiError('invalid_blocks', {
          errors: errs,
          response_metadata: { messages: errs.map((e) => `[ERROR] ${e}`) },
        });
      }
      blocks = this.withIds(args.blocks);
    }
    if (args.attachments !== undefined && args.attachments !== '') {
      if (!Array.isArray(args.attachments)) throw new ApiError('invalid_attachments');
      if (args.attachments.length > LIMITS.attachments) throw new ApiError('too_many_attachments');
      attachments = clone(args.attachments);
    }
    const text = str(args.text);
    if (!opts.update && !text && !blocks?.length && !attachments?.length) throw new ApiError('no_text');
    if (opts.update && text && text.length > LIMITS.chatUpdateText) throw new ApiError('msg_too_long');
    return { blocks, attachments };
  }

  private checkMetadata(v: unknown): FakeMessage['metadata'] | undefined {
    if (v === undefined || v === '') return undefined;
    if (!isObj(v) || typeof v.event_type !== 'string' || !isObj(v.event_payload)) {
      throw new ApiError('invalid_metadata_format');
    }
    return { event_type: v.event_type, event_payload: clone(v.event_payload) };
  }

  private useTrigger(triggerId: unknown): Trigger {
    const id = str(triggerId);
    const t = id ? this.triggers.get(id) : undefined;
    if (!t) throw new ApiError('invalid_trigger_id');
    if (t.used) throw new ApiError('exchanged_trigger_id');
    if (Date.now() - t.issuedAt > (this.opts.triggerTtlMs ?? 3000)) throw new ApiError('expired_trigger_id');
    t.used = true;
    return t;
  }

  private checkViewArg(v: unknown, expectType?: 'modal' | 'home'): Json {
    if (typeof v === 'string') throw invalidArguments('invalid JSON [json-pointer:/view]');
    if (v === undefined) throw invalidArguments('missing required field: view');
    if (viewByteLength(v) > LIMITS.viewBytes) throw new ApiError('view_too_large');
    const errs = validateView(v, expectType);
    if (errs.length) {
      // Slack reports problems in a view payload as invalid_arguments with the details in response_metadata.
      throw new ApiError('invalid_arguments', {
        errors: errs,
        response_metadata: { messages: errs.map((e) => `[ERROR] ${e}`) },
      });
    }
    return v as Json;
  }

  private newHash(): string {
    return `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`;
  }

  private createView(v: Json, userId: string, rel: { rootViewId?: string; previousViewId?: string } = {}): Json {
    const id = randomId('V');
    const view: Json = {
      id,
      team_id: this.teamId,
      type: v.type,
      title: v.title,
      submit: v.submit ?? null,
      close: v.close ?? null,
      blocks: this.withIds((v.blocks as unknown[]) ?? []),
      private_metadata: v.private_metadata ?? '',
      callback_id: v.callback_id ?? '',
      external_id: v.external_id ?? '',
      state: { values: {} },
      hash: this.newHash(),
      clear_on_close: v.clear_on_close ?? false,
      notify_on_close: v.notify_on_close ?? false,
      root_view_id: rel.rootViewId ?? id,
      previous_view_id: rel.previousViewId ?? null,
      app_id: this.appId,
      app_installed_team_id: this.teamId,
      bot_id: this.botId,
    };
    if (v.type === 'home') delete view.submit;
    this.viewsById.set(id, { view, userId, open: true });
    if (this.opts.keepCalls !== undefined && this.viewsById.size > KEPT_VIEWS) this.forgetClosedViews();
    this.notify({ kind: 'view', viewId: id });
    return view;
  }

  /** The oldest closed modals go first (open ones and Home tabs stay). */
  private forgetClosedViews(): void {
    for (const [id, v] of this.viewsById) {
      if (this.viewsById.size <= KEPT_VIEWS / 2) return;
      if (!v.open && v.view.type !== 'home') this.viewsById.delete(id);
    }
  }

  private replaceView(stored: StoredView, v: Json): Json {
    const old = stored.view;
    stored.view = {
      ...old,
      type: v.type,
      title: v.title,
      submit: v.submit ?? null,
      close: v.close ?? null,
      blocks: this.withIds((v.blocks as unknown[]) ?? []),
      private_metadata: v.private_metadata ?? '',
      callback_id: v.callback_id ?? '',
      external_id: v.external_id ?? old.external_id ?? '',
      clear_on_close: v.clear_on_close ?? false,
      notify_on_close: v.notify_on_close ?? false,
      hash: this.newHash(),
    };
    this.notify({ kind: 'view', viewId: stored.view.id as string });
    return stored.view;
  }

  private checkExternalIdFree(v: Json, exceptViewId?: string): void {
    const ext = str(v.external_id);
    if (!ext) return;
    for (const [id, s] of this.viewsById) {
      if (id !== exceptViewId && s.view.external_id === ext) throw new ApiError('duplicate_external_id');
    }
  }

  private page<T>(items: T[], args: Json, defaultLimit = 100, maxLimit = 1000): { items: T[]; next?: string } {
    const limit = Math.min(Number(str(args.limit) ?? defaultLimit) || defaultLimit, maxLimit);
    const cursor = str(args.cursor);
    const start = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8').replace('offset:', '')) || 0 : 0;
    const slice = items.slice(start, start + limit);
    const next = start + limit < items.length ? Buffer.from(`offset:${start + limit}`).toString('base64') : undefined;
    return { items: slice, next };
  }

  /** A page of conversations.history or .replies, as Slack answers it (metadata only when asked for). */
  private historyPage(messages: StoredMessage[], args: Json): Json {
    const meta = truthy(args.include_all_metadata);
    const { items, next } = this.page(messages, args);
    return {
      messages: items.map((x) => this.apiMessage(x, meta)),
      has_more: next !== undefined,
      response_metadata: next ? { next_cursor: next } : {},
    };
  }

  private channelInfo(ch: FakeChannel): Json {
    if (ch.isIm) {
      return {
        id: ch.id,
        created: ch.created,
        is_im: true,
        is_org_shared: false,
        user: ch.user,
        is_user_deleted: false,
        priority: 0,
      };
    }
    return {
      id: ch.id,
      name: ch.name,
      name_normalized: ch.name,
      is_channel: !ch.isPrivate,
      is_group: false,
      is_im: false,
      is_mpim: false,
      is_private: ch.isPrivate,
      is_archived: ch.isArchived,
      is_general: false,
      is_shared: ch.isExtShared ?? false,
      is_ext_shared: ch.isExtShared ?? false,
      is_org_shared: false,
      is_member: ch.isMember,
      created: ch.created,
      creator: 'U_CREATOR',
      context_team_id: this.teamId,
      topic: { value: '', creator: '', last_set: 0 },
      purpose: { value: '', creator: '', last_set: 0 },
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Methods

  /**
   * The Web API methods the fake answers, one table per Slack API family (below); a method not listed answers
   * unknown_method.
   */
  private buildHandlers(): Record<string, Handler> {
    return {
      ...this.authHandlers(),
      ...this.chatHandlers(),
      ...this.conversationHandlers(),
      ...this.reactionHandlers(),
      ...this.userHandlers(),
      ...this.viewHandlers(),
      ...this.fileHandlers(),
    };
  }

  /** The message `ts` in a channel (not deleted), or the error Slack answers when there is none. */
  private messageAt(channelId: string, ts: unknown, missing = 'message_not_found'): StoredMessage {
    const at = str(ts);
    const m = at ? this.findMessage(channelId, at) : undefined;
    if (!m) throw new ApiError(missing);
    return m;
  }

  /** The connection itself: api.test, Socket Mode's URL, auth.test. */
  private authHandlers(): Record<string, Handler> {
    return {
      'api.test': (args) => ({ args }),

      'apps.connections.open': () => ({ url: this.socket.issueUrl() }),

      'auth.test': () => ({
        url: `https://${this.teamDomain}.slack.com/`,
        team: 'Fake Team',
        user: 'outreach-bot',
        team_id: this.teamId,
        user_id: this.botUserId,
        bot_id: this.botId,
        is_enterprise_install: false,
      }),
    };
  }

  /** chat.*: messages posted, updated, deleted, ephemeral, and their permalinks. */
  private chatHandlers(): Record<string, Handler> {
    return {
      'chat.postMessage': (args) => {
        const ch = this.resolveChannel(args.channel, { forPosting: true });
        const { blocks, attachments } = this.checkMessageContent(args);
        const metadata = this.checkMetadata(args.metadata);
        let threadTs = str(args.thread_ts);
        if (threadTs) {
          const parent = this.findMessage(ch.id, threadTs);
          // Slack itself takes an unknown thread_ts (the reply is orphaned); strict mode calls it a bug.
          if (!parent && this.opts.strict) throw new ApiError('thread_not_found');
          threadTs = parent ? (parent.thread_ts ?? parent.ts) : threadTs;
        }
        let text = str(args.text) ?? '';
        if (text.length > LIMITS.messageText) text = text.slice(0, LIMITS.messageText);
        const m = this.storeMessage(ch.id, {
          ...this.botAuthor(),
          text,
          blocks,
          attachments,
          metadata,
          thread_ts: threadTs,
          ...(threadTs && truthy(args.reply_broadcast) ? { reply_broadcast: true, subtype: 'thread_broadcast' } : {}),
        });
        return { channel: ch.id, ts: m.ts, message: this.apiMessage(m) };
      },

      'chat.update': (args) => {
        const ch = this.resolveChannel(args.channel);
        const m = this.messageAt(ch.id, args.ts);
        if (m.user !== this.botUserId) throw new ApiError('cant_update_message');
        const { blocks, attachments } = this.checkMessageContent(args, { update: true });
        const metadata = this.checkMetadata(args.metadata);
        const text = str(args.text);
        if (text !== undefined) m.text = text;
        if (blocks !== undefined) m.blocks = blocks;
        else if (args.blocks === '' || (Array.isArray(args.blocks) && args.blocks.length === 0)) delete m.blocks;
        if (attachments !== undefined) m.attachments = attachments;
        if (metadata !== undefined) m.metadata = metadata;
        m.edited = { user: this.botUserId, ts: this.nextTs() };
        m.updates++;
        this.notify({ kind: 'message', channel: ch.id, ts: m.ts });
        return { channel: ch.id, ts: m.ts, text: m.text, message: this.apiMessage(m) };
      },

      'chat.postEphemeral': (args) => {
        const ch = this.resolveChannel(args.channel, { needMember: true });
        const user = str(args.user);
        if (!user) throw new ApiError('user_not_found');
        this.resolveUser(user);
        const { blocks } = this.checkMessageContent(args);
        const message_ts = this.nextTs();
        this.addEphemeral({
          channel: ch.id,
          user,
          text: str(args.text) ?? '',
          blocks,
          thread_ts: str(args.thread_ts),
          message_ts,
          via: 'chat.postEphemeral',
        });
        return { message_ts };
      },

      'chat.delete': (args) => {
        const ch = this.resolveChannel(args.channel);
        const m = this.messageAt(ch.id, args.ts);
        if (m.user !== this.botUserId) throw new ApiError('cant_delete_message');
        m.deleted = true;
        this.notify({ kind: 'message_deleted', channel: ch.id, ts: m.ts });
        return { channel: ch.id, ts: m.ts };
      },

      'chat.getPermalink': (args) => {
        const ch = this.resolveChannel(args.channel, { skipMembership: true });
        const m = this.messageAt(ch.id, args.message_ts);
        let permalink = `https://${this.teamDomain}.slack.com/archives/${ch.id}/p${m.ts.replace('.', '')}`;
        if (m.thread_ts && m.thread_ts !== m.ts) permalink += `?thread_ts=${m.thread_ts}&cid=${ch.id}`;
        return { channel: ch.id, permalink };
      },
    };
  }

  /** conversations.*: joining, a channel's facts and members, DMs, history and threads. */
  private conversationHandlers(): Record<string, Handler> {
    return {
      'conversations.join': (args) => {
        const ch = this.resolveChannel(args.channel, { skipMembership: true });
        if (ch.isIm || ch.isPrivate)
          throw new ApiError(ch.isMember ? 'method_not_supported_for_channel_type' : 'channel_not_found');
        if (ch.isArchived) throw new ApiError('is_archived');
        const already = ch.isMember;
        ch.isMember = true;
        this.notify({ kind: 'channel', channel: ch.id });
        return {
          channel: this.channelInfo(ch),
          ...(already
            ? { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } }
            : {}),
        };
      },

      'conversations.info': (args) => {
        const ch = this.resolveChannel(args.channel, { allowArchived: true });
        return { channel: this.channelInfo(ch) };
      },

      'conversations.members': (args) => {
        const ch = this.resolveChannel(args.channel, { allowArchived: true });
        // Like Slack: the channel's members, the bot among them when it is in, cursor-paginated.
        const people = ch.isIm ? [ch.user as string] : (ch.members ?? []);
        const all = ch.isMember ? [...people, this.botUserId] : people;
        const { items, next } = this.page(all, args);
        return { members: items, response_metadata: { next_cursor: next ?? '' } };
      },

      'conversations.open': (args) => {
        const users = (str(args.users) ?? '')
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean);
        if (users.length === 0) throw new ApiError('users_list_not_supplied');
        if (users.length > 1) throw new ApiError('not_supported', { detail: 'the fake supports 1:1 DMs only' });
        const ch = this.openDm(users[0] as string);
        return { channel: truthy(args.return_im) ? this.channelInfo(ch) : { id: ch.id } };
      },

      'conversations.replies': (args) => {
        const ch = this.resolveChannel(args.channel, { needMember: true, allowArchived: true });
        const m = this.messageAt(ch.id, args.ts, 'thread_not_found');
        const root = m.thread_ts ?? m.ts;
        const within = inWindow(args);
        // Like Slack: the parent comes first, then the replies within oldest/latest.
        const all = (this.messagesByChannel.get(ch.id) ?? []).filter(
          (x) => !x.deleted && (x.ts === root || (x.thread_ts === root && within(x.ts))),
        );
        return this.historyPage(all, args);
      },

      'conversations.history': (args) => {
        const ch = this.resolveChannel(args.channel, { needMember: true, allowArchived: true });
        const within = inWindow(args);
        const top = (this.messagesByChannel.get(ch.id) ?? [])
          .filter((m) => !m.deleted && (!m.thread_ts || m.thread_ts === m.ts || m.reply_broadcast) && within(m.ts))
          .reverse();
        return this.historyPage(top, args);
      },
    };
  }

  /** reactions.*: the bot's reactions on a message. */
  private reactionHandlers(): Record<string, Handler> {
    return {
      'reactions.add': (args) => {
        const ch = this.resolveChannel(args.channel, { needMember: true });
        const name = str(args.name);
        if (!name) throw new ApiError('invalid_name');
        const m = this.messageAt(ch.id, args.timestamp);
        m.reactions ??= [];
        let r = m.reactions.find((x) => x.name === name);
        if (r?.users.includes(this.botUserId)) throw new ApiError('already_reacted');
        if (!r) {
          r = { name, users: [], count: 0 };
          m.reactions.push(r);
        }
        r.users.push(this.botUserId);
        r.count = r.users.length;
        this.notify({ kind: 'message', channel: ch.id, ts: m.ts });
        return {};
      },

      'reactions.remove': (args) => {
        const ch = this.resolveChannel(args.channel, { needMember: true });
        const name = str(args.name);
        const m = this.messageAt(ch.id, args.timestamp);
        const r = m.reactions?.find((x) => x.name === name);
        if (!r || !r.users.includes(this.botUserId)) throw new ApiError('no_reaction');
        r.users = r.users.filter((u) => u !== this.botUserId);
        r.count = r.users.length;
        m.reactions = (m.reactions ?? []).filter((x) => x.count > 0);
        if (m.reactions.length === 0) delete m.reactions;
        this.notify({ kind: 'message', channel: ch.id, ts: m.ts });
        return {};
      },
    };
  }

  /** users.* and usergroups.*: who people are, where they are, who is in a group. */
  private userHandlers(): Record<string, Handler> {
    return {
      'users.lookupByEmail': (args) => {
        // Like Slack: exact email of a member (case-insensitive); users_not_found otherwise. The id it gives is one the
        // app may mention from now on (it came from Slack, not from outside text).
        const email = str(args.email)?.toLowerCase();
        if (!email) throw new ApiError('invalid_arguments');
        const user = [...this.usersById.values()].find(
          (u) => String((u.profile as Json | undefined)?.email ?? '').toLowerCase() === email,
        );
        if (!user) throw new ApiError('users_not_found');
        this.mentionable.add(String(user.id));
        const found = clone(user);
        delete found.locale;
        return { user: found };
      },

      'users.conversations': (args) => {
        // Like Slack with a bot token: the channels the person is in, of the types asked (default public), a private
        // one only when the bot is in it too; cursor-paginated.
        const user = str(args.user) ?? this.botUserId;
        this.resolveUser(user);
        const types = new Set((str(args.types) ?? 'public_channel').split(',').map((x) => x.trim()));
        const inIt = [...this.channelsById.values()].filter((ch) => {
          if (ch.isIm || (truthy(args.exclude_archived) && ch.isArchived)) return false;
          if (!types.has(ch.isPrivate ? 'private_channel' : 'public_channel')) return false;
          if (ch.isPrivate && !ch.isMember) return false;
          return user === this.botUserId ? ch.isMember : (ch.members ?? []).includes(user);
        });
        const { items, next } = this.page(inIt, args);
        return {
          channels: items.map((ch) => {
            const info = this.channelInfo(ch);
            delete info.is_member;
            return info;
          }),
          response_metadata: { next_cursor: next ?? '' },
        };
      },

      'users.info': (args) => {
        // Like Slack: the locale only when asked for with include_locale.
        const user = clone(this.resolveUser(args.user));
        if (!truthy(args.include_locale)) delete user.locale;
        return { user };
      },

      'usergroups.users.list': (args) => {
        const id = str(args.usergroup);
        const users = id ? this.usergroupMembers.get(id) : undefined;
        if (!users) throw new ApiError('no_such_subteam');
        return { users: [...users] };
      },
    };
  }

  /** views.*: modals opened, pushed and updated, and the Home tab published. */
  private viewHandlers(): Record<string, Handler> {
    return {
      'views.open': (args) => {
        const view = this.checkViewArg(args.view, 'modal');
        const trigger = this.useTrigger(args.trigger_id);
        this.checkExternalIdFree(view);
        // A new modal replaces whatever stack the user had open.
        for (const id of this.modalStacks.get(trigger.userId) ?? []) {
          const v = this.viewsById.get(id);
          if (v) v.open = false;
          this.notify({ kind: 'view_closed', viewId: id });
        }
        const created = this.createView(view, trigger.userId);
        this.modalStacks.set(trigger.userId, [created.id as string]);
        return { view: clone(created) };
      },

      'views.push': (args) => {
        const view = this.checkViewArg(args.view, 'modal');
        const trigger = this.useTrigger(args.trigger_id);
        this.checkExternalIdFree(view);
        const stack = this.modalStacks.get(trigger.userId) ?? [];
        if (stack.length >= 3) throw new ApiError('push_limit_reached');
        const created = this.createView(view, trigger.userId, {
          rootViewId: stack[0],
          previousViewId: stack[stack.length - 1],
        });
        stack.push(created.id as string);
        this.modalStacks.set(trigger.userId, stack);
        return { view: clone(created) };
      },

      'views.update': (args) => {
        const viewId = str(args.view_id);
        const externalId = str(args.external_id);
        if (!viewId && !externalId) {
          throw invalidArguments('view_id or external_id is required');
        }
        const view = this.checkViewArg(args.view);
        let stored = viewId ? this.viewsById.get(viewId) : undefined;
        if (!viewId && externalId) stored = [...this.viewsById.values()].find((s) => s.view.external_id === externalId);
        if (!stored || !stored.open) throw new ApiError('not_found');
        const hash = str(args.hash);
        if (hash && hash !== stored.view.hash) throw new ApiError('hash_conflict');
        this.checkExternalIdFree(view, stored.view.id as string);
        return { view: clone(this.replaceView(stored, view)) };
      },

      'views.publish': (args) => {
        const userId = str(args.user_id);
        if (!userId) throw invalidArguments('missing required field: user_id');
        const view = this.checkViewArg(args.view, 'home');
        this.resolveUser(userId);
        const existingId = this.homeViewIdByUser.get(userId);
        const existing = existingId ? this.viewsById.get(existingId) : undefined;
        const hash = str(args.hash);
        if (existing) {
          if (hash && hash !== existing.view.hash) throw new ApiError('hash_conflict');
          return { view: clone(this.replaceView(existing, view)) };
        }
        const created = this.createView(view, userId);
        this.homeViewIdByUser.set(userId, created.id as string);
        return { view: clone(created) };
      },
    };
  }

  /** files.*: a file's facts, its deletion, and the two steps of an upload. */
  private fileHandlers(): Record<string, Handler> {
    return {
      'files.info': (args) => {
        const id = str(args.file);
        const f = id ? this.filesById.get(id) : undefined;
        if (!f || !f.visible) throw new ApiError('file_not_found');
        return { file: this.fileObject(f), comments: [], response_metadata: { next_cursor: '' } };
      },

      'files.delete': (args) => {
        // Like Slack: a bot deletes the files it uploaded; a message that shared one then shows a tombstone.
        const id = str(args.file);
        const f = id ? this.filesById.get(id) : undefined;
        if (!f) throw new ApiError('file_not_found');
        if (f.user !== this.botUserId) throw new ApiError('cant_delete_file');
        this.filesById.delete(f.id);
        if (f.uploadId !== undefined) this.uploadsById.delete(f.uploadId);
        for (const list of this.messagesByChannel.values()) {
          for (const m of list) {
            if (m.files?.some((x) => x.id === f.id)) {
              m.files = m.files.map((x) => (x.id === f.id ? ({ id: f.id, mode: 'tombstone' } as typeof x) : x));
              this.notify({ kind: 'message', channel: m.channel, ts: m.ts });
            }
          }
        }
        this.emitter.emit('change');
        return {};
      },

      'files.getUploadURLExternal': (args) => this.startUpload(args),
      'files.completeUploadExternal': (args) => this.completeUpload(args),
    };
  }

  /** files.getUploadURLExternal: a file not shared yet, and the URL its bytes go to (handleUpload). */
  private startUpload(args: Json): Json {
    const filename = str(args.filename);
    const length = Number(str(args.length));
    if (!filename) throw invalidArguments('missing required field: filename');
    if (!Number.isInteger(length) || length < 1) {
      throw invalidArguments('length must be a positive integer');
    }
    if (args.snippet_type !== undefined && length > 1_000_000) throw new ApiError('snippet_too_large');
    const altText = str(args.alt_txt) ?? str(args.alt_text);
    if (altText !== undefined && altText.length > 1000)
      throw invalidArguments('alt_txt must be at most 1000 characters');
    const [mimetype, filetype] = mimeFor(filename);
    const uploadId = randomBytes(12).toString('hex');
    const f: StoredFile = {
      id: randomId('F'),
      name: filename,
      title: filename,
      mimetype,
      filetype,
      user: this.botUserId,
      created: Math.floor(Date.now() / 1000),
      bytes: undefined,
      declaredLength: length,
      channels: [],
      visible: false,
      uploadId,
      ...(altText !== undefined ? { altText } : {}),
    };
    this.filesById.set(f.id, f);
    this.uploadsById.set(uploadId, f.id);
    return { upload_url: `${this.baseUrl}/upload/v1/${uploadId}`, file_id: f.id };
  }

  /** files.completeUploadExternal: uploaded files shared, in a channel (a message holding them) or nowhere. */
  private completeUpload(args: Json): Json {
    const files = args.files;
    if (!Array.isArray(files) || files.length === 0) {
      throw invalidArguments('files must be a non-empty JSON array');
    }
    const stored = files.map((x) => {
      const f = isObj(x) && typeof x.id === 'string' ? this.filesById.get(x.id) : undefined;
      if (!f || f.uploadId === undefined) throw new ApiError('file_not_found');
      if (!f.bytes) throw new ApiError('file_upload_failed', { detail: `no bytes were uploaded for ${f.id}` });
      if (f.visible) throw new ApiError('file_already_completed');
      return { f, title: isObj(x) ? str(x.title) : undefined };
    });
    const channelArg = str(args.channel_id) ?? str(args.channels);
    const ch = channelArg ? this.resolveChannel(channelArg, { forPosting: true, needMember: true }) : undefined;
    const threadTs = str(args.thread_ts);
    if (threadTs && ch && !this.findMessage(ch.id, threadTs)) throw new ApiError('thread_not_found');
    let blocks: unknown[] | undefined;
    if (args.blocks !== undefined && str(args.initial_comment) === undefined)
      blocks = this.checkMessageContent({ ...args, text: 'x' }).blocks;
    for (const { f, title } of stored) {
      f.visible = true;
      if (title) f.title = title;
      if (ch) {
        f.channels = [ch.id];
        f.threadTs = threadTs;
      }
      f.initialComment = str(args.initial_comment);
    }
    if (ch) {
      const m = this.storeMessage(ch.id, {
        ...this.botAuthor(),
        text: str(args.initial_comment) ?? '',
        blocks,
        thread_ts: threadTs,
        files: stored.map(({ f }) => this.fileObject(f)),
        upload: true,
      });
      for (const { f } of stored) f.messageTs = m.ts;
    }
    return { files: stored.map(({ f }) => this.fileObject(f)) };
  }
}

export function startFakeSlack(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
  return FakeSlack.start(opts);
}
