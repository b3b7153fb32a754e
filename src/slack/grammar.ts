/**
 * The `/campaign` grammar: text -> a typed request, or a problem sentence naming what is wrong; and the usage lines
 * that describe it. Pure: no Slack, no service. A new subcommand: its kind, its name in SUBCOMMANDS, its case in
 * parseCommandText and its usage line here, its row in src/slack/routes.ts, its handler in its feature's listeners.
 */
import {
  CALL_LIST_FILTER_STATUSES,
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  CONTACT_STATUSES,
  type CallListFilterStatus,
  type CampaignStatus,
  type ChannelType,
  type ContactStatus,
  type LifecycleAction,
} from '../outreach/schemas.js';
import { commandUsageMessage } from '../render/feedback.js';
import type { SlackMessage } from '../render/types.js';

interface ChannelRef {
  id: string;
  name?: string;
}

export type CampaignCommand =
  | { kind: 'help' }
  | { kind: 'list'; status?: CampaignStatus; channel?: ChannelType; archived: boolean }
  | { kind: 'show'; id: number }
  | { kind: 'lifecycle'; action: LifecycleAction; id: number }
  | { kind: 'contacts'; id: number; status?: ContactStatus }
  | { kind: 'calls'; id: number; status?: CallListFilterStatus }
  | { kind: 'create' }
  | { kind: 'edit'; id: number }
  | { kind: 'upload'; id: number }
  | { kind: 'watch'; id: number; channel?: ChannelRef }
  | { kind: 'unwatch'; id: number; channel?: ChannelRef }
  | { kind: 'watching' }
  | { kind: 'try'; agentId?: string };

/** The whole `/campaign` grammar, one line per command: [syntax, what it does]. */
/** The usage lines beside the grammar that parses them. */
const CAMPAIGN_USAGE: readonly [syntax: string, meaning: string][] = [
  ['help', 'this help'],
  [
    'list [status] [phone_call|whatsapp] [archived]',
    `list campaigns; status is one of ${CAMPAIGN_STATUSES.join(', ')}`,
  ],
  ['show <id>', 'one campaign in full, with its buttons'],
  ['activate <id>', 'start a pending, ready or cooldown campaign'],
  ['pause <id>', 'pause an active or cooldown campaign'],
  ['resume <id>', 'resume a paused (inactive) campaign'],
  ['archive <id>', 'hide a campaign from lists (its status stays)'],
  ['contacts <id> [status]', 'the campaign’s contacts, a page at a time'],
  ['calls <id> [status]', 'the campaign’s calls (phone campaigns)'],
  ['create', 'open the new-campaign form'],
  ['edit <id>', 'change name, schedule, retries and more'],
  ['upload <id>', 'add contacts from a CSV or XLSX file'],
  ['watch <id> [#channel]', 'post the campaign’s progress to a channel (default: this one)'],
  ['unwatch <id> [#channel]', 'stop posting progress to a channel'],
  ['watching', 'which campaigns are watched where'],
  ['try <agent_id>', 'talk to an agent in a thread before using it in a campaign'],
];

/** The `/campaign` usage, after "⚠️ <problem>" when a command could not be read. */
export function usageMessage(problem?: string): SlackMessage {
  return commandUsageMessage(CAMPAIGN_USAGE, problem);
}

export type ParseResult = { ok: true; command: CampaignCommand } | { ok: false; problem: string };

export const SUBCOMMANDS = [
  'help',
  'list',
  'show',
  'create',
  'edit',
  'activate',
  'pause',
  'resume',
  'archive',
  'contacts',
  'calls',
  'upload',
  'watch',
  'unwatch',
  'watching',
  'try',
] as const;

/** An agent id as `/campaign try` and the Try button accept it. */
export const AGENT_ID = /^[A-Za-z0-9-]{1,64}$/;

const fail = (problem: string): ParseResult => ({ ok: false, problem });
const ok = (command: CampaignCommand): ParseResult => ({ ok: true, command });

/** Campaign ids are positive integers; `#12` is accepted too since people copy it from our messages. */
function parseCampaignId(raw: string | undefined, sub: string): number | string {
  if (raw === undefined || raw === '') return `\`${sub}\` needs a campaign id, for example \`/campaign ${sub} 12\`.`;
  const m = /^#?(\d{1,15})$/.exec(raw);
  if (!m)
    return `\`${raw.slice(0, 40)}\` is not a campaign id: ids are whole numbers, for example \`/campaign ${sub} 12\`.`;
  const id = Number(m[1]);
  if (!Number.isSafeInteger(id) || id <= 0) return `\`${raw.slice(0, 40)}\` is not a campaign id.`;
  return id;
}

