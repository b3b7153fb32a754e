// Plays the Slack side of the app's endpoint in tests: builds the payloads Slack sends for slash commands,
// interactivity and Events API deliveries, and delivers them over one of two transports: signed (v0 HMAC over the
// raw body) HTTP POSTs to the app, or Socket Mode envelopes over the fake Slack's WebSocket. The payloads are the
// same either way; only the delivery and the shape of the ack differ.
// Trigger ids and response_urls are issued through the fake Web API, so the fake can enforce their rules.
// Payload shapes: docs/slack-platform-notes.md §5 and §6.

import { createHmac, randomBytes } from 'node:crypto';
import type { FakeEphemeral, FakeFileObject, FakeMessage, FakeSlack } from './fake-slack.js';
import { harnessNow, nextHarnessSeq, type Json } from './harness.js';

export interface SlackDriverOptions {
  /**
   * 'http' (default): POSTs signed requests to appUrl. 'socket': sends envelopes through fake.socket to the app
   * connected in Socket Mode (no signatures; SendOptions that spoil a signature are refused).
   */
  transport?: 'http' | 'socket';
  /**
   * http://127.0.0.1:PORT/slack/events (HTTP transport). A function is asked once per request: several replicas
   * behind a load balancer (test/support/replicas.ts spreads requests over the live ones).
   */
  appUrl?: string | (() => string);
  signingSecret?: string;
  /** The fake Web API the app talks to (issues trigger ids / response_urls, knows messages and views). */
  fake: FakeSlack;
  /** Default acting user. Default 'U0ALICE'. */
  userId?: string;
  /** Default channel. Default 'C0OPS'. */
  channelId?: string;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /** Keep only the last this many exchanges in `log` (a long-running playground). Default: all. */
  keepLog?: number;
}

