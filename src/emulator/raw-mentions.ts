// The fake Slack's check that no text from outside reaches Slack as a live `<…>` sequence: a broadcast
// (`<!channel>`, `<!here>`, `<!everyone>`), a mention (`<@U…>`, `<#C…>`, `<!subteam^S…>`) or a disguised link
// (`<https://…|click>`). See docs/slack-platform-notes.md §7.
//
// Every displayed text of every payload the app sends is looked at: message `text`, every text object of blocks
// and views (titles, labels, options, placeholders, hints, confirm dialogs, …), attachments, file titles and
// `initial_comment`, response_url bodies and the modal errors of a view_submission ack. Values that Slack does not
// render as text (button values, private_metadata, message metadata, an input's initial_value) are not.
//
// What is allowed is what the app writes on purpose: `<@U…>` / `<#C…>` / `<!subteam^S…>` of a user, channel or
// user group of the workspace (known to the fake, given to the app as configuration, or seen in a request the app
// got), without a label; and links to http(s)/mailto addresses. Anything else is outside text that was not escaped:
// a broadcast, a labelled or malformed mention, a mention of an id the workspace does not know, a link with
// another scheme. Hostile fixtures make it unambiguous: ids containing HOSTILE and links to hosts under
// `evil.example` are always reported, even if the workspace happened to know them.
//
// Violations are collected for the whole process and the jest setup file fail-on-raw-mentions.ts fails the test
// during which they were sent.

export interface RawMention {
  /** API method, 'response_url' or 'view_submission ack'. */
  method: string;
  /** Where in the payload, e.g. `blocks[2].text.text`. */
  path: string;
  /** The offending sequence, e.g. `<!channel>`. */
  sequence: string;
  why: string;
  /** The text it was found in (cut). */
  text: string;
}

/** What the workspace knows: ids that may be mentioned on purpose. */
export interface MentionScope {
  isUser(id: string): boolean;
  isChannel(id: string): boolean;
  isUsergroup(id: string): boolean;
}

/** Keys whose string values Slack shows as text (besides text objects' `text`). */
const DISPLAYED_KEYS = new Set([
  'text',
  'title',
  'initial_comment',
  'alt_text',
  'alt_txt',
  'fallback',
  'pretext',
  'footer',
  'author_name',
]);

/** Keys whose values Slack never renders as message text. */
const NOT_DISPLAYED_KEYS = new Set([
  'value',
  'initial_value',
  'private_metadata',
  'metadata',
  'action_id',
  'block_id',
  'callback_id',
  'external_id',
  'url',
  'image_url',
  'thumb_url',
  'author_icon',
  'author_link',
  'title_link',
  'footer_icon',
  'channel',
  'channel_id',
  'user',
  'user_id',
  'ts',
  'thread_ts',
  'trigger_id',
  'view_id',
  'hash',
  'response_action',
]);

const HOSTILE_ID = /HOSTILE/i;
const HOSTILE_HOST = /(^|\.)evil\.example$/i;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Problems of one `<…>` sequence's inside, or undefined when the app may have written it on purpose. */
function classify(inside: string, scope: MentionScope): string | undefined {
  if (inside.startsWith('!')) {
    const group = /^!subteam\^([A-Z0-9]+)$/.exec(inside);
    if (group?.[1] && !HOSTILE_ID.test(group[1]) && scope.isUsergroup(group[1])) return undefined;
    if (/^!(channel|here|everyone|group)\b/i.test(inside)) return 'a broadcast to everyone';
    return group ? 'a mention of a user group the workspace does not know' : 'a special command sequence';
  }
  if (inside.startsWith('@') || inside.startsWith('#')) {
    const user = /^@([UWB][A-Z0-9]+)$/.exec(inside);
    const channel = /^#([CGD][A-Z0-9]+)$/.exec(inside);
    const id = user?.[1] ?? channel?.[1];
    if (!id) return inside.includes('|') ? 'a labelled mention (the app never writes one)' : 'a malformed mention';
    if (HOSTILE_ID.test(id)) return 'a mention of a hostile fixture id';
    if (user ? scope.isUser(id) : scope.isChannel(id)) return undefined;
    return `a mention of ${user ? 'a user' : 'a channel'} the workspace does not know`;
  }
  const target = inside.split('|')[0] ?? '';
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'a malformed link';
  }
  if (url.protocol === 'mailto:') return undefined;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `a ${url.protocol} link`;
  if (HOSTILE_HOST.test(url.hostname)) return 'a link to a hostile fixture host';
  return undefined;
}

/** The problems of one displayed string. */
export function textProblems(text: string, scope: MentionScope): { sequence: string; why: string }[] {
  const out: { sequence: string; why: string }[] = [];
  for (const m of text.matchAll(/<([^<>]*)>/g)) {
    const why = classify(m[1] ?? '', scope);
    if (why) out.push({ sequence: m[0], why });
  }
  return out;
}

/** Every string of a payload that Slack shows as text, with where it is (see the top of this file). */
export function displayedTexts(payload: unknown): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (v: unknown, path: string, inFields: boolean): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, inFields));
      return;
    }
    if (!isObj(v)) return;
    const isTextObject = (v.type === 'mrkdwn' || v.type === 'plain_text') && typeof v.text === 'string';
    for (const [k, x] of Object.entries(v)) {
      const at = path ? `${path}.${k}` : k;
      if (typeof x === 'string') {
        // An attachment's fields show their value; elsewhere `value` is data Slack hands back, never shown.
        if ((isTextObject && k === 'text') || DISPLAYED_KEYS.has(k) || (inFields && k === 'value')) {
          out.push({ path: at, text: x });
        }
        continue;
      }
      if (NOT_DISPLAYED_KEYS.has(k)) continue;
      walk(x, at, k === 'fields' && path.includes('attachments'));
    }
  };
  walk(payload, '', false);
  return out;
}

/** Every raw mention in a payload the app sends. */
export function payloadProblems(payload: unknown, scope: MentionScope, method: string): RawMention[] {
  return displayedTexts(payload).flatMap(({ path, text }) =>
    textProblems(text, scope).map((p) => ({ method, path, ...p, text: text.slice(0, 300) })),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The process-wide list the jest setup file drains after each test.

const found: RawMention[] = [];

export function reportRawMentions(list: RawMention[]): void {
  found.push(...list);
}

/** Every violation reported since the last call, removed from the list. */
export function takeRawMentions(): RawMention[] {
  return found.splice(0, found.length);
}

export function describeRawMentions(list: RawMention[]): string {
  return list
    .slice(0, 20)
    .map((v) => `- ${v.method} ${v.path}: ${v.sequence} (${v.why}) in ${JSON.stringify(v.text)}`)
    .join('\n');
}
