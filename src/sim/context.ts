/** What a route handler receives and returns. */
import type { SimResponse } from './errors.js';
import type { SimState } from './model.js';

interface RouteCtx {
  state: SimState;
  /** Organization of the API key of the request. */
  org: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, `undefined` when empty, or an `InvalidJson` marker. */
  body: unknown;
}

export type Handler = (ctx: RouteCtx) => SimResponse;

export function ok(body: unknown, status = 200): SimResponse {
  return { status, body };
}
