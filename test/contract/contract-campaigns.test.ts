/**
 * Contract: the real client against the real simulator for the campaign endpoints (create, list, get, patch,
 * lifecycle actions), the cursor walk of the campaign list and its filters.
 */
import type { CampaignListItem, CampaignStatus, ChannelType } from '../../src/outreach/schemas.js';
import type { SeedCampaignInput } from '../../src/sim/index.js';
import { expectFields, phoneInput, SPEC_FIELDS, startContract, waInput, type Contract } from '../support/contract.js';

let ct: Contract;
beforeAll(async () => {
  ct = await startContract();
});
afterAll(() => ct.close());
beforeEach(() => ct.reset());

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const weekdays = {
  mon: { startTime: '09:00', stopTime: '18:00', active: true },
  sat: { startTime: '10:00', stopTime: '14:00', active: false },
};

describe('create, get, patch', () => {
  it('creates a phone campaign with every settable field and reads it back the same', async () => {
    const created = await ct.client.createCampaign(
      phoneInput(ct, {
        name: 'Cobranza <marzo> & más',
        description: 'Recordatorio de pago',
        timezone: 'America/Monterrey',
        retries: 3,
        message_limit: 500,
        first_message: 'Hola, le llamo de parte de Banco Sol.',
        scheduling: weekdays,
        cycles: {
          enabled: true,
          mode: 'cooldown',
          max_iterations: 3,
          cooldown_minutes: 30,
          filter_statuses: ['answered'],
        },
      }),
    );
    expectFields(created, SPEC_FIELDS.campaignDetail);
    expect(created).toMatchObject({
      name: 'Cobranza <marzo> & más',
      status: 'pending',
      integration: { id: ct.phoneId, type: 'phone_call' },
      agent: { id: ct.agentId, name: 'Ana Torres' },
      scheduling: weekdays,
      description: 'Recordatorio de pago',
      timezone: 'America/Monterrey',
      retries: 3,
      message_limit: 500,
      first_message: 'Hola, le llamo de parte de Banco Sol.',
    });
    // "the returned block includes mode"; filter_tags is input only.
    expect(created.cycles).toMatchObject({ enabled: true, mode: 'cooldown', max_iterations: 3, cooldown_minutes: 30 });
    expect(created.cycles?.filter_tags).toBeUndefined();
    expect(Number.isNaN(Date.parse(created.created_at))).toBe(false);

    // The request: api-key scheme, an Idempotency-Key made by the client, JSON body as given.
    const req = ct.sim.control.requests().find((r) => r.route === 'createCampaign');
    expect(req?.headers.authorization).toBe('api-key [redacted]');
    expect(req?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req?.status).toBe(201);

    expect(await ct.client.getCampaign(created.id)).toEqual(created);
  });

  it('creates a WhatsApp campaign with its templates and spec defaults', async () => {
    const c = await ct.client.createCampaign(waInput(ct, { template: 'promo_abril', template_alt: 'promo_alt' }));
    expect(c).toMatchObject({
      integration: { id: ct.waId, type: 'whatsapp' },
      template: 'promo_abril',
      template_alt: 'promo_alt',
      // Defaults given by the spec.
      timezone: 'America/Mexico_City',
      retries: 1,
      message_limit: 250,
    });
    expect(c.cycles?.enabled).toBe(false);
  });

  it('PATCH changes settable fields and the change persists', async () => {
    const c = await ct.client.createCampaign(phoneInput(ct, { cycles: { enabled: true, mode: 'cooldown' } }));
    const patched = await ct.client.updateCampaign(c.id, {
      name: 'Cobranza abril',
      retries: 0,
      message_limit: 10000,
      scheduling: { tue: { startTime: '08:30', stopTime: '12:00', active: true } },
      cycles: { max_iterations: 12, cooldown_minutes: 1440 },
    });
    expect(patched).toMatchObject({
      id: c.id,
      name: 'Cobranza abril',
      retries: 0,
      message_limit: 10000,
      scheduling: { tue: { startTime: '08:30', stopTime: '12:00', active: true } },
    });
    expect(patched.cycles).toMatchObject({
      enabled: true,
      mode: 'cooldown',
      max_iterations: 12,
      cooldown_minutes: 1440,
    });
    expect(await ct.client.getCampaign(c.id)).toEqual(patched);
    const req = ct.sim.control.requests().find((r) => r.route === 'updateCampaign');
    expect(req?.method).toBe('PATCH');
  });
});

