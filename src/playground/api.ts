/**
 * The playground's page protocol: what the page in the browser (src/playground/web/) and the playground's server
 * (the Slack emulator, src/emulator/, wired by src/playground/) say to each other. Everything is under
 * `/playground/api/` on the playground's one port; the page itself is served at `/`.
 *
 * The page loads a person's view of the workspace once (`GET state?as=<userId>`; without `as`, as the page is at
 * `/` with no `?as=`, the state of the first of the playground's people), then applies what the server
 * streams (`GET events?as=<userId>`, Server-Sent Events, one JSON `PageEvent` per `data:` line). Each person sees
 * only their own ephemeral messages, modals and Home tab. What a person does goes back as a POST with a JSON body
 * (`PageRequest` types below, each with `as`: who is acting); the server turns it into what Slack would send the
 * app (a slash command, a message event, a block_actions or view_submission payload, correctly signed, or a Socket
 * Mode envelope) and answers when the app has acknowledged it.
 *
 * Slack's own objects (messages' `blocks`, views) pass through as the app sent them: the page draws them.
 */

export type Json = Record<string, unknown>;

/** Who one can be on the page: the people of the playground's workspace. */
export interface PageUser {
  id: string;
  /** The name shown on messages and in the switcher. */
  name: string;
  /** Slack's locale of the person (`es-MX`, `en-US`): the app answers them in it. */
  locale: string;
  /** What the switcher says the person is (admin, responder, read-only member, guest, other company). */
  role: 'admin' | 'responder' | 'member' | 'readonly' | 'guest' | 'external';
  /** The person's team: another company's for a Slack Connect member. */
  teamId: string;
  isBot?: boolean;
}

export interface PageChannel {
  id: string;
  /** Without `#`; for a DM with the app, the app's name. */
  name: string;
  kind: 'public' | 'private' | 'shared' | 'im';
  /** The people in it (a DM: the person and the app). */
  members: string[];
  /** Whether the app's bot is in it. */
  botIsMember: boolean;
}

/** A file in a message, or one a person gave to a `file_input`. `url` is the page's own, without any token. */
export interface PageFile {
  id: string;
  name: string;
  title?: string;
  mimetype: string;
  /** `/playground/files/<id>`: the file's bytes, served to the page. */
  url: string;
}

export interface PageMessage {
  channel: string;
  ts: string;
  /** The author: a person's id or the app's bot user. */
  user: string;
  botId?: string;
  text: string;
  blocks?: Json[];
  attachments?: Json[];
  thread_ts?: string;
  reply_count?: number;
  latest_reply?: string;
  reactions?: { name: string; users: string[]; count: number }[];
  files?: PageFile[];
  /** Set once chat.update changed it. */
  edited?: boolean;
}

/** "Only visible to you": for the one person it was sent to. */
export interface PageEphemeral {
  id: string;
  channel: string;
  text: string;
  blocks?: Json[];
  thread_ts?: string;
  ts: string;
}

/** A modal (in the person's stack, bottom first) or the person's Home tab, as the app last wrote it. */
export interface PageView {
  id: string;
  type: 'modal' | 'home';
  /** Slack's view object: title, blocks, submit, close, ... (private_metadata is not sent to the page). */
  view: Json;
  /** Errors a view_submission's `response_action: "errors"` put under its blocks, by block_id. */
  errors?: Record<string, string>;
}

/** Something the emulator refused as Slack would, named by method and JSON path: shown on the page. */
export interface PageRefusal {
  at: string;
  method: string;
  error: string;
  /** JSON path of the part refused (`blocks[3].text.text`), when there is one. */
  path?: string;
  detail?: string;
}

/** The service's side, from the simulator: what the panel to play it acts on. */
export interface PageService {
  campaigns: { id: number; name: string; status: string }[];
  /** Calls of the last few minutes, newest first. */
  calls: { campaignId: number; callId: string; status: string; endUser: string; threadId?: string }[];
  /** Whether the service is taken down (the panel's outage). */
  down: boolean;
  billingLimitReached: boolean;
}

