/** Shared setup of the simulator tests: a started simulator, one agent with both integrations, and a fetch helper. */
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';

export interface Res {
  status: number;
  headers: Headers;
  /** Parsed JSON, the text when not JSON, undefined when empty. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Api {
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  get(path: string, headers?: Record<string, string>): Promise<Res>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  patch(path: string, body: unknown): Promise<Res>;
  put(path: string, body: unknown): Promise<Res>;
  del(path: string): Promise<Res>;
}

export function apiFor(baseUrl: string, apiKey: string | null): Api {
  const req = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { ...headers };
    if (apiKey !== null) h.Authorization = `api-key ${apiKey}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['Content-Type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const r = await fetch(baseUrl + path, { method, headers: h, body: payload });
    const text = await r.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: r.status, headers: r.headers, body: parsed };
  };
  return {
    req,
    get: (p, h) => req('GET', p, undefined, h),
    post: (p, b, h) => req('POST', p, b, h),
    patch: (p, b) => req('PATCH', p, b),
    put: (p, b) => req('PUT', p, b),
    del: (p) => req('DELETE', p),
  };
}

export interface Fixture {
  sim: Simulator;
  api: Api;
  agentId: string;
  phoneId: string;
  waId: string;
}

export async function startFixture(opts: SimulatorOptions = {}): Promise<Fixture> {
  const sim = await startSimulator({ rateLimitPerSecond: false, ...opts });
  const fx = { sim, api: apiFor(sim.baseUrl, sim.apiKey), agentId: '', phoneId: '', waId: '' };
  seedAgent(fx);
  return fx;
}

/** (Re)creates the fixture's agent "Ana Torres" with a phone and a WhatsApp integration (after control.reset()). */
export function seedAgent(fx: Fixture): void {
  const agent = fx.sim.control.addAgent({ name: 'Ana Torres' });
  fx.agentId = agent.id;
  fx.phoneId = fx.sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' }).id;
  fx.waId = fx.sim.control.addIntegration({ agentId: agent.id, type: 'whatsapp' }).id;
}

export function phoneBody(fx: Fixture, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Cobranza marzo',
    agent_id: fx.agentId,
    integration_id: fx.phoneId,
    integration_type: 'phone_call',
    ...extra,
  };
}

export function waBody(fx: Fixture, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Promo WhatsApp',
    agent_id: fx.agentId,
    integration_id: fx.waId,
    integration_type: 'whatsapp',
    ...extra,
  };
}

/** Creates a campaign over HTTP and returns its id (fails the test otherwise). */
export async function createCampaign(fx: Fixture, body: Record<string, unknown>): Promise<number> {
  const r = await fx.api.post('/campaigns', body);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.campaign.id as number;
}

/** `n` distinct Mexican E.164 numbers. */
export function phones(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => `+5255${String(10000000 + start + i)}`);
}

/** A clock that only moves when told. */
export function manualClock(startIso = '2026-03-01T12:00:00.000Z') {
  let t = Date.parse(startIso);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    set(iso: string) {
      t = Date.parse(iso);
    },
  };
}
