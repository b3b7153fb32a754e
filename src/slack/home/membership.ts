/**
 * Which of some channels a person is in, for the Home tab's "waiting for a reply" list: each person sees only the
 * conversations of channels they are in, public or private. One `users.conversations` walk per person (public and
 * private channels; a private one is listed only when the bot is in it too, as every watched channel's bot is),
 * kept a while for the channels asked about; a walk is redone only when its answer is older than `ttlMs` or a
 * channel not asked about before comes up. What is kept per person is the answer for those channels only, and for
 * `maxPeople` people at most: memory stays bounded by the waiting list, not by how many channels people are in.
 *
 * When Slack cannot be asked, the person is in none of them: nothing is shown rather than too much.
 */
import type { WebClient } from '@slack/web-api';
import { LookupCache } from '../lookup-cache.js';

/** A person's channels among those asked about. */
interface Known {
  asked: ReadonlySet<string>;
  in: ReadonlySet<string>;
}

export interface ChannelMembershipOptions {
  /** How long a person's channels are trusted (read at each lookup: a setting). */
  ttlMs: () => number;
  /** People remembered at most. */
  maxPeople?: number;
  /** users.conversations pages read at most for one person (999 channels each); past them, none counts. */
  maxPages?: number;
}

const PAGE = 999;

export class ChannelMembership {
  private readonly known: LookupCache<Known>;
  private readonly maxPages: number;

  constructor(opts: ChannelMembershipOptions) {
    this.known = new LookupCache({ ttlMs: opts.ttlMs, max: opts.maxPeople ?? 1_000 });
    this.maxPages = opts.maxPages ?? 20;
  }

  /** Those of `channelIds` the person is in. */
  async of(userId: string, channelIds: readonly string[], client: WebClient): Promise<Set<string>> {
    if (channelIds.length === 0) return new Set();
    const asked = new Set(channelIds);
    let known = await this.known.get(userId, () => this.walk(userId, asked, client));
    // A channel not asked about when the person's walk was made: walk again (kept for all of them from then on).
    if (channelIds.some((c) => !known.asked.has(c))) {
      known = await this.walk(userId, new Set([...known.asked, ...asked]), client);
      this.known.set(userId, known);
    }
    return new Set(channelIds.filter((c) => known.in.has(c)));
  }

  private async walk(userId: string, asked: ReadonlySet<string>, client: WebClient): Promise<Known> {
    const found = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < this.maxPages; page++) {
      const res = await client.users.conversations({
        user: userId,
        types: 'public_channel,private_channel',
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      for (const ch of res.channels ?? []) if (ch.id && asked.has(ch.id)) found.add(ch.id);
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor || found.size === asked.size) break;
    }
    return { asked, in: found };
  }
}
