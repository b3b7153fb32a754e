/** Campaign contact routes: add in batch (per-item results, duplicates), list (page numbers), retrieve, delete. */
import { CONTACT_STATUSES, DELETABLE_CONTACT_STATUSES } from '../outreach/schemas.js';
import {
  CONTACT_LIST_PARAMS as P,
  MAX_CONTACTS_PER_BATCH,
  MAX_PAGE_NUMBER,
  MAX_PAGE_SIZE,
} from '../outreach/unspecified.js';
import { findCampaign } from './campaigns.js';
import { ok, type Handler } from './context.js';
import { campaignError, Issues } from './errors.js';
import type { CampaignRec, ContactRec, SimState } from './model.js';
import { matches } from './faults.js';
import { enumParam, intParam, isObject, requireObjectBody } from './validate.js';
import { contactView } from './views.js';

/** Accepted phone format (PHONE_FORMAT = E.164): `+`, a non-zero digit, 8 to 15 digits in all. */
const E164 = /^\+[1-9]\d{7,14}$/;
const DEFAULT_CONTACT_PAGE_SIZE = 20;

export interface ContactFields {
  contact: string;
  name?: string | null;
  context?: string | null;
  extracted_data?: Record<string, string> | null;
  f_id?: string | null;
}

export interface ItemResult {
  index: number;
  status: 'created' | 'updated' | 'skipped_duplicate' | 'failed';
  id: string | null;
  contact: string | null;
  error: string | null;
}

function newContact(state: SimState, c: CampaignRec, f: ContactFields): ContactRec {
  const x: ContactRec = {
    campaignId: c.id,
    id: c.nextContactId++,
    f_id: f.f_id ?? null,
    name: f.name ?? '',
    contact: f.contact,
    status: 'queue',
    context: f.context ?? '',
    retries: 0,
    has_follow_up: false,
    call_count: 0,
    billed_duration: 0,
    last_call_at: null,
    extracted_data: { ...(f.extracted_data ?? {}) },
    tags: [],
    created_at: state.nowIso(),
    endUserId: null,
  };
  c.contacts.set(x.id, x);
  c.byPhone.set(x.contact, x);
  return x;
}

/** Adds contacts item by item (the batch rules of the spec); also used to seed the sandbox. */
export function addContactItems(
  state: SimState,
  c: CampaignRec,
  items: unknown[],
  ifDuplicate: 'skip' | 'update',
): ItemResult[] {
  const results = items.map((item, index): ItemResult => {
    const fail = (error: string, contact: string | null = null): ItemResult => ({
      index,
      status: 'failed',
      id: null,
      contact,
      error,
    });
    if (!isObject(item)) return fail('MISSING_CONTACT');
    const phone = item.contact;
    if (phone === undefined || phone === null || phone === '') return fail('MISSING_CONTACT');
    if (typeof phone !== 'string' || !E164.test(phone))
      return fail('INVALID_PHONE_NUMBER', typeof phone === 'string' ? phone : String(phone));
    if (state.batchItemFault && matches(state.batchItemFault, phone)) return fail('SERVER_ERROR', phone);
    const f = item as unknown as ContactFields;
    const existing = c.byPhone.get(phone);
    if (existing) {
      if (ifDuplicate === 'skip')
        return { index, status: 'skipped_duplicate', id: String(existing.id), contact: phone, error: null };
      if ('name' in f) existing.name = f.name ?? '';
      if ('context' in f) existing.context = f.context ?? '';
      if ('extracted_data' in f) existing.extracted_data = { ...(f.extracted_data ?? {}) };
      if ('f_id' in f) existing.f_id = f.f_id ?? null;
      return { index, status: 'updated', id: String(existing.id), contact: phone, error: null };
    }
    const x = newContact(state, c, f);
    return { index, status: 'created', id: String(x.id), contact: phone, error: null };
  });
  // Automatic move (not shown by the spec; our choice): a pending campaign is ready once it has contacts.
  if (c.status === 'pending' && c.contacts.size > 0) c.status = 'ready';
  return results;
}