/** Ways to spoil a request, to check the app's request verification. */
export interface SendOptions {
  /** Sign with the wrong secret. */
  badSignature?: boolean;
  /** Timestamp 6 minutes in the past (Slack's replay window is 5). */
  staleTimestamp?: boolean;
  /** Explicit X-Slack-Request-Timestamp (Unix seconds). */
  timestamp?: number;
  /** Send no signature headers at all. */
  omitSignature?: boolean;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/**
 * The app's ack of one request: its HTTP answer, or over Socket Mode its `{envelope_id, payload}` message (status
 * 200, body the payload as JSON, '' for an empty ack).
 */
export interface AckResponse {
  status: number;
  body: string;
  /** body parsed as JSON when it is JSON. */
  json?: unknown;
  headers: Record<string, string>;
  /** harnessNow() when the request was sent / when the response arrived. */
  sentAt: number;
  respondedAt: number;
  /**
   * Harness sequence number taken when the response arrived. fake.calls() carry the number taken when each call
   * arrived, so `call.seq > ack.seq` means the app acked before making that call. A fake service can take its own
   * numbers with nextHarnessSeq() from harness.ts.
   */
  seq: number;
  /** What was sent (the parsed payload). */
  payload: Json;
  /** The URL the request went to (HTTP transport). */
  url?: string;
}

export interface CommandResult extends AckResponse {
  triggerId: string;
  responseUrl: string;
}

export interface InteractionResult extends AckResponse {
  triggerId: string;
  responseUrl?: string;
}

export interface ViewSubmissionResult extends InteractionResult {
  /** What Slack made of the ack (close / update / push / clear / errors), when the fake knows the view. */
  viewResult?: { ok: boolean; action: string; error?: string; view?: Json };
}

export interface BlockActionOptions extends SendOptions {
  actionId: string;
  /** Defaults to the block holding actionId in the message / view. */
  blockId?: string;
  /** Element type; defaults to the element's type in the message / view, else 'button'. */
  type?: string;
  /** Button value; defaults to the button's value in the message / view. */
  value?: string;
  selectedOption?: { value: string; text?: string };
  selectedOptions?: { value: string; text?: string }[];
  selectedUser?: string;
  selectedConversation?: string;
  selectedChannel?: string;
  selectedDate?: string;
  userId?: string;
  channelId?: string;
  /** Click in this message (stored in the fake). */
  messageTs?: string;
  /** Click in this ephemeral message (its message_ts, shown to userId in channelId). */
  ephemeralTs?: string;
  /** Click in this view (id of a view stored in the fake, or a whole view object). */
  view?: string | Json;
  /** state.values of the surface at the time of the click. */
  stateValues?: Json;
  /** Extra fields merged into the action object. */
  actionExtra?: Json;
}

export interface ViewSubmissionOptions extends SendOptions {
  /** Submit this view stored in the fake (must be open). Its callback_id, metadata, hash and blocks are used. */
  viewId?: string;
  /** Without viewId: the callback_id of a synthetic modal. */
  callbackId?: string;
  /** state.values: { [blockId]: { [actionId]: value } } (see stateValue). Unset inputs get their initial value. */
  values?: Json;
  privateMetadata?: string;
  userId?: string;
  hash?: string;
  /** Skip the check that every required input has a value (Slack's client would refuse to submit). */
  allowEmptyRequired?: boolean;
}

export interface EventOptions extends SendOptions {
  eventId?: string;
  eventTime?: number;
  /** Sends X-Slack-Retry-Num (and X-Slack-Retry-Reason, default 'http_timeout'). */
  retryNum?: number;
  retryReason?: string;
}

/** An option object as Slack sends a chosen one: its value and its plain_text text (the value when not given). */
function optionObject(value: string, text = value) {
  return { text: { type: 'plain_text', text, emoji: true }, value };
}

/** The state.values entry of an element of `type` where one option is chosen (or none: null). */
const oneChosen =
  (type: string) =>
  (value: string | null, text = value ?? '') => ({
    type,
    selected_option: value === null ? null : optionObject(value, text),
  });

/** The state.values entry of an element of `type` where several options are chosen. */
const severalChosen = (type: string) => (values: string[]) => ({
  type,
  selected_options: values.map((v) => optionObject(v)),
});

/** Builders for state.values entries, shaped as Slack sends them. */
export const stateValue = {
  text: (value: string | null) => ({ type: 'plain_text_input', value }),
  number: (value: string | null) => ({ type: 'number_input', value }),
  email: (value: string | null) => ({ type: 'email_text_input', value }),
  url: (value: string | null) => ({ type: 'url_text_input', value }),
  staticSelect: oneChosen('static_select'),
  multiStaticSelect: severalChosen('multi_static_select'),
  radio: oneChosen('radio_buttons'),
  checkboxes: severalChosen('checkboxes'),
  date: (value: string | null) => ({ type: 'datepicker', selected_date: value }),
  time: (value: string | null) => ({ type: 'timepicker', selected_time: value }),
  datetime: (unixSeconds: number | null) => ({ type: 'datetimepicker', selected_date_time: unixSeconds }),
  user: (id: string | null) => ({ type: 'users_select', selected_user: id }),
  conversation: (id: string | null) => ({ type: 'conversations_select', selected_conversation: id }),
  channel: (id: string | null) => ({ type: 'channels_select', selected_channel: id }),
  files: (files: FakeFileObject[]) => ({ type: 'file_input', files }),
};

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** v0 signature headers for a raw body. */
function signSlackRequest(signingSecret: string, rawBody: string, timestampSec = Math.floor(Date.now() / 1000)) {
  const sig = createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${rawBody}`).digest('hex');
  return { 'X-Slack-Request-Timestamp': String(timestampSec), 'X-Slack-Signature': `v0=${sig}` };
}

/** Elements of a block that can be acted on. */
function elementsOf(block: Json): Json[] {
  const out: Json[] = [];
  if (Array.isArray(block.elements)) out.push(...block.elements.filter(isObj));
  if (isObj(block.accessory)) out.push(block.accessory);
  if (isObj(block.element)) out.push(block.element);
  return out;
}

function findElement(blocks: unknown, actionId: string, blockId?: string): { block: Json; element: Json } | undefined {
  if (!Array.isArray(blocks)) return undefined;
  for (const b of blocks) {
    if (!isObj(b) || (blockId && b.block_id !== blockId)) continue;
    const el = elementsOf(b).find((e) => e.action_id === actionId);
    if (el) return { block: b, element: el };
  }
  return undefined;
}

function allOptions(el: Json): Json[] {
  const opts = Array.isArray(el.options) ? el.options.filter(isObj) : [];
  if (Array.isArray(el.option_groups)) {
    for (const g of el.option_groups) if (isObj(g) && Array.isArray(g.options)) opts.push(...g.options.filter(isObj));
  }
  return opts;
}

/** The value Slack reports for an input the user left untouched: its initial value, or empty. */
function untouchedValue(el: Json): Json {
  const type = String(el.type);
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return { type, value: typeof el.initial_value === 'string' ? el.initial_value : null };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: isObj(el.initial_option) ? el.initial_option : null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: Array.isArray(el.initial_options) ? el.initial_options : [] };
    case 'users_select':
      return { type, selected_user: el.initial_user ?? null };
    case 'multi_users_select':
      return { type, selected_users: el.initial_users ?? [] };
    case 'conversations_select':
      return { type, selected_conversation: el.initial_conversation ?? null };
    case 'multi_conversations_select':
      return { type, selected_conversations: el.initial_conversations ?? [] };
    case 'channels_select':
      return { type, selected_channel: el.initial_channel ?? null };
    case 'multi_channels_select':
      return { type, selected_channels: el.initial_channels ?? [] };
    case 'datepicker':
      return { type, selected_date: el.initial_date ?? null };
    case 'timepicker':
      return { type, selected_time: el.initial_time ?? null };
    case 'datetimepicker':
      return { type, selected_date_time: el.initial_date_time ?? null };
    case 'file_input':
      return { type, files: [] };
    case 'rich_text_input':
      return { type, rich_text_value: el.initial_value ?? { type: 'rich_text', elements: [] } };
    default:
      return { type };
  }
}

function isEmptyValue(v: Json): boolean {
  for (const [k, x] of Object.entries(v)) {
    if (k === 'type') continue;
    if (x === null || x === undefined || x === '') continue;
    if (Array.isArray(x) && x.length === 0) continue;
    return false;
  }
  return true;
}

/** One delivery from Slack to the app, before a transport carries it. */
type Delivery =
  | { kind: 'command'; fields: Record<string, string> }
  | { kind: 'interaction'; payload: Json }
  | { kind: 'event'; envelope: Json; retryNum?: number; retryReason?: string };

const FORM = 'application/x-www-form-urlencoded';
/** SendOptions that only mean something for a signed HTTP request. */
const HTTP_ONLY = ['badSignature', 'staleTimestamp', 'timestamp', 'omitSignature', 'headers'] as const;

/** Where a click happened: the message, ephemeral message or view it is in, and the blocks searched for it. */
interface ClickSurface {
  message?: FakeMessage;
  ephemeral?: FakeEphemeral;
  view?: Json;
  channelId: string | undefined;
  blocks: unknown;
}

/** The action of a click as Slack describes it: the element's type, text and value, the options chosen. */
function clickedAction(opts: BlockActionOptions, found: { block: Json; element: Json } | undefined): Json {
  const el = found?.element ?? {};
  const type = opts.type ?? (typeof el.type === 'string' ? el.type : 'button');
  const action: Json = {
    type,
    action_id: opts.actionId,
    block_id: opts.blockId ?? found?.block.block_id ?? 'block',
    action_ts: `${(Date.now() / 1000).toFixed(6)}`,
  };
  if (type === 'button') {
    action.text = el.text ?? { type: 'plain_text', text: opts.actionId, emoji: true };
    const value = opts.value ?? el.value;
    if (value !== undefined) action.value = value;
    if (el.style) action.style = el.style;
  } else if (opts.value !== undefined) {
    action.value = opts.value;
  }
  const fullOption = (o: { value: string; text?: string }) => {
    const known = allOptions(el).find((x) => x.value === o.value);
    if (found && !known && allOptions(el).length > 0) {
      throw new Error(`slack driver: ${opts.actionId} has no option with value ${o.value}`);
    }
    return known ?? optionObject(o.value, o.text);
  };
  if (opts.selectedOption) action.selected_option = fullOption(opts.selectedOption);
  if (opts.selectedOptions) action.selected_options = opts.selectedOptions.map(fullOption);
  if (opts.selectedUser) action.selected_user = opts.selectedUser;
  if (opts.selectedConversation) action.selected_conversation = opts.selectedConversation;
  if (opts.selectedChannel) action.selected_channel = opts.selectedChannel;
  if (opts.selectedDate) action.selected_date = opts.selectedDate;
  Object.assign(action, opts.actionExtra);
  return action;
}

export class SlackDriver {
  readonly transport: 'http' | 'socket';
  readonly appUrl: string | (() => string) | undefined;
  readonly fake: FakeSlack;
  readonly userId: string;
  readonly channelId: string;
  /** Every exchange with the app, in order. */
  readonly log: { kind: string; payload: Json; response: AckResponse }[] = [];
  private readonly signingSecret: string;
  private readonly timeoutMs: number;
  private readonly keepLog: number | undefined;

  constructor(opts: SlackDriverOptions) {
    this.transport = opts.transport ?? 'http';
    if (this.transport === 'http' && (!opts.appUrl || opts.signingSecret === undefined)) {
      throw new Error('slack driver: the HTTP transport needs appUrl and signingSecret');
    }
    this.appUrl = opts.appUrl;
    this.signingSecret = opts.signingSecret ?? '';
    this.fake = opts.fake;
    this.userId = opts.userId ?? 'U0ALICE';
    this.channelId = opts.channelId ?? 'C0OPS';
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.keepLog = opts.keepLog;
  }

  private logExchange(entry: { kind: string; payload: Json; response: AckResponse }): void {
    this.log.push(entry);
    if (this.keepLog !== undefined && this.log.length > this.keepLog * 2)
      this.log.splice(0, this.log.length - this.keepLog);
  }

  private team(): Json {
    return { id: this.fake.teamId, domain: this.fake.teamDomain };
  }

  private user(userId: string): Json {
    const name = userId.toLowerCase();
    return { id: userId, username: name, name, team_id: this.fake.teamId };
  }

  private channel(channelId: string): Json {
    return { id: channelId, name: this.fake.channel(channelId)?.name ?? channelId.toLowerCase() };
  }

  /** Sends a raw body with the given content type over HTTP, signed unless told otherwise. */
  async raw(
    body: string,
    contentType: string,
    opts: SendOptions = {},
    kind = 'raw',
    payload: Json = {},
  ): Promise<AckResponse> {
    if (this.transport !== 'http' || !this.appUrl) {
      throw new Error('slack driver: raw HTTP requests need the HTTP transport');
    }
    const now = Math.floor(Date.now() / 1000);
    const ts = opts.timestamp ?? (opts.staleTimestamp ? now - 6 * 60 : now);
    const secret = opts.badSignature ? `${this.signingSecret}-wrong` : this.signingSecret;
    const headers: Record<string, string> = {
      'Content-Type': contentType,
      ...(opts.omitSignature ? {} : signSlackRequest(secret, body, ts)),
      ...opts.headers,
    };
    const sentAt = harnessNow();
    const url = typeof this.appUrl === 'function' ? this.appUrl() : this.appUrl;
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Taken when the response head arrives (the ack is small: its body is in the same packet).
    const respondedAt = harnessNow();
    const seq = nextHarnessSeq();
    const text = await res.text();
    let json: unknown;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const response: AckResponse = {
      status: res.status,
      body: text,
      json,
      headers: Object.fromEntries(res.headers.entries()),
      sentAt,
      respondedAt,
      seq,
      payload,
      url,
    };
    this.logExchange({ kind, payload, response });
    return response;
  }

  /** Puts one delivery on the driver's transport. */
  private deliver(d: Delivery, opts: SendOptions, kind: string): Promise<AckResponse> {
    if (this.transport === 'socket') return this.overSocket(d, opts, kind);
    switch (d.kind) {
      case 'command':
        return this.raw(new URLSearchParams(d.fields).toString(), FORM, opts, kind, d.fields);
      case 'interaction': {
        const body = new URLSearchParams({ payload: JSON.stringify(d.payload) }).toString();
        return this.raw(body, FORM, opts, kind, d.payload);
      }
      case 'event': {
        const headers = { ...opts.headers };
        if (d.retryNum !== undefined) {
          headers['X-Slack-Retry-Num'] = String(d.retryNum);
          headers['X-Slack-Retry-Reason'] = d.retryReason ?? 'http_timeout';
        }
        return this.raw(JSON.stringify(d.envelope), 'application/json', { ...opts, headers }, kind, d.envelope);
      }
    }
  }

  /** A Socket Mode envelope carrying the same payload; resolves with the app's ack message. */
  private async overSocket(d: Delivery, opts: SendOptions, kind: string): Promise<AckResponse> {
    const httpOnly = HTTP_ONLY.filter((k) => opts[k] !== undefined);
    if (httpOnly.length) {
      throw new Error(`slack driver: ${httpOnly.join(', ')} only apply to signed HTTP requests, not Socket Mode`);
    }
    const payload: Json = d.kind === 'command' ? d.fields : d.kind === 'interaction' ? d.payload : d.envelope;
    const type = d.kind === 'command' ? 'slash_commands' : d.kind === 'interaction' ? 'interactive' : 'events_api';
    // Slack takes a response in the ack of commands, view submissions and options requests only.
    const acceptsResponsePayload =
      d.kind === 'command' ||
      (d.kind === 'interaction' && (d.payload.type === 'view_submission' || d.payload.type === 'block_suggestion'));
    const ack = await this.fake.socket.send(type, payload, {
      acceptsResponsePayload,
      ...(d.kind === 'event' && d.retryNum !== undefined
        ? { retryAttempt: d.retryNum, retryReason: d.retryReason ?? 'timeout' }
        : {}),
      timeoutMs: this.timeoutMs,
    });
    const answer = isObj(ack.payload) && Object.keys(ack.payload).length === 0 ? undefined : ack.payload;
    const response: AckResponse = {
      status: 200,
      body: answer === undefined ? '' : JSON.stringify(answer),
      json: answer,
      headers: {},
      sentAt: ack.sentAt,
      respondedAt: ack.ackedAt,
      seq: ack.seq,
      payload,
    };
    this.logExchange({ kind, payload, response });
    return response;
  }

  private interaction(payload: Json, opts: SendOptions) {
    return this.deliver({ kind: 'interaction', payload }, opts, String(payload.type));
  }

  /** A slash command, e.g. command('start 42'). */
  async command(
    text: string,
    opts: SendOptions & { userId?: string; channelId?: string; command?: string; channelName?: string } = {},
  ): Promise<CommandResult> {
    const userId = opts.userId ?? this.userId;
    const channelId = opts.channelId ?? this.channelId;
    const triggerId = this.fake.issueTriggerId({ userId });
    const responseUrl = this.fake.issueResponseUrl({ channelId, userId });
    const fields = {
      token: 'verification-token-unused',
      team_id: this.fake.teamId,
      team_domain: this.fake.teamDomain,
      channel_id: channelId,
      channel_name: opts.channelName ?? String(this.channel(channelId).name),
      user_id: userId,
      user_name: userId.toLowerCase(),
      command: opts.command ?? '/campaign',
      text,
      api_app_id: this.fake.appId,
      is_enterprise_install: 'false',
      response_url: responseUrl,
      trigger_id: triggerId,
    };
    const r = await this.deliver({ kind: 'command', fields }, opts, 'command');
    // Slack shows a command's ack body to the person: it is checked like everything else the app sends.
    if (r.status === 200 && r.json !== undefined) this.fake.checkOutgoing('command ack', r.json);
    return { ...r, triggerId, responseUrl };
  }

  /** A click / selection in a message (messageTs), a modal or the Home tab (view). */
  async blockAction(opts: BlockActionOptions): Promise<InteractionResult> {
    const userId = opts.userId ?? this.userId;
    const triggerId = this.fake.issueTriggerId({ userId });
    const where = this.clickedIn(opts, userId);
    const found = findElement(where.blocks, opts.actionId, opts.blockId);
    if ((where.message || where.ephemeral || where.view) && !found) {
      const surface = where.view ? 'view' : 'message';
      throw new Error(`slack driver: no element with action_id ${opts.actionId} in the ${surface}`);
    }
    const payload: Json = {
      type: 'block_actions',
      user: this.user(userId),
      api_app_id: this.fake.appId,
      token: 'verification-token-unused',
      trigger_id: triggerId,
      team: this.team(),
      enterprise: null,
      is_enterprise_install: false,
      actions: [clickedAction(opts, found)],
    };
    const responseUrl = this.placeClick(payload, where, opts, userId);
    const r = await this.interaction(payload, opts);
    return { ...r, triggerId, responseUrl };
  }

  /**
   * The surface a click is in: an ephemeral message, a message (in the ephemeral's channel if both are given), a
   * view, or none (a click from nowhere); the blocks searched for the element are the last of these given.
   */
  private clickedIn(opts: BlockActionOptions, userId: string): ClickSurface {
    const where: ClickSurface = { channelId: opts.channelId, blocks: undefined };
    if (opts.ephemeralTs) {
      const ephemeral = this.fake.ephemerals().find((e) => e.message_ts === opts.ephemeralTs && e.user === userId);
      if (!ephemeral) throw new Error(`slack driver: no ephemeral message ${opts.ephemeralTs} shown to ${userId}`);
      Object.assign(where, { ephemeral, channelId: ephemeral.channel, blocks: ephemeral.blocks });
    }
    if (opts.messageTs) {
      const channelId = where.channelId ?? this.channelId;
      const message = this.fake.message(channelId, opts.messageTs);
      if (!message) throw new Error(`slack driver: no message ${opts.messageTs} in ${channelId} to click in`);
      Object.assign(where, { message, channelId, blocks: message.blocks });
    }
    if (opts.view !== undefined) {
      const view = typeof opts.view === 'string' ? this.fake.view(opts.view) : structuredClone(opts.view);
      if (!view) throw new Error(`slack driver: no view ${String(opts.view)} in the fake`);
      if (opts.stateValues) view.state = { values: opts.stateValues };
      Object.assign(where, { view, blocks: view.blocks });
    }
    return where;
  }

  /**
   * The payload's container, channel, state and response_url as Slack sends them for a click in `where`; the
   * response_url issued, if any.
   */
  private placeClick(payload: Json, where: ClickSurface, opts: BlockActionOptions, userId: string): string | undefined {
    const { message, ephemeral, view, channelId } = where;
    let responseUrl: string | undefined;
    if (message && channelId) {
      const { updates: _u, channel: _c, ...msg } = message;
      responseUrl = this.fake.issueResponseUrl({ channelId, userId, messageTs: message.ts });
      payload.container = {
        type: 'message',
        message_ts: message.ts,
        channel_id: channelId,
        is_ephemeral: false,
        ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      };
      payload.channel = this.channel(channelId);
      payload.message = msg;
      payload.state = { values: opts.stateValues ?? {} };
      payload.response_url = responseUrl;
    } else if (ephemeral) {
      // Slack sends no `message` for a click in an ephemeral one; its response_url can replace or delete it.
      responseUrl = this.fake.issueResponseUrl({
        channelId: ephemeral.channel,
        userId,
        ephemeralTs: ephemeral.message_ts,
      });
      payload.container = {
        type: 'message',
        message_ts: ephemeral.message_ts,
        channel_id: ephemeral.channel,
        is_ephemeral: true,
        ...(ephemeral.thread_ts ? { thread_ts: ephemeral.thread_ts } : {}),
      };
      payload.channel = this.channel(ephemeral.channel);
      payload.state = { values: opts.stateValues ?? {} };
      payload.response_url = responseUrl;
    } else if (view) {
      payload.container = { type: 'view', view_id: view.id };
      payload.view = view;
      if (channelId) payload.channel = this.channel(channelId);
    } else {
      if (channelId) {
        responseUrl = this.fake.issueResponseUrl({ channelId, userId });
        payload.channel = this.channel(channelId);
        payload.response_url = responseUrl;
      }
      payload.container = { type: 'message', channel_id: channelId, is_ephemeral: false };
      if (opts.stateValues) payload.state = { values: opts.stateValues };
    }
    return responseUrl;
  }

  /**
   * A person types in an external select of a view: Slack's block_suggestion, answered in the ack with
   * `{ options }` or `{ option_groups }`.
   */
  async suggestion(
    opts: SendOptions & { viewId: string; actionId: string; blockId?: string; value: string; userId?: string },
  ): Promise<AckResponse> {
    const view = this.fake.view(opts.viewId);
    if (!view) throw new Error(`slack driver: no view ${opts.viewId} in the fake`);
    const found = findElement(view.blocks, opts.actionId, opts.blockId);
    if (!found || !String(found.element.type).includes('external_select')) {
      throw new Error(`slack driver: view ${opts.viewId} has no external select with action_id ${opts.actionId}`);
    }
    const userId = opts.userId ?? this.fake.viewOwner(opts.viewId) ?? this.userId;
    const payload: Json = {
      type: 'block_suggestion',
      user: this.user(userId),
      container: { type: 'view', view_id: view.id },
      api_app_id: this.fake.appId,
      token: 'verification-token-unused',
      action_id: opts.actionId,
      block_id: found.block.block_id,
      value: opts.value,
      team: this.team(),
      enterprise: null,
      is_enterprise_install: false,
      view,
    };
    const { viewId: _v, actionId: _a, blockId: _b, value: _x, userId: _u, ...send } = opts;
    return this.interaction(payload, send);
  }

  /** The user presses the submit button of a modal. */
  async viewSubmission(opts: ViewSubmissionOptions): Promise<ViewSubmissionResult> {
    let view: Json;
    let userId = opts.userId ?? this.userId;
    if (opts.viewId) {
      const stored = this.fake.view(opts.viewId);
      if (!stored) throw new Error(`slack driver: no view ${opts.viewId} in the fake`);
      if (!this.fake.openViews().some((v) => v.id === opts.viewId)) {
        throw new Error(`slack driver: view ${opts.viewId} is not open; nobody can submit it`);
      }
      if (opts.callbackId !== undefined && stored.callback_id !== opts.callbackId) {
        throw new Error(
          `slack driver: view ${opts.viewId} has callback_id ${String(stored.callback_id)}, not ${opts.callbackId}`,
        );
      }
      userId = opts.userId ?? this.fake.viewOwner(opts.viewId) ?? userId;
      view = stored;
    } else {
      if (!opts.callbackId) throw new Error('slack driver: viewSubmission needs viewId or callbackId');
      const id = `V${randomBytes(5).toString('hex').toUpperCase()}`;
      view = {
        id,
        team_id: this.fake.teamId,
        type: 'modal',
        blocks: [],
        private_metadata: '',
        callback_id: opts.callbackId,
        state: { values: {} },
        hash: `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`,
        title: { type: 'plain_text', text: 'Modal', emoji: true },
        clear_on_close: false,
        notify_on_close: false,
        close: null,
        submit: { type: 'plain_text', text: 'Submit', emoji: true },
        previous_view_id: null,
        root_view_id: id,
        app_id: this.fake.appId,
        external_id: '',
        app_installed_team_id: this.fake.teamId,
        bot_id: this.fake.botId,
      };
    }
    if (opts.privateMetadata !== undefined) view.private_metadata = opts.privateMetadata;
    if (opts.hash !== undefined) view.hash = opts.hash;
    view.state = { values: this.submissionValues(view, opts) };
    const triggerId = this.fake.issueTriggerId({ userId });
    const payload: Json = {
      type: 'view_submission',
      team: this.team(),
      user: this.user(userId),
      api_app_id: this.fake.appId,
      token: 'verification-token-unused',
      trigger_id: triggerId,
      view,
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const r = await this.interaction(payload, opts);
    const result: ViewSubmissionResult = { ...r, triggerId };
    if (opts.viewId && r.status === 200) {
      result.viewResult = this.fake.applyViewSubmissionAck(opts.viewId, r.json ?? (r.body === '' ? undefined : r.body));
    }
    return result;
  }

  /** state.values as Slack builds them: every input block, given values over initial ones. */
  private submissionValues(view: Json, opts: ViewSubmissionOptions): Json {
    const given = structuredClone(opts.values ?? {});
    const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isObj) : [];
    if (blocks.length === 0) return given; // synthetic view: take the values as they are
    const inputs = blocks.filter((b) => b.type === 'input' && isObj(b.element));
    for (const [blockId, entry] of Object.entries(given)) {
      const block = inputs.find((b) => b.block_id === blockId);
      if (!block) throw new Error(`slack driver: view ${String(view.id)} has no input block ${blockId}`);
      const actionId = (block.element as Json).action_id;
      for (const k of Object.keys(isObj(entry) ? entry : {})) {
        if (k !== actionId)
          throw new Error(`slack driver: input block ${blockId} holds action_id ${String(actionId)}, not ${k}`);
      }
    }
    const values: Json = {};
    for (const b of inputs) {
      const el = b.element as Json;
      const blockId = String(b.block_id);
      const actionId = String(el.action_id);
      const entry = isObj(given[blockId]) ? (given[blockId] as Json) : {};
      const v = isObj(entry[actionId]) ? (entry[actionId] as Json) : untouchedValue(el);
      if (!opts.allowEmptyRequired && b.optional !== true && isEmptyValue(v)) {
        throw new Error(`slack driver: required input ${blockId} is empty; Slack would not let the user submit`);
      }
      values[blockId] = { [actionId]: v };
    }
    return values;
  }

  /** The user closes a modal (only sent by Slack when the view has notify_on_close). */
  async viewClosed(opts: SendOptions & { viewId: string; userId?: string; isCleared?: boolean }): Promise<AckResponse> {
    const view = this.fake.view(opts.viewId);
    if (!view) throw new Error(`slack driver: no view ${opts.viewId} in the fake`);
    if (view.notify_on_close !== true) {
      throw new Error(
        `slack driver: view ${opts.viewId} has no notify_on_close, so Slack sends no view_closed; ` +
          'use fake.closeView() to close it silently',
      );
    }
    const userId = opts.userId ?? this.fake.viewOwner(opts.viewId) ?? this.userId;
    this.fake.closeView(opts.viewId, { isCleared: opts.isCleared });
    const payload: Json = {
      type: 'view_closed',
      team: this.team(),
      user: this.user(userId),
      api_app_id: this.fake.appId,
      token: 'verification-token-unused',
      view,
      is_cleared: opts.isCleared ?? false,
      is_enterprise_install: false,
      enterprise: null,
    };
    return this.interaction(payload, opts);
  }

  /** An Events API delivery of `event` (event_callback envelope). */
  async event(event: Json, opts: EventOptions = {}): Promise<AckResponse> {
    const nowSec = Date.now() / 1000;
    const inner: Json = { event_ts: nowSec.toFixed(6), ...event };
    const envelope: Json = {
      token: 'verification-token-unused',
      team_id: this.fake.teamId,
      context_team_id: this.fake.teamId,
      context_enterprise_id: null,
      api_app_id: this.fake.appId,
      event: inner,
      type: 'event_callback',
      event_id: opts.eventId ?? `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
      event_time: opts.eventTime ?? Math.floor(nowSec),
      authorizations: [
        {
          enterprise_id: null,
          team_id: this.fake.teamId,
          user_id: this.fake.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: Boolean(
        typeof event.channel === 'string' && this.fake.channel(event.channel)?.isExtShared,
      ),
      event_context: `4-${randomBytes(8).toString('hex')}`,
    };
    const { eventId: _id, eventTime: _time, retryNum, retryReason, ...send } = opts;
    return this.deliver(
      {
        kind: 'event',
        envelope,
        ...(retryNum !== undefined ? { retryNum } : {}),
        ...(retryReason !== undefined ? { retryReason } : {}),
      },
      send,
      `event:${String(event.type)}`,
    );
  }

  /**
   * A person posts a message (a thread reply when threadTs is given): it is stored in the fake (so
   * conversations.replies sees it) and delivered to the app as a `message` event.
   */
  async userMessage(
    opts: EventOptions & {
      text: string;
      channelId?: string;
      userId?: string;
      threadTs?: string;
      files?: FakeFileObject[];
    },
  ): Promise<{ ack: AckResponse; message: FakeMessage }> {
    const channelId = opts.channelId ?? this.channelId;
    const userId = opts.userId ?? this.userId;
    const clientMsgId = randomBytes(16).toString('hex');
    const message = this.fake.addMessage(channelId, {
      user: userId,
      text: opts.text,
      thread_ts: opts.threadTs,
      client_msg_id: clientMsgId,
      ...(opts.files ? { files: opts.files, subtype: 'file_share', upload: false } : {}),
    });
    const ch = this.fake.channel(message.channel);
    // The author's team: `team` and `user_team` name it, `source_team` the team the message was sent from (another
    // organization's for a Slack Connect member).
    const team = this.fake.userTeamId(userId);
    const event: Json = {
      type: 'message',
      channel: message.channel,
      user: userId,
      text: opts.text,
      ts: message.ts,
      team,
      user_team: team,
      source_team: team,
      client_msg_id: clientMsgId,
      blocks: [
        {
          type: 'rich_text',
          block_id: randomBytes(3).toString('hex'),
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: opts.text }] }],
        },
      ],
      channel_type: ch?.isIm ? 'im' : ch?.isPrivate ? 'group' : 'channel',
      event_ts: message.ts,
    };
    if (message.thread_ts) {
      event.thread_ts = message.thread_ts;
      if (message.parent_user_id) event.parent_user_id = message.parent_user_id;
    }
    if (opts.files) {
      event.subtype = 'file_share';
      event.files = opts.files;
      event.upload = false;
    }
    const ack = await this.event(event, opts);
    return { ack, message };
  }

  /** The user opens the app's Home tab. */
  appHomeOpened(opts: EventOptions & { userId?: string; tab?: 'home' | 'messages' } = {}): Promise<AckResponse> {
    const userId = opts.userId ?? this.userId;
    const view = this.fake.publishedHome(userId);
    return this.event(
      {
        type: 'app_home_opened',
        user: userId,
        channel: this.fake.dmChannel(userId) ?? `D${userId.slice(1)}`,
        tab: opts.tab ?? 'home',
        ...(view ? { view } : {}),
      },
      opts,
    );
  }

  /** Slack's URL verification handshake. */
  urlVerification(challenge: string, opts: SendOptions = {}): Promise<AckResponse> {
    const body: Json = { token: 'verification-token-unused', challenge, type: 'url_verification' };
    return this.raw(JSON.stringify(body), 'application/json', opts, 'url_verification', body);
  }
}
