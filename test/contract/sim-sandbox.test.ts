/** Simulator sandbox: demo data, the live driver (calls, transcripts, contacts, analytics, cycles), `npm run sim`. */
import { spawn } from 'node:child_process';
import { CallList, CampaignDetail, CampaignList, ContactList, MessageList } from '../../src/outreach/schemas.js';
import { SANDBOX_AGENTS, SANDBOX_INTEGRATIONS, startSimulator, type Simulator } from '../../src/sim/index.js';
import { apiFor, phones, type Api } from '../support/sim.js';

async function allContacts(api: Api, id: number) {
  return ContactList.parse((await api.get(`/campaigns/${id}/contacts?page_size=100`)).body).contacts;
}

async function allCalls(api: Api, id: number) {
  return CallList.parse((await api.get(`/campaigns/${id}/calls?page_size=100`)).body).calls;
}

describe('sandbox data', () => {
  let sim: Simulator;
  let api: Api;
  beforeAll(async () => {
    sim = await startSimulator({ sandbox: { live: false, seed: 11 }, rateLimitPerSecond: false });
    api = apiFor(sim.baseUrl, sim.apiKey);
  });
  afterAll(() => sim.close());

  it('seeds named agents, phone and WhatsApp integrations, and campaigns in many statuses', async () => {
    const list = CampaignList.parse((await api.get('/campaigns?include_archived=true&page_size=100')).body);
    const statuses = new Set(list.campaigns.map((c) => c.status));
    for (const s of ['pending', 'ready', 'active', 'inactive', 'finished']) expect(statuses).toContain(s);
    expect(list.campaigns.some((c) => c.archived)).toBe(true);
    expect((await api.get('/campaigns')).body.total_count).toBe(list.total_count - 1);
    const details = await Promise.all(
      list.campaigns.map(async (c) => (await api.get(`/campaigns/${c.id}`)).body.campaign),
    );
    const types = new Set(details.map((d) => CampaignDetail.parse(d).integration?.type));
    expect(types).toEqual(new Set(['phone_call', 'whatsapp']));
    for (const d of details) {
      expect(SANDBOX_AGENTS.map((a) => a.id)).toContain(d.agent.id);
      expect(d.agent.name).toMatch(/·/);
      expect(SANDBOX_INTEGRATIONS.map((i) => i.id)).toContain(d.integration.id);
    }
    // The agent ids are usable on create.
    const created = await api.post('/campaigns', {
      name: 'Nueva',
      agent_id: SANDBOX_AGENTS[1].id,
      integration_id: 'int-wa-diego',
      integration_type: 'whatsapp',
      template: 'hola',
    });
    expect(created.status).toBe(201);
  });

  it('has Mexican E.164 contacts with Spanish names and call history with transcripts', async () => {
    const list = (await api.get('/campaigns?status=inactive')).body.campaigns;
    expect(list).toHaveLength(1);
    const id = list[0].id;
    const contacts = await allContacts(api, id);
    expect(contacts.length).toBeGreaterThan(5);
    for (const c of contacts) {
      expect(c.contact).toMatch(/^\+52\d{10}$/);
      expect(c.name).toMatch(/^[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+ [A-ZÁÉÍÓÚÑ]/);
    }
    const calls = await allCalls(api, id);
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.every((c) => Date.parse(c.created_at) < Date.now() - 86_400_000)).toBe(true);
    const talked = calls.find((c) => c.status === 'ended' && c.answered_by === 'human');
    expect(talked).toBeDefined();
    const msgs = MessageList.parse((await api.get(`/message/${talked?.thread_id}`)).body);
    expect(new Set(msgs.map((m) => m.sent_by))).toEqual(new Set(['AI', 'EU', 'SYS']));
    expect(msgs.some((m) => /Hola/.test(m.content ?? ''))).toBe(true);
    expect((await api.get(`/campaigns/${id}`)).body.campaign.analytics.calls).toBe(calls.length);
  });

  it('reset() empties and re-seeds the demo data', async () => {
    sim.control.reset();
    const list = CampaignList.parse((await api.get('/campaigns?include_archived=true&page_size=100')).body);
    expect(list.campaigns.map((c) => c.name)).not.toContain('Nueva');
    expect(list.total_count).toBeGreaterThanOrEqual(6);
  });
});

