/**
 * The control surface over HTTP, for manual use (curl) — no API key needed:
 *
 *   GET    /_sim/                      what is available, base URL and API keys
 *   GET    /_sim/requests              request log;  DELETE /_sim/requests clears it
 *   GET    /_sim/campaigns/{id}        getCampaignState
 *   POST   /_sim/{method}              any SimControl method; the JSON body is the argument list (an array) or the
 *                                      single argument (an object). Regexes are given as strings:
 *                                      injectFaults {"status":503,"count":2,"match":"POST .*\/contacts$"},
 *                                      setLatencyMs [500, "GET /api/v1.0/campaigns"], failContactItems ["^\\+52"];
 *                                      setAgentReply {"reply": "texto" | ["a","b"] | null}, or no body for the default.
 *
 * Answers `{result}` or 400 `{error}`.
 */
import type { SimControl } from './control.js';
import type { SimResponse } from './errors.js';
import type { FaultSpec } from './faults.js';
import { isObject } from './validate.js';

const METHODS = [
  'addAgent',
  'addIntegration',
  'seedCampaign',
  'setCampaignStatus',
  'deleteCampaign',
  'createCall',
  'updateCall',
  'addMessage',
  'updateThread',
  'setAgentReply',
  'setContactStatus',
  'setBillingLimitReached',
  'setPlanLimits',
  'injectFaults',
  'clearFaults',
  'setLatencyMs',
  'setRateLimit',
  'failContactItems',
  'requests',
  'clearRequests',
  'getCampaignState',
  'tick',
  'reset',
] as const;

const regex = (v: unknown): RegExp | undefined => (typeof v === 'string' ? new RegExp(v) : undefined);

function faultSpec(v: unknown): FaultSpec {
  if (!isObject(v)) throw new Error('A fault is an object {status, count?, match?, retryAfter?, body?, when?}.');
  return { ...(v as unknown as FaultSpec), match: regex(v.match) };
}

function call(control: SimControl, method: string, args: unknown[]): unknown {
  const a0 = args[0];
  switch (method) {
    case 'injectFaults':
      return control.injectFaults(Array.isArray(a0) ? a0.map(faultSpec) : faultSpec(a0));
    case 'setLatencyMs':
      return isObject(a0)
        ? control.setLatencyMs(Number(a0.ms), regex(a0.match))
        : control.setLatencyMs(Number(a0), regex(args[1]));
    case 'failContactItems':
      return control.failContactItems(regex(isObject(a0) ? a0.match : a0) ?? null);
    case 'setAgentReply': {
      if (!isObject(a0) || !('reply' in a0)) return control.setAgentReply();
      const reply = a0.reply as string | string[] | null;
      return control.setAgentReply(() => reply);
    }
    default: {
      const fn = (control as unknown as Record<string, (...x: unknown[]) => unknown>)[method];
      if (typeof fn !== 'function') throw new Error(`Unknown control method ${method}.`);
      return fn(...args);
    }
  }
}

export function handleControlHttp(
  control: SimControl,
  httpMethod: string,
  url: URL,
  body: unknown,
  info: { baseUrl: string; apiKey: string },
): SimResponse {
  const parts = url.pathname.split('/').filter(Boolean).slice(1);
  try {
    if (parts.length === 0)
      return { status: 200, body: { result: { ...info, apiKeys: control.apiKeys, methods: METHODS } } };
    const [name, id] = parts as [string, string | undefined];
    if (name === 'requests' && httpMethod === 'GET') return { status: 200, body: { result: control.requests() } };
    if (name === 'requests' && httpMethod === 'DELETE')
      return { status: 200, body: { result: control.clearRequests() ?? null } };
    if (name === 'campaigns' && id !== undefined && httpMethod === 'GET') {
      const s = control.getCampaignState(Number(id));
      return s ? { status: 200, body: { result: s } } : { status: 404, body: { error: `Campaign ${id} not found.` } };
    }
    if (httpMethod !== 'POST' || !(METHODS as readonly string[]).includes(name) || parts.length !== 1)
      return { status: 404, body: { error: `Unknown control route ${httpMethod} ${url.pathname}; see GET /_sim/.` } };
    const args = body === undefined ? [] : Array.isArray(body) ? body : [body];
    const result = call(control, name, args);
    return { status: 200, body: { result: result ?? null } };
  } catch (e) {
    return { status: 400, body: { error: e instanceof Error ? e.message : String(e) } };
  }
}
