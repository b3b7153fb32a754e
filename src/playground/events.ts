/**
 * The page's live stream: Server-Sent Events, one JSON `PageEvent` per `data:` line, each sent only to the people
 * who may see it (a channel's members, the one person of an ephemeral, a modal or a Home tab; everyone for the
 * service's panel and refusals). `watchEmulator` turns the emulator's changes into those events.
 */
import type { ServerResponse } from 'node:http';
import type { EmulatorChange, FakeSlack } from '../emulator/fake-slack.js';
import type { PageEvent, PageRefusal } from './api.js';
import { channelAudience, pageChannel, pageEphemeral, pageMessage, pageView } from './shapes.js';

/** Browsers reconnect an EventSource by themselves; a comment now and then keeps proxies from closing it. */
const KEEPALIVE_MS = 20_000;
/** Open streams at most (each tab of each person is one): a page left open many times cannot pile them up. */
const MAX_STREAMS = 100;

type Audience = 'everyone' | readonly string[];

export class EventStreams {
  private readonly streams = new Map<ServerResponse, string>();
  private readonly keepalive: NodeJS.Timeout;

  constructor() {
    this.keepalive = setInterval(() => {
      for (const res of this.streams.keys()) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** Starts a person's stream on `res`; false when too many are open already. */
  open(res: ServerResponse, userId: string, headers: Record<string, string>): boolean {
    if (this.streams.size >= MAX_STREAMS) return false;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    this.streams.set(res, userId);
    res.on('close', () => this.streams.delete(res));
    return true;
  }

  publish(event: PageEvent, audience: Audience): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const [res, userId] of this.streams) {
      if (audience === 'everyone' || audience.includes(userId)) res.write(line);
    }
  }

  close(): void {
    clearInterval(this.keepalive);
    for (const res of this.streams.keys()) res.end();
    this.streams.clear();
  }
}

/** Answers Slack gives in the ordinary course (a lookup that finds nobody): not refusals worth showing. */
const ORDINARY_ERRORS = new Set(['users_not_found', 'already_reacted', 'no_reaction']);

export interface EmulatorWatch {
  streams: EventStreams;
  /** A modal's errors under its fields, by view id (set by view submissions, cleared when the app rewrites it). */
  errors: Map<string, Record<string, string>>;
  /** Each refusal, as it is shown (the playground keeps the last few and logs it). */
  refused(refusal: PageRefusal): void;
}

/** Streams every change of the emulator's workspace to the people who see it; returns the unsubscribe. */
export function watchEmulator(emulator: FakeSlack, w: EmulatorWatch): () => void {
  return emulator.onChange((change: EmulatorChange) => {
    switch (change.kind) {
      case 'message': {
        const m = emulator.message(change.channel, change.ts);
        if (m) w.streams.publish({ type: 'message', message: pageMessage(m) }, audienceOf(emulator, change.channel));
        return;
      }
      case 'message_deleted':
        w.streams.publish(
          { type: 'message_deleted', channel: change.channel, ts: change.ts },
          audienceOf(emulator, change.channel),
        );
        return;
      case 'ephemeral':
        w.streams.publish({ type: 'ephemeral', ephemeral: pageEphemeral(change.ephemeral) }, [change.ephemeral.user]);
        return;
      case 'view': {
        const view = emulator.view(change.viewId);
        const owner = emulator.viewOwner(change.viewId);
        if (!view || !owner) return;
        w.errors.delete(change.viewId);
        const shown = pageView(view);
        w.streams.publish(shown.type === 'home' ? { type: 'home', view: shown } : { type: 'modal', view: shown }, [
          owner,
        ]);
        return;
      }
      case 'view_closed': {
        w.errors.delete(change.viewId);
        const owner = emulator.viewOwner(change.viewId);
        if (owner) w.streams.publish({ type: 'modal_closed', id: change.viewId }, [owner]);
        return;
      }
      case 'channel': {
        const ch = emulator.channel(change.channel);
        if (ch) w.streams.publish({ type: 'channel', channel: pageChannel(ch) }, channelAudience(ch));
        return;
      }
      case 'refusal': {
        if (ORDINARY_ERRORS.has(change.refusal.error)) return;
        const refusal: PageRefusal = { at: new Date().toISOString(), ...change.refusal };
        w.refused(refusal);
        w.streams.publish({ type: 'refusal', refusal }, 'everyone');
        return;
      }
    }
  });
}

function audienceOf(emulator: FakeSlack, channelId: string): string[] {
  return channelAudience(emulator.channel(channelId));
}
