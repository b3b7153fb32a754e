/**
 * Who will read what a watch posts. Call details, phone numbers and conversation transcripts go into the watching
 * channel, so before a watch starts:
 *
 * - a public channel: the answer says that everyone in the workspace can read them (the watch starts);
 * - a Slack Connect channel (`is_ext_shared`, or an invitation pending, `is_pending_ext_shared`: people of another
 *   organization are, or are about to be, members): the typed command, the "Watch here" button or the Home tab form
 *   only shows a confirmation button; the watch starts when a permitted person presses it (checked and audited like
 *   any watch). So does a channel whose sharing Slack would not tell us (conversations.info refused for a scope).
 *
 * What the person is told: src/render/watch.ts.
 */

/** Who can read a channel, as far as watching it is concerned. */
export interface ChannelAudience {
  kind: 'dm' | 'private' | 'public' | 'unknown';
  /** People of another organization are (or may be) members; undefined: Slack did not say. */
  external: boolean | undefined;
}

/** The channel facts conversations.info gives that matter here. */
export interface ChannelInfoFacts {
  is_im?: boolean;
  is_mpim?: boolean;
  is_private?: boolean;
  is_ext_shared?: boolean;
  is_pending_ext_shared?: boolean;
}

export function audienceOf(info: ChannelInfoFacts | undefined): ChannelAudience {
  if (!info) return { kind: 'unknown', external: undefined };
  const external = Boolean(info.is_ext_shared || info.is_pending_ext_shared);
  if (info.is_im) return { kind: 'dm', external };
  return { kind: info.is_private || info.is_mpim ? 'private' : 'public', external };
}

/** Whether starting a watch there needs the confirmation button first. */
export function needsConfirmation(a: ChannelAudience): boolean {
  return a.external !== false;
}