function checkItemFields(items: unknown[], issues: Issues) {
  items.forEach((item, i) => {
    if (!isObject(item)) return; // per-item MISSING_CONTACT
    for (const f of ['name', 'context', 'f_id'] as const) {
      const v = item[f];
      if (v !== undefined && v !== null && typeof v !== 'string')
        issues.add(`contacts.${i}.${f}`, 'Not a valid string.');
    }
    const d = item.extracted_data;
    if (d !== undefined && d !== null && (!isObject(d) || Object.values(d).some((v) => typeof v !== 'string')))
      issues.add(`contacts.${i}.extracted_data`, 'Expected an object whose values are strings.');
  });
}

export const addContacts: Handler = ({ state, org, params, body }) => {
  const c = findCampaign(state, org, params.id ?? '');
  const o = requireObjectBody(body);
  const issues = new Issues();
  const items = o.contacts;
  if (items === undefined || items === null) issues.add('contacts', 'This field is required.');
  else if (!Array.isArray(items)) issues.add('contacts', 'Expected a list of contacts.');
  else if (items.length === 0) issues.add('contacts', 'This list may not be empty.');
  else if (items.length > MAX_CONTACTS_PER_BATCH)
    issues.add(
      'contacts',
      `Ensure this list has no more than ${MAX_CONTACTS_PER_BATCH} elements (it has ${items.length}); send several batches.`,
    );
  else checkItemFields(items, issues);
  const dup = o.if_duplicate ?? 'skip';
  if (dup !== 'skip' && dup !== 'update')
    issues.add('if_duplicate', `"${String(dup)}" is not a valid choice: use skip or update.`);
  issues.throwIfAny();
  if (c.status === 'finished')
    throw campaignError('CAMPAIGN_FINISHED', `Campaign ${c.id} is finished: contacts can no longer be added.`);

  const results = addContactItems(state, c, items as unknown[], dup as 'skip' | 'update');
  const summary = { created: 0, updated: 0, skipped_duplicate: 0, failed: 0 };
  for (const r of results) summary[r.status]++;
  return ok({ success: true, summary, results });
};

function findContact(c: CampaignRec, idParam: string): ContactRec {
  const x = /^\d+$/.test(idParam) ? c.contacts.get(Number(idParam)) : undefined;
  if (!x) throw campaignError('CONTACT_NOT_FOUND', `Contact ${idParam} not found in campaign ${c.id}.`);
  return x;
}

export const listContacts: Handler = ({ state, org, params, query: q }) => {
  const c = findCampaign(state, org, params.id ?? '');
  const status = enumParam(q, P.status, CONTACT_STATUSES, 'INVALID_STATUS');
  const pageSize = intParam(q, P.pageSize, [1, MAX_PAGE_SIZE], DEFAULT_CONTACT_PAGE_SIZE);
  const page = intParam(q, P.page, [0, MAX_PAGE_NUMBER], 0);
  const all = [...c.contacts.values()].filter((x) => status === null || x.status === status);
  const start = page * pageSize;
  const hasNext = all.length > start + pageSize;
  const hasPrevious = page > 0;
  return ok({
    // Computed on the first page only (spec); null on the others.
    total_count: page === 0 ? all.length : null,
    contacts: all.slice(start, start + pageSize).map(contactView),
    pagination: {
      has_next: hasNext,
      has_previous: hasPrevious,
      next_page: hasNext ? page + 1 : null,
      previous_page: hasPrevious ? page - 1 : null,
    },
  });
};

export const getContact: Handler = ({ state, org, params }) => {
  const c = findCampaign(state, org, params.id ?? '');
  return ok({ success: true, contact: contactView(findContact(c, params.contactId ?? '')) });
};

export const deleteContact: Handler = ({ state, org, params }) => {
  const c = findCampaign(state, org, params.id ?? '');
  const x = findContact(c, params.contactId ?? '');
  if (!DELETABLE_CONTACT_STATUSES.includes(x.status))
    throw campaignError(
      'CONTACT_NOT_DELETABLE',
      `Contact ${x.id} is "${x.status}": only contacts in queue or failed can be deleted.`,
    );
  c.contacts.delete(x.id);
  if (c.byPhone.get(x.contact) === x) c.byPhone.delete(x.contact);
  return { status: 204 };
};
