/**
 * Whose request is this: the person (Slack user id) on whose behalf the code now running calls the service. The
 * Slack layer sets it once per incoming Slack request (a Bolt middleware), so every service call made while handling
 * it, however deep, is attributed to that person without passing the id through every function; the shared rate
 * limiter uses it to take people's requests in turns (see limiter.ts). Work that serves everyone (the Home tab's
 * shared campaign list, the poller, uploads) runs as no one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const person = new AsyncLocalStorage<string | undefined>();

/** Runs `fn` with service calls attributed to `personId` (undefined: to no one). */
export function onBehalfOf<T>(personId: string | undefined, fn: () => T): T {
  return person.run(personId, fn);
}

/** Runs `fn` with its service calls attributed to no one: work shared by everyone. */
export function onBehalfOfNoOne<T>(fn: () => T): T {
  return person.run(undefined, fn);
}

/** The person the running code calls the service for, if any. */
export function currentPerson(): string | undefined {
  return person.getStore();
}
