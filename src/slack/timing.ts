import { setTimeout } from 'node:timers/promises';

/**
 * Resolves to 'slow' after `ms`, without keeping the process alive: raced against a service call to decide whether
 * a Slack request must be answered before the call is done.
 */
export function slowAfter(ms: number): Promise<'slow'> {
  return setTimeout(ms, 'slow' as const, { ref: false });
}