describe('lifecycle actions', () => {
  it('activate, pause (and its no-op), resume (and its no-op), archive (and its no-op)', async () => {
    const { id } = await ct.client.createCampaign(phoneInput(ct));
    const step = async (action: 'activate' | 'pause' | 'resume' | 'archive') => {
      const c = await ct.client.campaignAction(id, action);
      return [c.status, c.archived] as const;
    };
    expect(await step('activate')).toEqual(['active', false]);
    expect(await step('pause')).toEqual(['inactive', false]);
    expect(await step('pause')).toEqual(['inactive', false]);
    expect(await step('resume')).toEqual(['active', false]);
    expect(await step('resume')).toEqual(['active', false]);
    expect(await step('archive')).toEqual(['active', true]);
    expect(await step('archive')).toEqual(['active', true]);
    // No Idempotency-Key and no body on lifecycle actions.
    const actions = ct.sim.control.requests().filter((r) => r.route === 'campaignAction');
    expect(actions.map((r) => r.path.split('/').pop())).toEqual([
      'activate',
      'pause',
      'pause',
      'resume',
      'resume',
      'archive',
      'archive',
    ]);
    expect(actions.every((r) => r.body === undefined && r.headers['idempotency-key'] === undefined)).toBe(true);
  });
});

describe('campaign list', () => {
  /** Seeds campaigns directly in the simulator (no HTTP): `n` phone campaigns on successive days of Jan 2025. */
  function seedMany(n: number): void {
    for (let i = 0; i < n; i++) {
      ct.sim.control.seedCampaign({
        name: `C${i}`,
        agentId: ct.agentId,
        integrationId: ct.phoneId,
        created_at: `2025-01-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`,
      });
    }
  }

  it('iterateCampaigns walks every cursor page, newest first, with the total count', async () => {
    seedMany(8);
    const first = await ct.client.listCampaigns({ pageSize: 3 });
    expect(first.total_count).toBe(8);
    expect(first.campaigns.map((c) => c.name)).toEqual(['C7', 'C6', 'C5']);
    expect(first.pagination).toMatchObject({ has_next: true, has_previous: false });
    expect(typeof first.pagination.next_cursor).toBe('string');
    for (const c of first.campaigns) expectFields(c, SPEC_FIELDS.campaignListItem);

    // Cursor pages by hand: the second page goes back and forth.
    const second = await ct.client.listCampaigns({ pageSize: 3, cursor: first.pagination.next_cursor ?? '' });
    expect(second.campaigns.map((c) => c.name)).toEqual(['C4', 'C3', 'C2']);
    expect(second.pagination).toMatchObject({ has_next: true, has_previous: true });
    const back = await ct.client.listCampaigns({ pageSize: 3, cursor: second.pagination.previous_cursor ?? '' });
    expect(back.campaigns.map((c) => c.name)).toEqual(['C7', 'C6', 'C5']);

    ct.sim.control.clearRequests();
    const walked = await all(ct.client.iterateCampaigns({ pageSize: 3 }));
    expect(walked.map((c) => c.name)).toEqual(['C7', 'C6', 'C5', 'C4', 'C3', 'C2', 'C1', 'C0']);
    const reqs = ct.sim.control.requests();
    expect(reqs).toHaveLength(3);
    expect(reqs.map((r) => r.query.page_size)).toEqual(['3', '3', '3']);
    expect(reqs[0]?.query.cursor).toBeUndefined();
    expect(reqs.slice(1).every((r) => typeof r.query.cursor === 'string')).toBe(true);
    expect(reqs.every((r) => r.status === 200)).toBe(true);
  });

  it('a list that fits one page needs one request; an empty org lists nothing', async () => {
    expect(await all(ct.client.iterateCampaigns())).toEqual([]);
    seedMany(2);
    ct.sim.control.clearRequests();
    expect((await all(ct.client.iterateCampaigns({ pageSize: 2 }))).length).toBe(2);
    expect(ct.sim.control.requests()).toHaveLength(1);
  });

  describe('filters', () => {
    /** A mix of statuses, channels, agents, archived flags and dates. */
    function seedMix(): Record<string, number> {
      const other = ct.sim.control.addAgent({ name: 'Luis Pérez' });
      const otherPhone = ct.sim.control.addIntegration({ agentId: other.id, type: 'phone_call' }).id;
      const ids: Record<string, number> = {};
      const seed = (name: string, x: Partial<SeedCampaignInput>) => {
        const c = ct.sim.control.seedCampaign({ name, agentId: ct.agentId, integrationId: ct.phoneId, ...x });
        ids[name] = c.id as number;
      };
      seed('phone-pending-0105', { created_at: '2025-01-05T12:00:00.000Z' });
      seed('phone-active-0110', {
        created_at: '2025-01-10T00:00:00.000Z',
        status: 'active',
        started_at: '2025-02-01T09:00:00.000Z',
      });
      seed('wa-active-0115', {
        integrationId: ct.waId,
        created_at: '2025-01-15T12:00:00.000Z',
        status: 'active',
        started_at: '2025-02-03T09:00:00.000Z',
      });
      seed('phone-inactive-0120', {
        created_at: '2025-01-20T23:59:00.000Z',
        status: 'inactive',
        started_at: '2025-02-05T09:00:00.000Z',
      });
      seed('wa-finished-0121', {
        integrationId: ct.waId,
        created_at: '2025-01-21T00:00:00.000Z',
        status: 'finished',
        started_at: '2025-02-02T09:00:00.000Z',
        ended_at: '2025-02-10T18:00:00.000Z',
      });
      seed('phone-archived-0112', { created_at: '2025-01-12T12:00:00.000Z', archived: true });
      seed('other-active-0111', {
        agentId: other.id,
        integrationId: otherPhone,
        created_at: '2025-01-11T12:00:00.000Z',
        status: 'active',
        started_at: '2025-01-30T09:00:00.000Z',
      });
      return ids;
    }

    async function names(filter: Parameters<Contract['client']['iterateCampaigns']>[0]): Promise<string[]> {
      const items: CampaignListItem[] = await all(ct.client.iterateCampaigns({ ...filter, pageSize: 2 }));
      const first = await ct.client.listCampaigns({ ...filter, pageSize: 2 });
      expect(first.total_count).toBe(items.length);
      return items.map((c) => c.name).sort();
    }

    it.each<[string, CampaignStatus, string[]]>([
      ['active', 'active', ['other-active-0111', 'phone-active-0110', 'wa-active-0115']],
      ['inactive', 'inactive', ['phone-inactive-0120']],
      ['finished', 'finished', ['wa-finished-0121']],
      ['pending', 'pending', ['phone-pending-0105']],
    ])('status %s', async (_label, status, expected) => {
      seedMix();
      expect(await names({ status })).toEqual(expected);
      expect(ct.sim.control.requests().every((r) => r.query.status === status)).toBe(true);
    });

    it.each<[ChannelType, string[]]>([
      ['whatsapp', ['wa-active-0115', 'wa-finished-0121']],
      ['phone_call', ['other-active-0111', 'phone-active-0110', 'phone-inactive-0120', 'phone-pending-0105']],
    ])('integration type %s', async (integrationType, expected) => {
      seedMix();
      expect(await names({ integrationType })).toEqual(expected);
    });

    it('archived campaigns only with includeArchived', async () => {
      seedMix();
      expect(await names({})).not.toContain('phone-archived-0112');
      const withArchived = await names({ includeArchived: true });
      expect(withArchived).toContain('phone-archived-0112');
      expect(withArchived).toHaveLength(7);
    });

    it('agent', async () => {
      seedMix();
      const ana = await names({ agentId: ct.agentId, includeArchived: true });
      expect(ana).not.toContain('other-active-0111');
      expect(ana).toHaveLength(6);
      // total_count (checked in names()) is the service's own figure: it proves the filter ran on the server too,
      // not only in the client's second pass.
      expect(ct.sim.control.requests().at(-1)?.query.agent_id).toBe(ct.agentId);
    });

    it('created date range: both ends inclusive, whole UTC days', async () => {
      seedMix();
      expect(
        await names({
          createdAfter: new Date('2025-01-10'),
          createdBefore: new Date('2025-01-20'),
          includeArchived: true,
        }),
      ).toEqual([
        'other-active-0111',
        'phone-active-0110',
        'phone-archived-0112',
        'phone-inactive-0120',
        'wa-active-0115',
      ]);
      const q = ct.sim.control.requests().at(-1)?.query;
      expect(q).toMatchObject({ createdAfter: '2025-01-10', createdBefore: '2025-01-20' });
      expect(await names({ createdAfter: new Date('2025-01-21') })).toEqual(['wa-finished-0121']);
      expect(await names({ createdBefore: new Date('2025-01-05') })).toEqual(['phone-pending-0105']);
    });

    it('started and ended ranges exclude campaigns not started / not ended', async () => {
      seedMix();
      expect(await names({ startedAfter: new Date('2025-02-02'), startedBefore: new Date('2025-02-05') })).toEqual([
        'phone-inactive-0120',
        'wa-active-0115',
        'wa-finished-0121',
      ]);
      // Pending campaigns have no started_at: a started range leaves them out, however wide.
      const anyStart = await names({ startedAfter: new Date('2000-01-01'), startedBefore: new Date('2100-01-01') });
      expect(anyStart).not.toContain('phone-pending-0105');
      expect(anyStart).toHaveLength(5);
      expect(await names({ endedAfter: new Date('2000-01-01') })).toEqual(['wa-finished-0121']);
      expect(await names({ endedBefore: new Date('2025-02-09') })).toEqual([]);
    });

    it('filters combine', async () => {
      seedMix();
      expect(await names({ status: 'active', integrationType: 'phone_call', agentId: ct.agentId })).toEqual([
        'phone-active-0110',
      ]);
    });
  });
});
