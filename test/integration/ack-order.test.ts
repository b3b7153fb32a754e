/**
 * Slack needs an answer within 3 s; the service may be slow. With the simulator answering after 1.5 s, every
 * command is acknowledged before the service has answered: asserted by the order of events (the ack's sequence
 * number against the sequence number of the answer posted after the service replied), not by a timer.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let id: number;

beforeAll(async () => {
  t = await startTestApp();
  const { control } = t.sim;
  const agent = control.addAgent({ name: 'Lento' });
  const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  id = Number(
    control.seedCampaign({
      name: 'Slow',
      agentId: agent.id,
      integrationId: phone.id,
      status: 'ready',
      contacts: [{ contact: '+525512340000', name: 'Ana' }],
    }).id,
  );
  control.setLatencyMs(1500);
});
afterAll(async () => t.close());

it('acks every subcommand before the service answers', async () => {
  const texts = [
    'list',
    `show ${id}`,
    `contacts ${id}`,
    `calls ${id}`,
    `pause ${id}`,
    `activate ${id}`,
    `archive ${id}`,
  ];
  const results = await Promise.all(
    texts.map(async (text) => {
      const ack = await t.driver.command(text);
      return { text, ack };
    }),
  );
  for (const r of results) expect(r.ack.status).toBe(200);
  // Every command ends with one answer through its own response_url, posted after the service replied.
  const answers = await t.fake.waitFor(() => {
    const calls = t.fake.calls('response_url');
    return calls.length >= texts.length ? calls : undefined;
  }, 15000);
  // responseUrlUses() and calls('response_url') are recorded together, in the same order.
  const uses = t.fake.responseUrlUses();
  for (const r of results) {
    const i = uses.findIndex((u) => u.url === r.ack.responseUrl);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(r.ack.seq).toBeLessThan(answers[i]!.seq);
  }
  // And the service was really slow: the first answer came after at least 1.5 s of the first ack.
  const firstAckAt = Math.min(...results.map((r) => r.ack.respondedAt));
  const firstAnswerAt = Math.min(...answers.map((c) => c.at));
  expect(firstAnswerAt - firstAckAt).toBeGreaterThanOrEqual(1400);
});
