/**
 * What a watch shows, per channel: its filter (which calls) and its format (how). Both are kept on the subscription
 * (state.ts `Subscription.filter` / `.format`); a subscription without them shows every call as the detailed card,
 * as every watch did before filters existed.
 *
 * A filter is a conjunction: every criterion it sets must hold. It is evaluated when a call's state is delivered
 * (poller.ts): a channel whose filter rejects a call gets nothing for it; a call that later matches (it ends, its
 * answer becomes `human`, its data arrives) is shown then, and from then on followed to its end like any other. A
 * conversation whose end user waits for a person's reply is shown whatever the filter (waiting.ts).
 */
import { z } from 'zod';
import { ANSWERED_BY, CALL_LIST_FILTER_STATUSES, type CampaignCallItem, type Message } from '../outreach/schemas.js';
import { FINAL_CALL_STATUSES } from '../outreach/rules.js';

/** A call's outcome as a filter names it (the service's names): a final status, or `in-progress` while it runs. */
const WATCH_OUTCOMES = CALL_LIST_FILTER_STATUSES;
export type WatchOutcome = (typeof WATCH_OUTCOMES)[number];

export type WatchFormat = 'detailed' | 'compact';

/** Most tags one filter names. */
export const MAX_FILTER_TAGS = 20;
/** Longest tag or data key a filter names. */
export const MAX_FILTER_WORD = 100;

const Word = z.string().trim().min(1).max(MAX_FILTER_WORD);

export const WatchFilter = z
  .object({
    /** Only calls with one of these outcomes. */
    outcomes: z.array(z.enum(WATCH_OUTCOMES)).min(1).optional(),
    /** Only calls answered by one of these (`unknown` takes calls the service has not decided for yet). */
    answeredBy: z.array(z.enum(ANSWERED_BY)).min(1).optional(),
    /** Only calls whose policy score is below this (0 to 100); a call without a score does not match. */
    policyScoreBelow: z.number().finite().min(0).max(100).optional(),
    /** Only calls with some extracted data. */
    withData: z.literal(true).optional(),
    /** Only calls whose extracted data has this key (case does not matter). */
    dataKey: Word.optional(),
    /** Only calls with at least one of these thread tags (case does not matter). */
    tags: z.array(Word).min(1).max(MAX_FILTER_TAGS).optional(),
    /** Only calls with a conversation (the end user wrote), shown as one line (no call card). */
    conversationsOnly: z.literal(true).optional(),
  })
  .strict();
export type WatchFilter = z.infer<typeof WatchFilter>;

/** A stored filter read back: undefined when there is none or it cannot be read (then everything is shown). */
export function readFilter(value: unknown): WatchFilter | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = WatchFilter.safeParse(value);
  return parsed.success && !isEmptyFilter(parsed.data) ? parsed.data : undefined;
}

export function isEmptyFilter(f: WatchFilter | undefined): boolean {
  return !f || Object.values(f).every((v) => v === undefined);
}

/** The outcome of a call as filters name it: its final status, or `in-progress` for any status before the end. */
export function outcomeOf(status: string): WatchOutcome {
  return FINAL_CALL_STATUSES.includes(status) ? (status as WatchOutcome) : 'in-progress';
}

/** What a filter knows of a call's conversation (GET /message), when it was read. */
export interface ConversationFacts {
  /** The end user wrote in it (a conversation, not only the agent's or the system's lines). */
  endUserWrote: boolean;
}

export function conversationFacts(messages: readonly Pick<Message, 'sent_by'>[] | undefined): ConversationFacts {
  return { endUserWrote: (messages ?? []).some((m) => m.sent_by === 'EU') };
}

const lower = (s: string) => s.trim().toLowerCase();

/**
 * Whether a call passes a filter (every criterion it sets). No filter passes everything. `conversation`: what is
 * known of its conversation (unknown: `conversationsOnly` does not match yet). Pure.
 */
export function matches(
  filter: WatchFilter | undefined,
  call: Pick<CampaignCallItem, 'status' | 'answered_by' | 'policy_evaluation' | 'extracted_data' | 'tags'>,
  conversation?: ConversationFacts,
): boolean {
  if (!filter) return true;
  if (filter.outcomes && !filter.outcomes.includes(outcomeOf(call.status))) return false;
  if (filter.answeredBy && !filter.answeredBy.includes(call.answered_by ?? 'unknown')) return false;
  if (filter.policyScoreBelow !== undefined) {
    const score = call.policy_evaluation?.score;
    if (score === null || score === undefined || !(score < filter.policyScoreBelow)) return false;
  }
  const data = call.extracted_data ?? {};
  if (filter.withData && !Object.values(data).some((v) => String(v).trim() !== '')) return false;
  if (filter.dataKey) {
    const key = lower(filter.dataKey);
    if (!Object.keys(data).some((k) => lower(k) === key)) return false;
  }
  if (filter.tags) {
    const wanted = new Set(filter.tags.map(lower));
    if (!(call.tags ?? []).some((t) => wanted.has(lower(t)))) return false;
  }
  if (filter.conversationsOnly && !conversation?.endUserWrote) return false;
  return true;
}

/** How a channel shows its calls: `compact` (one line each) also for a conversations-only filter. */
export function shownFormat(sub: { format?: WatchFormat | undefined; filter?: WatchFilter | undefined }): WatchFormat {
  return sub.format === 'compact' || sub.filter?.conversationsOnly ? 'compact' : 'detailed';
}