/**
 * A channel argument: with `should_escape: true` Slack sends `<#C123|name>` (or `<#C123>`); a raw `#name` cannot be
 * resolved without an extra API call, so we ask the person to pick it from Slack's autocomplete.
 */
function parseChannel(raw: string): ChannelRef | string {
  const m = /^<#([CG][A-Z0-9]+)(?:\|([^>]*))?>$/.exec(raw);
  if (m) return { id: m[1]!, ...(m[2] ? { name: m[2] } : {}) };
  if (/^[CG][A-Z0-9]{6,}$/.test(raw)) return { id: raw };
  return `\`${raw.slice(0, 80)}\` is not a channel I can read: type \`#\` and pick the channel from the list so Slack links it.`;
}

function oneOf<T extends string>(list: readonly T[], v: string): T | undefined {
  return (list as readonly string[]).includes(v) ? (v as T) : undefined;
}

export function parseCommandText(text: string): ParseResult {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const sub = (tokens[0] ?? 'help').toLowerCase();
  const args = tokens.slice(1);

  switch (sub) {
    case 'help':
      return ok({ kind: 'help' });
    case 'list': {
      const cmd: Extract<CampaignCommand, { kind: 'list' }> = { kind: 'list', archived: false };
      for (const a of args.map((x) => x.toLowerCase())) {
        const status = oneOf(CAMPAIGN_STATUSES, a);
        const channel = oneOf(CHANNEL_TYPES, a);
        if (status && !cmd.status) cmd.status = status;
        else if (channel && !cmd.channel) cmd.channel = channel;
        else if (a === 'archived' && !cmd.archived) cmd.archived = true;
        else
          return fail(
            `\`${a.slice(0, 40)}\` is not a list filter. Use a status (${CAMPAIGN_STATUSES.join(', ')}), a channel (phone_call, whatsapp) and/or \`archived\`, each at most once.`,
          );
      }
      return ok(cmd);
    }
    case 'show':
    case 'edit':
    case 'upload':
    case 'activate':
    case 'pause':
    case 'resume':
    case 'archive': {
      if (args.length > 1) return fail(`\`${sub}\` takes one campaign id, for example \`/campaign ${sub} 12\`.`);
      const id = parseCampaignId(args[0], sub);
      if (typeof id === 'string') return fail(id);
      if (sub === 'show' || sub === 'edit' || sub === 'upload') return ok({ kind: sub, id });
      return ok({ kind: 'lifecycle', action: sub, id });
    }
    case 'contacts':
    case 'calls': {
      if (args.length > 2) return fail(`\`${sub}\` takes a campaign id and an optional status.`);
      const id = parseCampaignId(args[0], sub);
      if (typeof id === 'string') return fail(id);
      const rawStatus = args[1]?.toLowerCase();
      if (sub === 'contacts') {
        if (rawStatus === undefined) return ok({ kind: 'contacts', id });
        const status = oneOf(CONTACT_STATUSES, rawStatus);
        if (!status)
          return fail(
            `\`${rawStatus.slice(0, 40)}\` is not a contact status. Use one of: ${CONTACT_STATUSES.join(', ')}.`,
          );
        return ok({ kind: 'contacts', id, status });
      }
      if (rawStatus === undefined) return ok({ kind: 'calls', id });
      const status = oneOf(CALL_LIST_FILTER_STATUSES, rawStatus);
      if (!status)
        return fail(
          `\`${rawStatus.slice(0, 40)}\` is not a call status to filter by. Use one of: ${CALL_LIST_FILTER_STATUSES.join(', ')}.`,
        );
      return ok({ kind: 'calls', id, status });
    }
    case 'create':
      if (args.length) return fail('`create` takes no arguments: it opens a form.');
      return ok({ kind: 'create' });
    case 'watching':
      if (args.length) return fail('`watching` takes no arguments.');
      return ok({ kind: 'watching' });
    case 'watch':
    case 'unwatch': {
      if (args.length > 2) return fail(`\`${sub}\` takes a campaign id and an optional #channel.`);
      const id = parseCampaignId(args[0], sub);
      if (typeof id === 'string') return fail(id);
      if (args[1] === undefined) return ok({ kind: sub, id });
      const channel = parseChannel(args[1]);
      if (typeof channel === 'string') return fail(channel);
      return ok({ kind: sub, id, channel });
    }
    case 'try': {
      const agentId = args[0];
      if (args.length > 1) return fail('`try` takes one agent id; without it, it lists the agents you can try.');
      if (agentId === undefined) return ok({ kind: 'try' });
      if (!AGENT_ID.test(agentId)) return fail(`\`${agentId.slice(0, 40)}\` is not an agent id.`);
      return ok({ kind: 'try', agentId });
    }
    default:
      return fail(`\`${sub.slice(0, 40)}\` is not a /campaign subcommand.`);
  }
}
