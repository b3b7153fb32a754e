/**
 * The page's requests checked at the boundary (zod): each POST body of api.ts `PageRequests`, and the `as` and
 * `name` of the query strings. A bad one is answered 400 with a sentence naming the field and what it should be.
 */
import { z } from 'zod';
import type { ActionSource, ElementValue, PageAction, PageRequests } from './api.js';
import { isPerson, PEOPLE } from './workspace.js';

const person = z.string().refine(isPerson, {
  message: "must be the id of one of the playground's people (see `users` in GET /playground/api/state)",
});
const id = z.string().min(1).max(255);
const json = z.record(z.string(), z.unknown());
const file = z.object({ id, name: z.string(), title: z.string().optional(), mimetype: z.string(), url: z.string() });

const elementValue = z.union([
  z.object({
    type: z.enum(['plain_text_input', 'number_input', 'email_text_input', 'url_text_input']),
    value: z.string().max(100_000).nullable(),
  }),
  z.object({ type: z.enum(['static_select', 'external_select', 'radio_buttons']), selected_option: json.nullable() }),
  z.object({
    type: z.enum(['multi_static_select', 'multi_external_select', 'checkboxes']),
    selected_options: z.array(json).max(100),
  }),
  z.object({ type: z.literal('datepicker'), selected_date: z.string().nullable() }),
  z.object({ type: z.literal('timepicker'), selected_time: z.string().nullable() }),
  z.object({ type: z.literal('users_select'), selected_user: z.string().nullable() }),
  z.object({ type: z.enum(['conversations_select', 'channels_select']), selected_conversation: z.string().nullable() }),
  z.object({ type: z.literal('file_input'), files: z.array(file).max(10) }),
]) satisfies z.ZodType<ElementValue>;
const values = z.record(z.string(), z.record(z.string(), elementValue));

const source = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), channel: id, ts: id }),
  z.object({ kind: z.literal('ephemeral'), id }),
  z.object({ kind: z.literal('view'), viewId: id }),
]) satisfies z.ZodType<ActionSource>;
const action = z.object({
  action_id: id,
  block_id: id,
  type: z.string().min(1),
  value: z.string().optional(),
  selected_option: json.optional(),
  selected_options: z.array(json).optional(),
  selected_date: z.string().optional(),
  selected_time: z.string().optional(),
}) satisfies z.ZodType<PageAction>;

/** One schema per POST path under /playground/api/. */
export const REQUESTS = {
  message: z.object({ as: person, channel: id, text: z.string().min(1).max(40_000), thread_ts: id.optional() }),
  action: z.object({ as: person, source, action, values: values.optional() }),
  'view/submit': z.object({ as: person, viewId: id, values }),
  'view/close': z.object({ as: person, viewId: id }),
  suggestion: z.object({ as: person, viewId: id, action_id: id, block_id: id, value: z.string().max(1000) }),
  'app-home': z.object({ as: person, tab: z.enum(['home', 'messages']) }),
  'service/end-call': z.object({ as: person, campaignId: z.number().int().positive(), callId: id }),
  'service/end-user-writes': z.object({ as: person, threadId: id, text: z.string().min(1).max(4000) }),
  'service/campaign-status': z.object({
    as: person,
    campaignId: z.number().int().positive(),
    status: z.enum(['paused', 'active', 'finished']),
  }),
  'service/billing-limit': z.object({ as: person, reached: z.boolean() }),
  'service/outage': z.object({ as: person, seconds: z.number().int().min(1).max(3600) }),
} satisfies { [K in keyof PageRequests]: z.ZodType<PageRequests[K]> };

export type RequestPath = keyof typeof REQUESTS;

export function isRequestPath(path: string): path is RequestPath {
  return Object.hasOwn(REQUESTS, path);
}

export const asQuery = z.object({ as: person });
/** The page at `/` with no `?as=` is the first of the playground's people (the line `npm start` prints). */
export const stateQuery = z.object({ as: person.default(PEOPLE[0]!.id) });
export const fileQuery = z.object({ as: person, name: z.string().min(1).max(255) });

/** One sentence naming each bad field: `channel: Required`, `as: must be the id of …`. */
export function describeProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
}
