/**
 * The upload's one Slack message: posted once, then rewritten in place with chat.update at most once per
 * `minIntervalMs` (chat.update is Tier 3, about 50 a minute), always showing the latest state: updates asked for
 * in between are merged into the next one. The final summary waits for the interval too, so the rhythm holds to the
 * end.
 *
 * Posted once across a kill: the runner marks the job before each post of it (src/watch/poster.ts `postOnce`), and
 * the message carries the job's id in its metadata, so whoever takes the job over and finds the mark without a `ts`
 * looks the message up (in the channel, then in the uploader's DM) before posting it again (`progressPoster`).
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../log.js';
import type { SlackMessage } from '../../render/types.js';
import type { OncePoster, OutgoingMessage } from '../../watch/poster.js';
import { findPostedMessage, lookupFrom } from '../message-lookup.js';
import { errorSummary } from '../middleware/errors.js';
import { platformError } from '../platform.js';

export interface MessageRef {
  channel: string;
  ts: string;
}

/** The metadata an upload's progress message carries: which job it shows. */
export function progressMetadata(jobId: string): NonNullable<OutgoingMessage['metadata']> {
  return { event_type: 'outreach_upload', event_payload: { job_id: jobId } };
}

/** Posts `msg` as a new message in `channel`. */
async function postMessage(client: WebClient, channel: string, msg: OutgoingMessage): Promise<MessageRef> {
  const res = await client.chat.postMessage({
    channel,
    text: msg.text,
    ...(msg.blocks ? { blocks: msg.blocks } : {}),
    ...(msg.metadata ? { metadata: msg.metadata } : {}),
    unfurl_links: false,
    unfurl_media: false,
  });
  if (!res.ts || !res.channel) throw new Error('chat.postMessage answered without ts/channel');
  return { channel: res.channel, ts: res.ts };
}

/**
 * Posts `msg` in `channelId`; when the app can't post there (not invited, archived, no channel), in the person's DM
 * instead, with a note saying why.
 */
async function postProgressMessage(
  client: WebClient,
  logger: Logger,
  channelId: string | undefined,
  userId: string,
  msg: OutgoingMessage,
): Promise<MessageRef> {
  if (channelId && channelId !== userId) {
    try {
      return await postMessage(client, channelId, msg);
    } catch (err) {
      logger.warn({ err: errorSummary(err), channel: channelId }, 'could not post the upload progress in the channel');
    }
  }
  return postMessage(client, userId, msg);
}

/**
 * The progress message's poster for `postOnce`: posts in the channel, else in the uploader's DM; finds an earlier
 * post of it (by its metadata, since the mark) in the channel, then in the DM. Slack cannot tell when the bot is not
 * in the channel (a public channel it posts in without joining): the message is posted again then.
 */
export function progressPoster(client: WebClient, logger: Logger, userId: string): OncePoster {
  return {
    post: (channel, msg) => postProgressMessage(client, logger, channel, userId, msg),
    async find(channel, msg, sinceMs) {
      const places = channel === userId ? [] : [channel];
      const dm = await client.conversations.open({ users: userId }).then(
        (r) => r.channel?.id,
        () => undefined,
      );
      if (dm && !places.includes(dm)) places.push(dm);
      for (const place of places) {
        const found = await findPostedMessage(client, place, msg, lookupFrom(sinceMs), logger);
        if (found) return found;
      }
      return undefined;
    },
  };
}

export class ProgressMessage {
  /** As if just written: the message was just posted, or (after a restart) may have been updated a moment ago. */
  private lastSentAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> | undefined;
  private wanted = false;
  private closed = false;

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    public ref: MessageRef,
    private readonly minIntervalMs: number,
    /** The latest state of the message, rendered when an update is actually sent. */
    private readonly render: () => SlackMessage,
    /** Posts the message again when the old one was deleted (once, recorded: the runner's `postProgress`). */
    private readonly repost: (msg: SlackMessage) => Promise<MessageRef>,
  ) {}

  /** Asks for an update; it is sent when the interval allows, with the state at that time. */
  request(): void {
    if (this.closed) return;
    this.wanted = true;
    this.arm();
  }

  /** Replaces the message with `msg` (after any update in flight, respecting the interval) and stops updating. */
  async final(msg: SlackMessage): Promise<void> {
    this.closed = true;
    this.wanted = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inflight;
    const wait = this.lastSentAt + this.minIntervalMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await this.send(msg, true);
  }

  /** Stops without a final update (the app is stopping). */
  async stop(): Promise<void> {
    this.closed = true;
    this.wanted = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inflight;
  }

  private arm(): void {
    if (this.timer || this.inflight || !this.wanted || this.closed) return;
    const wait = Math.max(0, this.lastSentAt + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.wanted || this.closed) return;
      this.wanted = false;
      this.inflight = this.send(this.render(), false).finally(() => {
        this.inflight = undefined;
        this.arm();
      });
    }, wait);
  }

  private async send(msg: SlackMessage, final: boolean): Promise<void> {
    this.lastSentAt = Date.now();
    try {
      await this.client.chat.update({ channel: this.ref.channel, ts: this.ref.ts, text: msg.text, blocks: msg.blocks });
    } catch (err) {
      const code = platformError(err);
      if (code === 'message_not_found' || code === 'cant_update_message') {
        // Someone deleted the progress message: post it again so the outcome is not lost.
        try {
          this.ref = await this.repost(msg);
        } catch (postErr) {
          this.logger.warn({ err: errorSummary(postErr) }, 'could not post the upload progress again');
        }
        return;
      }
      // A progress update that fails is replaced by the next one; the final one is worth a warning.
      this.logger[final ? 'warn' : 'info']({ err: errorSummary(err) }, 'could not update the upload progress');
    } finally {
      this.lastSentAt = Date.now();
    }
  }
}
