/**
 * The shared limiter against the simulator: 200 add-contacts batches of 1,000 rows through the client, all queued
 * at once. Prints the achieved requests/s (target: within 5% of 12/s) and the number of 429s the simulator sent
 * (target: 0).
 */
import { OutreachClient } from '../src/outreach/client.js';
import { RateLimiter } from '../src/outreach/limiter.js';
import { startSimulator } from '../src/sim/index.js';
import type { ContactInput } from '../src/outreach/schemas.js';

const BATCHES = 200;
const PER_BATCH = 1000;

const sim = await startSimulator();
const agent = sim.control.addAgent({ name: 'Bench' });
const integration = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
const campaign = sim.control.seedCampaign({ name: 'Bench', agentId: agent.id, integrationId: integration.id });
const client = new OutreachClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, limiter: new RateLimiter() });

function batch(b: number): ContactInput[] {
  return Array.from({ length: PER_BATCH }, (_, i) => {
    const n = b * PER_BATCH + i;
    return { contact: `+5255${String(10_000_000 + n).padStart(8, '0')}`, name: `Contacto ${n}` };
  });
}

const started = performance.now();
const results = await Promise.all(
  Array.from({ length: BATCHES }, (_, b) =>
    client.addContacts(Number(campaign.id), { contacts: batch(b) }, { priority: 'bulk' }),
  ),
);
const seconds = (performance.now() - started) / 1000;
const created = results.reduce((n, r) => n + r.summary.created, 0);
const requests = sim.control.requests().filter((r) => r.path.endsWith('/contacts') && r.method === 'POST');
const got429 = requests.filter((r) => r.status === 429).length;
const rate = requests.length / seconds;
console.log(`batches: ${BATCHES} x ${PER_BATCH} contacts, created ${created}`);
console.log(`requests sent: ${requests.length} in ${seconds.toFixed(2)} s`);
console.log(
  `achieved: ${rate.toFixed(2)} requests/s (target 12/s ±5%: ${Math.abs(rate - 12) / 12 <= 0.05 ? 'met' : 'NOT met'})`,
);
console.log(`429s received: ${got429} (target 0)`);
await client.close();
await sim.close();