export interface PageState {
  team: { id: string; name: string };
  app: { botUserId: string; name: string };
  /** The slash command and its usage hint, from manifest.yml. */
  command: { name: string; usageHint: string; description: string };
  me: string;
  users: PageUser[];
  /** Channels the person is in, and their DM with the app. */
  channels: PageChannel[];
  /** Every message of those channels, replies too (a reply has `thread_ts` other than its `ts`), oldest first. */
  messages: Record<string, PageMessage[]>;
  ephemerals: PageEphemeral[];
  home?: PageView;
  modals: PageView[];
  refusals: PageRefusal[];
  service: PageService;
}

/** One SSE `data:` line. */
export type PageEvent =
  | { type: 'message'; message: PageMessage }
  | { type: 'message_deleted'; channel: string; ts: string }
  | { type: 'ephemeral'; ephemeral: PageEphemeral }
  | { type: 'channel'; channel: PageChannel }
  | { type: 'home'; view: PageView }
  | { type: 'modal'; view: PageView }
  | { type: 'modal_closed'; id: string }
  | { type: 'refusal'; refusal: PageRefusal }
  | { type: 'service'; service: PageService };

/** Slack's `view.state.values` of one input element, as the page fills it. */
export type ElementValue =
  | { type: 'plain_text_input' | 'number_input' | 'email_text_input' | 'url_text_input'; value: string | null }
  | { type: 'static_select' | 'external_select' | 'radio_buttons'; selected_option: Json | null }
  | { type: 'multi_static_select' | 'multi_external_select' | 'checkboxes'; selected_options: Json[] }
  | { type: 'datepicker'; selected_date: string | null }
  | { type: 'timepicker'; selected_time: string | null }
  | { type: 'users_select'; selected_user: string | null }
  | { type: 'conversations_select' | 'channels_select'; selected_conversation: string | null }
  | { type: 'file_input'; files: PageFile[] };

export type ViewValues = Record<string, Record<string, ElementValue>>;

/** Where a clicked element is. */
export type ActionSource =
  | { kind: 'message'; channel: string; ts: string }
  | { kind: 'ephemeral'; id: string }
  | { kind: 'view'; viewId: string };

/** The element acted on, as Slack's block_actions `actions[0]` has it. */
export interface PageAction {
  action_id: string;
  block_id: string;
  type: string;
  value?: string;
  selected_option?: Json;
  selected_options?: Json[];
  selected_date?: string;
  selected_time?: string;
}

/** POST bodies, by path under /playground/api/. Each answers `{ ok: true }` or `{ ok: false, error }`. */
export interface PageRequests {
  /** Text typed in a composer: a `/command …` is a slash command, anything else a message (in a thread with `thread_ts`). */
  message: { as: string; channel: string; text: string; thread_ts?: string };
  /** A button, menu, picker or select acted on (`values`: the view's inputs as they are, for a view). */
  action: { as: string; source: ActionSource; action: PageAction; values?: ViewValues };
  /** Answers `{ ok: true }` once the modal closed or changed, or `{ ok: false, errors }` under its fields. */
  'view/submit': { as: string; viewId: string; values: ViewValues };
  'view/close': { as: string; viewId: string };
  /** A search in an external select: answers `{ ok: true, options, option_groups? }` from the app. */
  suggestion: { as: string; viewId: string; action_id: string; block_id: string; value: string };
  /** The Home or Messages tab opened. */
  'app-home': { as: string; tab: 'home' | 'messages' };
  /** The service's side (the simulator's controls). */
  'service/end-call': { as: string; campaignId: number; callId: string };
  'service/end-user-writes': { as: string; threadId: string; text: string };
  'service/campaign-status': { as: string; campaignId: number; status: 'paused' | 'active' | 'finished' };
  'service/billing-limit': { as: string; reached: boolean };
  'service/outage': { as: string; seconds: number };
}

/**
 * `POST /playground/api/files?as=<userId>&name=<file name>`, the file's bytes as the body (Content-Type its type):
 * hosted as a Slack file, answered `{ ok: true, file: PageFile }`, for a `file_input`'s value.
 */
export const FILES_PATH = '/playground/api/files';
export const API_PREFIX = '/playground/api/';
