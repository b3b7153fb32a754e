/**
 * The route table of the simulated service (paths relative to /api/v1.0). Route names match the OutreachApi
 * methods, so RATE_LIMITED_ENDPOINTS names the rate-limited ones directly.
 */
import { RATE_LIMITED_ENDPOINTS } from '../outreach/unspecified.js';
import { campaignAction, createCampaign, getCampaign, listCampaigns, updateCampaign } from './campaigns.js';
import { addContacts, deleteContact, getContact, listContacts } from './contacts.js';
import type { Handler } from './context.js';
import {
  createEndUser,
  getCall,
  getEndUser,
  getMessages,
  getRecording,
  getThread,
  listCampaignCalls,
  sendMessage,
  updateEndUser,
} from './conversations.js';

export interface Route {
  name: string;
  method: string;
  pattern: string;
  handler: Handler;
  /** Which error envelope the route answers with for server-side errors: campaign envelope or generic. */
  family: 'campaign' | 'generic';
  /** Honours `Idempotency-Key`. */
  idempotent: boolean;
  rateLimited: boolean;
}

type Def = [name: string, method: string, pattern: string, handler: Handler, idempotent?: boolean];

const DEFS: Def[] = [
  ['createCampaign', 'POST', '/campaigns', createCampaign, true],
  ['listCampaigns', 'GET', '/campaigns', listCampaigns],
  ['getCampaign', 'GET', '/campaigns/:id', getCampaign],
  ['updateCampaign', 'PATCH', '/campaigns/:id', updateCampaign],
  ['addContacts', 'POST', '/campaigns/:id/contacts', addContacts, true],
  ['listContacts', 'GET', '/campaigns/:id/contacts', listContacts],
  ['listCampaignCalls', 'GET', '/campaigns/:id/calls', listCampaignCalls],
  ['campaignAction', 'POST', '/campaigns/:id/:action', campaignAction],
  ['getContact', 'GET', '/campaigns/:id/contacts/:contactId', getContact],
  ['deleteContact', 'DELETE', '/campaigns/:id/contacts/:contactId', deleteContact],
  ['getCall', 'GET', '/call/:id', getCall],
  ['getRecording', 'GET', '/call/:id/recording', getRecording],
  ['getThread', 'GET', '/thread/:id', getThread],
  ['getMessages', 'GET', '/message/:threadId', getMessages],
  // Not in the spec for /message; honoured here as for the documented ones (the app sends one with every reply).
  ['sendMessage', 'POST', '/message', sendMessage, true],
  ['createEndUser', 'POST', '/enduser', createEndUser],
  ['getEndUser', 'GET', '/enduser/:id', getEndUser],
  ['updateEndUser', 'PUT', '/enduser/:id', updateEndUser],
];

const ROUTES: Route[] = DEFS.map(([name, method, pattern, handler, idempotent]) => ({
  name,
  method,
  pattern,
  handler,
  family: pattern.startsWith('/campaigns') ? 'campaign' : 'generic',
  idempotent: idempotent ?? false,
  rateLimited: (RATE_LIMITED_ENDPOINTS as readonly string[]).includes(name),
}));

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** Finds the route of a path relative to /api/v1.0 (a trailing slash is accepted). */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method', allowed: [...new Set(allowed)] } : { kind: 'none' };
}
