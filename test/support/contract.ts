/**
 * Shared setup of the contract tests: the real OutreachClient (with its own RateLimiter per test file, so files do
 * not share a pause) against a real simulator over HTTP on 127.0.0.1, one agent with both integrations, and checks
 * that what came back carries every field the spec lists (the client's schemas accept missing optional fields, so
 * a passing call alone would not catch a simulator that leaves one out).
 */
import { OutreachClient, type OutreachClientOptions } from '../../src/outreach/client.js';
import { OutreachError } from '../../src/outreach/errors.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import type { CreateCampaignInput } from '../../src/outreach/schemas.js';
import { englishErrorText } from '../../src/render/service-error.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';

/** A key that would stand out if it ever leaked into an error or a sentence. */
export const CONTRACT_KEY = 'contract-SECRET-key-7f3a9c1e5b';
const CONTRACT_ORG = 'org-contract';
/** The key of a second organization, to check that data is scoped to the key's organization. */
export const OTHER_ORG_KEY = 'contract-other-org-key-41d2';

export interface Contract {
  sim: Simulator;
  client: OutreachClient;
  limiter: RateLimiter;
  agentId: string;
  phoneId: string;
  waId: string;
  /** Creates a client of this simulator with other options (same limiter unless given); closed by close(). */
  clientWith(opts: Partial<OutreachClientOptions>): OutreachClient;
  /** Empties the simulator and re-seeds the agent and its integrations. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * The limiter of a contract file: 12 requests per window like production, but a 100 ms window, so a file of ~100
 * requests is not held to 12 per second (the suite must stay fast; the client's real 1-second limiter against the
 * simulator's real 12/s limit is checked on its own in contract-errors.test.ts).
 */
function contractLimiter(): RateLimiter {
  return new RateLimiter({ windowMs: 100, marginMs: 20 });
}

export async function startContract(
  simOpts: SimulatorOptions = {},
  limiter: RateLimiter = contractLimiter(),
): Promise<Contract> {
  const sim = await startSimulator({
    rateLimitPerSecond: false,
    orgs: { [CONTRACT_KEY]: CONTRACT_ORG, [OTHER_ORG_KEY]: 'org-other' },
    ...simOpts,
  });
  const clients: OutreachClient[] = [];
  const clientWith = (opts: Partial<OutreachClientOptions>): OutreachClient => {
    const c = new OutreachClient({
      baseUrl: sim.baseUrl,
      apiKey: CONTRACT_KEY,
      limiter,
      // Small retry delays: the retries themselves are under test, not their length.
      retryBaseMs: 20,
      retryMaxDelayMs: 200,
      ...opts,
    });
    clients.push(c);
    return c;
  };
  const ct: Contract = {
    sim,
    limiter,
    client: clientWith({}),
    agentId: '',
    phoneId: '',
    waId: '',
    clientWith,
    reset() {
      sim.control.reset();
      seed();
    },
    async close() {
      for (const c of clients) await c.close();
      await limiter.stop();
      await sim.close();
    },
  };
  const seed = () => {
    const agent = sim.control.addAgent({ name: 'Ana Torres' });
    ct.agentId = agent.id;
    ct.phoneId = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' }).id;
    ct.waId = sim.control.addIntegration({ agentId: agent.id, type: 'whatsapp' }).id;
  };
  seed();
  return ct;
}

export function phoneInput(ct: Contract, extra: Partial<CreateCampaignInput> = {}): CreateCampaignInput {
  return {
    name: 'Cobranza marzo',
    agent_id: ct.agentId,
    integration_id: ct.phoneId,
    integration_type: 'phone_call',
    ...extra,
  };
}

export function waInput(ct: Contract, extra: Partial<CreateCampaignInput> = {}): CreateCampaignInput {
  return {
    name: 'Promo WhatsApp',
    agent_id: ct.agentId,
    integration_id: ct.waId,
    integration_type: 'whatsapp',
    ...extra,
  };
}

/** `n` distinct Mexican E.164 numbers. */
export function phones(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => `+5255${String(20000000 + start + i)}`);
}

/** Every name is present on `obj` (null allowed where the spec says nullable or the value is not set yet). */
export function expectFields(obj: object, names: readonly string[]): void {
  const missing = names.filter((n) => !(n in obj) || (obj as Record<string, unknown>)[n] === undefined);
  expect(missing).toEqual([]);
}

/** Fields of the spec's resources (Resources and their fields). */
export const SPEC_FIELDS = {
  campaignDetail: ['id', 'name', 'status', 'integration', 'agent', 'created_at', 'scheduling', 'cycles'],
  campaignListItem: [
    'id',
    'name',
    'description',
    'status',
    'created_at',
    'started_at',
    'ended_at',
    'agent',
    'scheduling',
    'timezone',
    'retries',
    'archived',
    'template',
    'first_message',
    'concurrency_limit',
    'cycle_enabled',
    'cycle_max_iterations',
    'cycle_cooldown_minutes',
    'cycle_filter_statuses',
    'cycle_filter_tags',
    'cycle_current_iteration',
    'cycle_last_iteration_at',
  ],
  contact: [
    'id',
    'f_id',
    'name',
    'contact',
    'status',
    'context',
    'retries',
    'has_follow_up',
    'call_count',
    'billed_duration',
    'last_call_at',
    'extracted_data',
    'tags',
  ],
  call: [
    'id',
    'thread_id',
    'type',
    'status',
    'answered_by',
    'created_at',
    'started_at',
    'ended_at',
    'ended_by',
    'ended_reason',
    'duration',
    'billed_duration',
    'policy_evaluation',
  ],
  callItemExtra: ['contact', 'extracted_data', 'tags', 'recording_url'],
  thread: ['id', 'agent', 'end_user', 'integration', 'updated_at', 'active', 'blocked', 'tags', 'assigned_to'],
  endUser: ['id', 'display_name', 'integration_type', 'info'],
  message: ['thread_id', 'type', 'sent_by', 'sent_at', 'content', 'media', 'sent_by_user', 'read'],
} as const;

/** Runs `p`, which must fail with an OutreachError, and returns that error. */
export async function outreachError(p: Promise<unknown>): Promise<OutreachError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OutreachError) return e;
    throw new Error(`expected an OutreachError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected an OutreachError, but the call succeeded');
}

/** englishErrorText(err) is one non-empty sentence that does not leak the API key (nor does the technical message). */
export function expectHumanSentence(err: unknown, ...secrets: string[]): string {
  const text = englishErrorText(err);
  expect(text.trim().length).toBeGreaterThan(20);
  expect(text).toMatch(/^[A-Z"].*[.!?]$/s);
  expect(text).not.toMatch(/[;:,] *\.$|\.\.$|undefined|null|\[object/);
  for (const s of [CONTRACT_KEY, ...secrets]) {
    expect(text).not.toContain(s);
    if (err instanceof Error) expect(err.message).not.toContain(s);
  }
  return text;
}
