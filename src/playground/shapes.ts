/**
 * The emulator's objects as the page protocol (api.ts) has them: messages, ephemerals, channels, views, files; and a
 * person's whole view of the workspace (`PageState`). Slack's own parts (blocks, views) pass through as the app sent
 * them, without what the page must not see (a view's private_metadata, files' private URLs).
 */
import type { FakeChannel, FakeEphemeral, FakeMessage, FakeSlack } from '../emulator/fake-slack.js';
import type {
  Json,
  PageChannel,
  PageEphemeral,
  PageFile,
  PageMessage,
  PageRefusal,
  PageService,
  PageState,
  PageView,
} from './api.js';
import { APP, CHANNELS, TEAM, pageUsers } from './workspace.js';

/** The slash command as manifest.yml declares it (its usage hint is what Slack's composer shows). */
export interface CommandInfo {
  name: string;
  usageHint: string;
  description: string;
}

export const FILES_URL = '/playground/files/';

export function pageFile(file: Json): PageFile | undefined {
  if (typeof file.id !== 'string' || file.mode === 'tombstone') return undefined;
  return {
    id: file.id,
    name: String(file.name ?? file.id),
    ...(typeof file.title === 'string' ? { title: file.title } : {}),
    mimetype: String(file.mimetype ?? 'application/octet-stream'),
    url: `${FILES_URL}${encodeURIComponent(file.id)}`,
  };
}

export function pageMessage(m: FakeMessage): PageMessage {
  const files = (m.files ?? []).map(pageFile).filter((f): f is PageFile => f !== undefined);
  return {
    channel: m.channel,
    ts: m.ts,
    user: m.user,
    ...(m.bot_id ? { botId: m.bot_id } : {}),
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks as Json[] } : {}),
    ...(m.attachments ? { attachments: m.attachments as Json[] } : {}),
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    ...(m.reply_count !== undefined ? { reply_count: m.reply_count } : {}),
    ...(m.latest_reply ? { latest_reply: m.latest_reply } : {}),
    ...(m.reactions ? { reactions: m.reactions } : {}),
    ...(files.length ? { files } : {}),
    ...(m.edited ? { edited: true } : {}),
  };
}

export function pageEphemeral(e: FakeEphemeral): PageEphemeral {
  return {
    id: e.message_ts,
    channel: e.channel,
    text: e.text,
    ...(e.blocks ? { blocks: e.blocks as Json[] } : {}),
    ...(e.thread_ts ? { thread_ts: e.thread_ts } : {}),
    ts: e.message_ts,
  };
}

export function pageChannel(ch: FakeChannel): PageChannel {
  if (ch.isIm) {
    return { id: ch.id, name: APP.name, kind: 'im', members: [ch.user ?? '', APP.botUserId], botIsMember: true };
  }
  return {
    id: ch.id,
    name: ch.name,
    kind: ch.isExtShared ? 'shared' : ch.isPrivate ? 'private' : 'public',
    members: [...(ch.members ?? [])],
    botIsMember: ch.isMember,
  };
}

/** A view as the page gets it: no private_metadata (the app's own state, not shown by Slack either). */
export function pageView(view: Json, errors?: Record<string, string>): PageView {
  const { private_metadata: _hidden, ...shown } = view;
  return {
    id: String(view.id),
    type: view.type === 'home' ? 'home' : 'modal',
    view: shown,
    ...(errors && Object.keys(errors).length ? { errors } : {}),
  };
}

/** Who sees what happens in a channel: its members, or the person of a DM. */
export function channelAudience(ch: FakeChannel | undefined): string[] {
  if (!ch) return [];
  return ch.isIm ? (ch.user ? [ch.user] : []) : [...(ch.members ?? [])];
}

export interface StateSources {
  emulator: FakeSlack;
  command: CommandInfo;
  refusals: readonly PageRefusal[];
  service: PageService;
  errors: ReadonlyMap<string, Record<string, string>>;
}

/** Everything one person sees: their channels and DM with the app, their ephemerals, modals and Home tab. */
export function pageState(me: string, s: StateSources): PageState {
  const channels = [...CHANNELS.map((c) => s.emulator.channel(c.id)), s.emulator.dm(me)].filter(
    (ch): ch is FakeChannel => ch !== undefined && channelAudience(ch).includes(me),
  );
  const messages: Record<string, PageMessage[]> = {};
  for (const ch of channels) {
    messages[ch.id] = s.emulator.messages(ch.id, { includeReplies: true }).map(pageMessage);
  }
  const home = s.emulator.publishedHome(me);
  return {
    team: { id: TEAM.id, name: TEAM.name },
    app: { botUserId: APP.botUserId, name: APP.name },
    command: s.command,
    me,
    users: pageUsers(),
    channels: channels.map(pageChannel),
    messages,
    ephemerals: s.emulator
      .ephemerals()
      .filter((e) => e.user === me)
      .map(pageEphemeral),
    ...(home ? { home: pageView(home) } : {}),
    modals: s.emulator.openViews(me).map((v) => pageView(v, s.errors.get(String(v.id)))),
    refusals: [...s.refusals],
    service: s.service,
  };
}
