/**
 * A port for a process a test starts itself (a replica, the entry point), found before that process binds it. (Not
 * for jest's globalSetup, which cannot import the project's modules: it runs before any worker, so its own port-0
 * lookup races with no test.)
 *
 * Asking the OS for port 0 and closing it again is a race: between the close and the child's bind, any other test
 * listening on port 0 in another jest worker may be handed the same port (EADDRINUSE, seen in CI). So the ports come
 * from below Linux's ephemeral range (32768+, where port-0 listeners land), in a band of 400 per jest worker: no
 * other worker and no port-0 listener ever gets one. Each is still checked free on every address before it is given,
 * for whatever else runs on the machine.
 */
import { createServer } from 'node:net';

const FIRST = 16_000;
const BAND = 400;
const BANDS = 40; // 16,000 + 40 × 400 = 32,000: below the ephemeral range

const worker = Number(process.env.JEST_WORKER_ID ?? 0) % BANDS;
// From a random place in the band: another jest run on the machine at the same time (its workers have the same ids)
// then rarely asks for the same port at the same moment.
let next = Math.floor(Math.random() * BAND);

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    // Only a port in use counts as taken; a family the machine lacks (no IPv6) says nothing about the port.
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code !== 'EADDRINUSE' && e.code !== 'EACCES'));
    s.listen({ port, host, exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** A port no other jest worker is handed and nothing on the machine listens on now. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BAND; tries++) {
    const port = FIRST + worker * BAND + (next++ % BAND);
    // The app listens on every address (Bolt's receiver binds ::); the check binds both families' wildcards.
    if ((await bindable(port, '::')) && (await bindable(port, '0.0.0.0'))) return port;
  }
  throw new Error(
    `no free port in worker ${worker}'s band ${FIRST + worker * BAND}–${FIRST + (worker + 1) * BAND - 1}`,
  );
}
