/**
 * Contract: the real client against the real simulator for the campaign contact endpoints (add in batch with its
 * per-item results and duplicate policies, list with its page-number walk, retrieve, delete) and the idempotent
 * replay of add contacts.
 */
import type { ContactInput } from '../../src/outreach/schemas.js';
import {
  expectFields,
  outreachError,
  phoneInput,
  phones,
  SPEC_FIELDS,
  startContract,
  type Contract,
} from '../support/contract.js';

let ct: Contract;
let campaignId: number;
beforeAll(async () => {
  ct = await startContract();
});
afterAll(() => ct.close());
beforeEach(async () => {
  ct.reset();
  campaignId = (await ct.client.createCampaign(phoneInput(ct))).id;
});

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function contactsIn(n: number, start = 0): ContactInput[] {
  return phones(n, start).map((contact, i) => ({ contact, name: `Persona ${start + i}` }));
}

describe('add contacts', () => {
  it('processes each item on its own: created, INVALID_PHONE_NUMBER, MISSING_CONTACT', async () => {
    const [a, b] = phones(2);
    const r = await ct.client.addContacts(campaignId, {
      contacts: [
        {
          contact: a as string,
          name: 'Ana López',
          context: 'Debe $1,200 desde enero',
          extracted_data: { saldo: '1200' },
          f_id: 'crm-1',
        },
        { contact: '55 1234 5678' },
        { contact: '' },
        { name: 'Sin teléfono' } as unknown as ContactInput,
        { contact: b as string, name: 'Beto' },
      ],
    });
    expect(r.success).toBe(true);
    expect(r.summary).toEqual({ created: 2, updated: 0, skipped_duplicate: 0, failed: 2 + 1 });
    expect(r.results.map((x) => [x.index, x.status, x.error ?? null])).toEqual([
      [0, 'created', null],
      [1, 'failed', 'INVALID_PHONE_NUMBER'],
      [2, 'failed', 'MISSING_CONTACT'],
      [3, 'failed', 'MISSING_CONTACT'],
      [4, 'created', null],
    ]);
    expect(r.results[0]?.contact).toBe(a);
    expect(r.results[1]?.contact).toBe('55 1234 5678');

    // The created item's id is the contact's id within the campaign.
    const id = Number(r.results[0]?.id);
    const c = await ct.client.getContact(campaignId, id);
    expectFields(c, SPEC_FIELDS.contact);
    expect(c).toMatchObject({
      id,
      contact: a,
      name: 'Ana López',
      context: 'Debe $1,200 desde enero',
      extracted_data: { saldo: '1200' },
      f_id: 'crm-1',
      status: 'queue',
      call_count: 0,
    });

    const req = ct.sim.control.requests().find((x) => x.route === 'addContacts');
    expect(req?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect((req?.body as { if_duplicate?: string }).if_duplicate).toBeUndefined();
  });

  it('skip keeps the existing contact; update overwrites name, context, extracted_data and f_id', async () => {
    const [p] = phones(1);
    const phone = p as string;
    const first = await ct.client.addContacts(campaignId, {
      contacts: [{ contact: phone, name: 'Original', context: 'c1', extracted_data: { a: '1' }, f_id: 'f1' }],
    });
    const id = Number(first.results[0]?.id);
    const changed = { contact: phone, name: 'Nuevo', context: 'c2', extracted_data: { b: '2' }, f_id: 'f2' };

    // Default policy is skip.
    const skipped = await ct.client.addContacts(campaignId, { contacts: [changed] });
    expect(skipped.summary).toEqual({ created: 0, updated: 0, skipped_duplicate: 1, failed: 0 });
    expect(skipped.results[0]).toMatchObject({ index: 0, status: 'skipped_duplicate', contact: phone });
    expect(Number(skipped.results[0]?.id)).toBe(id);
    const explicitSkip = await ct.client.addContacts(campaignId, { contacts: [changed], if_duplicate: 'skip' });
    expect(explicitSkip.results[0]?.status).toBe('skipped_duplicate');
    expect(await ct.client.getContact(campaignId, id)).toMatchObject({
      name: 'Original',
      context: 'c1',
      extracted_data: { a: '1' },
      f_id: 'f1',
    });

    const updated = await ct.client.addContacts(campaignId, {
      contacts: [changed, { contact: phones(1, 50)[0] as string }],
      if_duplicate: 'update',
    });
    expect(updated.summary).toEqual({ created: 1, updated: 1, skipped_duplicate: 0, failed: 0 });
    expect(updated.results[0]).toMatchObject({ index: 0, status: 'updated', contact: phone });
    expect(Number(updated.results[0]?.id)).toBe(id);
    expect(await ct.client.getContact(campaignId, id)).toMatchObject({
      id,
      contact: phone,
      name: 'Nuevo',
      context: 'c2',
      extracted_data: { b: '2' },
      f_id: 'f2',
    });
    const list = await ct.client.listContacts(campaignId);
    expect(list.total_count).toBe(2);
  });

  it('replays: the same Idempotency-Key twice adds the contacts once and returns the original result', async () => {
    const batch = { contacts: contactsIn(3) };
    const one = await ct.client.addContacts(campaignId, batch, { idempotencyKey: 'upload-42-batch-0' });
    const two = await ct.client.addContacts(campaignId, batch, { idempotencyKey: 'upload-42-batch-0' });
    expect(two).toEqual(one);
    expect(two.summary.created).toBe(3); // the original answer, not "3 skipped"
    expect((await ct.client.listContacts(campaignId)).total_count).toBe(3);
    const reqs = ct.sim.control.requests().filter((r) => r.route === 'addContacts');
    expect(reqs.map((r) => r.replayed)).toEqual([false, true]);
    // A different key is a new request: now the numbers are duplicates.
    const three = await ct.client.addContacts(campaignId, batch, { idempotencyKey: 'upload-42-batch-0-again' });
    expect(three.summary).toEqual({ created: 0, updated: 0, skipped_duplicate: 3, failed: 0 });
  });

  it('a lost response (503 after processing) is retried with the same key and yields the original result', async () => {
    ct.sim.control.injectFaults({ status: 503, when: 'after', match: /^POST .*\/contacts$/ });
    const r = await ct.client.addContacts(campaignId, { contacts: contactsIn(4) });
    expect(r.summary).toEqual({ created: 4, updated: 0, skipped_duplicate: 0, failed: 0 });
    const reqs = ct.sim.control.requests().filter((x) => x.route === 'addContacts');
    expect(reqs.map((x) => [x.status, x.replayed])).toEqual([
      [503, false],
      [200, true],
    ]);
    expect(reqs[1]?.headers['idempotency-key']).toBe(reqs[0]?.headers['idempotency-key']);
    expect((await ct.client.listContacts(campaignId)).total_count).toBe(4);
  });
});

describe('list contacts', () => {
  it('iterateContacts walks every page number in insertion order; total_count is on the first page', async () => {
    await ct.client.addContacts(campaignId, { contacts: contactsIn(25) });
    const p0 = await ct.client.listContacts(campaignId, { pageSize: 10 });
    expect(p0.total_count).toBe(25);
    expect(p0.contacts).toHaveLength(10);
    expect(p0.pagination).toMatchObject({ has_next: true, has_previous: false, next_page: 1 });
    for (const c of p0.contacts) expectFields(c, SPEC_FIELDS.contact);
    const p2 = await ct.client.listContacts(campaignId, { pageSize: 10, page: 2 });
    expect(p2.contacts.map((c) => c.name)).toEqual(['20', '21', '22', '23', '24'].map((n) => `Persona ${n}`));
    expect(p2.pagination).toMatchObject({ has_next: false, has_previous: true, previous_page: 1 });

    ct.sim.control.clearRequests();
    const walked = await all(ct.client.iterateContacts(campaignId, { pageSize: 10 }));
    expect(walked.map((c) => c.contact)).toEqual(phones(25));
    expect(new Set(walked.map((c) => c.id)).size).toBe(25);
    const reqs = ct.sim.control.requests();
    expect(reqs.map((r) => [r.query.page, r.query.page_size])).toEqual([
      ['0', '10'],
      ['1', '10'],
      ['2', '10'],
    ]);

    // Starting from a later page walks the rest.
    expect(await all(ct.client.iterateContacts(campaignId, { pageSize: 10, page: 1 }))).toHaveLength(15);
  });

  it('the status filter gives the right set, across pages', async () => {
    await ct.client.addContacts(campaignId, { contacts: contactsIn(9) });
    for (const id of [2, 4, 5, 9]) ct.sim.control.setContactStatus(campaignId, id, 'failed');
    ct.sim.control.setContactStatus(campaignId, 3, 'answered');

    const failed = await ct.client.listContacts(campaignId, { status: 'failed', pageSize: 3 });
    expect(failed.total_count).toBe(4);
    const walked = await all(ct.client.iterateContacts(campaignId, { status: 'failed', pageSize: 3 }));
    expect(walked.map((c) => c.id)).toEqual([2, 4, 5, 9]);
    expect(walked.every((c) => c.status === 'failed')).toBe(true);
    expect(ct.sim.control.requests().filter((r) => r.query.status === 'failed')).toHaveLength(3);

    const answered = await all(ct.client.iterateContacts(campaignId, { status: 'answered' }));
    expect(answered.map((c) => c.id)).toEqual([3]);
    expect(await all(ct.client.iterateContacts(campaignId, { status: 'converted' }))).toEqual([]);
  });
});

describe('delete contact', () => {
  it('deletes contacts in queue or failed (204), after which they are not found', async () => {
    await ct.client.addContacts(campaignId, { contacts: contactsIn(3) });
    ct.sim.control.setContactStatus(campaignId, 2, 'failed');
    await expect(ct.client.deleteContact(campaignId, 1)).resolves.toBeUndefined();
    await expect(ct.client.deleteContact(campaignId, 2)).resolves.toBeUndefined();
    const dels = ct.sim.control.requests().filter((r) => r.route === 'deleteContact');
    expect(dels.map((r) => [r.method, r.status])).toEqual([
      ['DELETE', 204],
      ['DELETE', 204],
    ]);
    expect((await all(ct.client.iterateContacts(campaignId))).map((c) => c.id)).toEqual([3]);

    const gone = await outreachError(ct.client.getContact(campaignId, 1));
    expect(gone).toMatchObject({ kind: 'service', status: 404, key: 'CONTACT_NOT_FOUND' });
  });
});