describe('live driver', () => {
  it('calls the queued contacts of an active phone campaign to the end, with a realistic mix', async () => {
    const sim = await startSimulator({ sandbox: { live: false, seed: 5 }, rateLimitPerSecond: false });
    try {
      const api = apiFor(sim.baseUrl, sim.apiKey);
      const id = (await api.get('/campaigns?status=active&integration_type=phone_call')).body.campaigns[0].id;
      const seen = new Set<string>();
      for (let i = 0; i < 400; i++) {
        sim.control.tick();
        for (const c of sim.control.getCampaignState(id)?.calls ?? []) seen.add(c.status as string);
        if (sim.control.getCampaignState(id)?.record.status === 'finished') break;
      }
      expect(sim.control.getCampaignState(id)?.record.status).toBe('finished');
      for (const s of ['created', 'queued', 'ringing', 'in-progress', 'ended']) expect(seen).toContain(s);

      const calls = await allCalls(api, id);
      const outcomes = new Set(calls.map((c) => (c.status === 'ended' ? `ended:${c.answered_by}` : c.status)));
      expect(outcomes).toContain('ended:human');
      expect([...outcomes].some((o) => ['busy', 'no-answer', 'failed'].includes(o))).toBe(true);
      const human = calls.filter((c) => c.answered_by === 'human');
      expect(human.length / calls.length).toBeGreaterThan(0.3);
      for (const c of human) {
        expect(c.policy_evaluation?.completed).toBe(true);
        expect(c.duration).toBeGreaterThanOrEqual(45);
        expect(c.recording_url).toBe(`/api/v1.0/call/${c.id}/recording`);
        expect(c.ended_by).toMatch(/^(agent|user)$/);
      }
      for (const c of calls.filter((x) => x.status !== 'ended')) expect(c.ended_by).toBe('');

      const contacts = await allContacts(api, id);
      for (const c of contacts) expect(['answered', 'converted', 'voicemail', 'failed']).toContain(c.status);
      expect(contacts.some((c) => c.status === 'converted')).toBe(true);
      const converted = contacts.find((c) => c.status === 'converted');
      expect(converted?.extracted_data?.resultado).toBe('interesado');

      const detail = (await api.get(`/campaigns/${id}`)).body.campaign;
      expect(detail.analytics).toMatchObject({
        calls: calls.length,
        contacts: contacts.length,
        contactsConverted: contacts.filter((c) => c.status === 'converted').length,
        contactsAnswered: contacts.filter((c) => ['answered', 'converted'].includes(c.status)).length,
      });
      const list = (await api.get('/campaigns?status=finished')).body.campaigns.find(
        (c: { id: number }) => c.id === id,
      );
      expect(list.ended_at).toEqual(expect.any(String));

      const transcript = MessageList.parse((await api.get(`/message/${human[0]?.thread_id}`)).body);
      expect(transcript.at(-1)).toMatchObject({ sent_by: 'SYS' });
      expect(transcript.at(-1)?.content).toMatch(/Llamada finalizada/);
    } finally {
      await sim.close();
    }
  });

  it('moves WhatsApp contacts sent -> delivered -> read -> accepted / rejected / converted', async () => {
    const sim = await startSimulator({ sandbox: { live: false, seed: 9 }, rateLimitPerSecond: false });
    try {
      const api = apiFor(sim.baseUrl, sim.apiKey);
      const id = (await api.get('/campaigns?status=active&integration_type=whatsapp')).body.campaigns[0].id;
      const seen = new Set<string>();
      for (let i = 0; i < 200 && sim.control.getCampaignState(id)?.record.status === 'active'; i++) {
        sim.control.tick();
        for (const c of sim.control.getCampaignState(id)?.contacts ?? []) seen.add(c.status as string);
      }
      expect(sim.control.getCampaignState(id)?.record.status).toBe('finished');
      for (const s of ['sending', 'sent', 'delivered', 'read']) expect(seen).toContain(s);
      const final = new Set((await allContacts(api, id)).map((c) => c.status));
      expect([...final].some((s) => ['accepted', 'rejected', 'converted'].includes(s))).toBe(true);
      const a = (await api.get(`/campaigns/${id}`)).body.campaign.analytics;
      expect(a.sent).toBeGreaterThan(0);
      expect(a.delivered).toBeLessThanOrEqual(a.sent);
      expect(a.read).toBeLessThanOrEqual(a.delivered);
    } finally {
      await sim.close();
    }
  });

  it('runs cycles: cooldown between iterations, contacts re-queued except filtered statuses, then finished', async () => {
    const sim = await startSimulator({ rateLimitPerSecond: false, sandbox: { live: false, seed: 3, cooldownMs: 0 } });
    try {
      const c = sim.control;
      const agent = c.addAgent({ name: 'Ciclos' });
      const integ = c.addIntegration({ agentId: agent.id, type: 'phone_call' });
      const d = c.seedCampaign({
        name: 'ciclos',
        agentId: agent.id,
        integrationId: integ.id,
        retries: 0,
        cycles: { enabled: true, max_iterations: 2, filter_statuses: ['converted', 'answered'] },
        contacts: phones(6, 500).map((contact) => ({ contact, name: 'Prueba Ciclo' })),
      });
      const id = d.id as number;
      const api = apiFor(sim.baseUrl, sim.apiKey);
      expect((await api.post(`/campaigns/${id}/activate`)).status).toBe(200);
      const statuses: string[] = [];
      for (let i = 0; i < 300; i++) {
        c.tick();
        const s = c.getCampaignState(id)?.record.status as string;
        if (statuses.at(-1) !== s) statuses.push(s);
        if (s === 'finished') break;
      }
      expect(statuses).toEqual(['active', 'cooldown', 'active', 'finished']);
      const rec = c.getCampaignState(id)?.record;
      expect(rec?.cycle_current_iteration).toBe(2);
      const calls = c.getCampaignState(id)?.calls ?? [];
      const firstRoundReached = new Set(calls.slice(0, 6).map((x) => (x.contact as { id: number }).id));
      expect(firstRoundReached.size).toBe(6);
      expect(calls.length).toBeLessThan(12 + 1); // the second round skips answered / converted contacts
    } finally {
      await sim.close();
    }
  });

  it('runs on its own interval in sandbox mode and stops on close()', async () => {
    const sim = await startSimulator({ sandbox: { tickMs: 5, seed: 2 }, rateLimitPerSecond: false });
    const api = apiFor(sim.baseUrl, sim.apiKey);
    const id = (await api.get('/campaigns?status=active&integration_type=phone_call')).body.campaigns[0].id;
    const deadline = Date.now() + 10_000;
    let ended = 0;
    while (Date.now() < deadline && ended === 0) {
      await new Promise((r) => setTimeout(r, 20));
      ended = (await api.get(`/campaigns/${id}/calls?status=ended`)).body.total_count;
    }
    expect(ended).toBeGreaterThan(0);
    await sim.close();
    const frozen = JSON.stringify(sim.control.getCampaignState(id));
    await new Promise((r) => setTimeout(r, 50));
    expect(JSON.stringify(sim.control.getCampaignState(id))).toBe(frozen);
  });
});

describe('npm run sim (src/sim/main.ts)', () => {
  it('starts the sandbox alone on PORT and prints its URL and key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sim/main.ts'], {
      env: { ...process.env, PORT: '0', SIM_API_KEY: 'k-main', SIM_TICK_MS: '50' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let buf = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${buf}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          buf += d.toString();
          if (/OUTREACH_API_KEY=/.test(buf)) {
            clearTimeout(timer);
            resolve(buf);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${buf}`)));
      });
      const base = /OUTREACH_BASE_URL=(\S+)/.exec(out)?.[1] as string;
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\.0$/);
      expect(out).toContain('OUTREACH_API_KEY=k-main');
      const r = await apiFor(base, 'k-main').get('/campaigns');
      expect(r.status).toBe(200);
      expect(r.body.total_count).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
