/**
 * The playground with PLAYGROUND_SOCKET_MODE=true: the app connects to the emulator in Socket Mode, and what a
 * person does on the page reaches it as envelopes over that connection instead of signed HTTP requests.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { loadPlaygroundSettings } from '../../src/config.js';
import type { PageEvent } from '../../src/playground/api.js';
import { startPlayground, type Playground } from '../../src/playground/start.js';
import { EventsOf, post } from '../support/playground-client.js';

let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({
    settings: { ...loadPlaygroundSettings({ PLAYGROUND_SOCKET_MODE: 'true' }), port: 0, logLevel: 'silent' },
    start: { sandboxTickMs: 3_600_000, watch: { autoPoll: false } },
  });
});
afterAll(async () => pg?.close());

it('answers /campaign help over Socket Mode, to the person who typed it', async () => {
  const events = await EventsOf.open(pg.url, 'U0SAM');
  const answer = await post(pg.url, 'message', { as: 'U0SAM', channel: 'C0OPERATIONS', text: '/campaign help' });
  expect(answer.body).toEqual({ ok: true });
  const help = await events.next(
    (e) => e.type === 'ephemeral' && JSON.stringify(e.ephemeral).includes('list [status]'),
  );
  events.close();
  expect((help as Extract<PageEvent, { type: 'ephemeral' }>).ephemeral.channel).toBe('C0OPERATIONS');
  const acks = pg.emulator.socket.acks();
  expect(acks.some((a) => a.type === 'slash_commands')).toBe(true);
  expect(pg.emulator.socket.connections().some((c) => c.open)).toBe(true);
});
