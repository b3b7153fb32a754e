/**
 * src/reports/gatherings.ts on its own, against the simulator through the real client: asks beyond `maxAtOnce` wait
 * in order and say how many are ahead; a gathering charged to a person stops where their budget runs out, unless a
 * scheduled run shares it (a scheduled report costs no one, and no one's budget stops it).
 */
import { systemClock } from '../../src/clock.js';
import { OutreachClient } from '../../src/outreach/client.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { ReportGatherings, ReportOverBudget } from '../../src/reports/gatherings.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { createPersonBudget, type PersonBudget } from '../../src/slack/middleware/person-budget.js';
import { seedPhoneCampaign } from '../support/report-data.js';

let sim: Simulator;
let client: OutreachClient;
const ids: number[] = [];

beforeAll(async () => {
  sim = await startSimulator({ rateLimitPerSecond: false });
  client = new OutreachClient({
    baseUrl: sim.baseUrl,
    apiKey: sim.apiKey,
    limiter: new RateLimiter({ perSecond: 100 }),
  });
  for (let i = 0; i < 3; i++) ids.push(seedPhoneCampaign(sim.control, { called: 5, queued: 1, spreadHours: 10 }));
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

/** A person with no action left (the clock does not move: none comes back). */
async function spentBudget(userId: string): Promise<PersonBudget> {
  const budget = createPersonBudget({ perMinute: 1, burst: 1, now: () => 0 });
  expect((await budget.take(userId)).ok).toBe(true);
  return budget;
}

it('beyond maxAtOnce, asks wait in order and say how many are ahead; each campaign is read once', async () => {
  const g = new ReportGatherings(client, systemClock, { maxAtOnce: 1, requestsPerAction: 100 });
  sim.control.clearRequests();
  const asks = ids.map((campaignId) => g.ask({ campaignId, periodDays: 7 }));
  const again = g.ask({ campaignId: ids[2]!, periodDays: 7 });
  expect(asks.map((a) => a.status)).toEqual([
    { joined: false, ahead: 0 },
    { joined: false, ahead: 1 },
    { joined: false, ahead: 2 },
  ]);
  expect(again.status).toEqual({ joined: true, ahead: 2 });
  expect(g.counts()).toEqual({ running: 1, waiting: 2 });
  const figures = await Promise.all([...asks.map((a) => a.figures), again.figures]);
  expect(figures.map((f) => f.campaign.id)).toEqual([...ids, ids[2]]);
  expect(figures[3]).toBe(figures[2]);
  // In order, one after the other: each campaign's three requests together, and no more.
  const order = sim.control.requests().map((r) => Number(/\/campaigns\/(\d+)/.exec(r.path)![1]));
  expect(order).toEqual(ids.flatMap((id) => [id, id, id]));
  expect(g.counts()).toEqual({ running: 0, waiting: 0 });
});

it('a person over their budget stops the gathering at the next charge, with how long to wait', async () => {
  const g = new ReportGatherings(client, systemClock, {
    maxAtOnce: 2,
    requestsPerAction: 1,
    budget: await spentBudget('U1'),
  });
  const err = await g.ask({ campaignId: ids[0]!, periodDays: 7, payer: 'U1' }).figures.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ReportOverBudget);
  expect(err).toMatchObject({ requests: 1, waitMs: 60_000 });
});

it('a gathering a scheduled run shares costs no one, so no one’s budget stops it', async () => {
  const g = new ReportGatherings(client, systemClock, {
    maxAtOnce: 2,
    requestsPerAction: 1,
    budget: await spentBudget('U1'),
  });
  const person = g.ask({ campaignId: ids[1]!, periodDays: 7, payer: 'U1' });
  const scheduled = g.ask({ campaignId: ids[1]!, periodDays: 7 });
  expect(scheduled.status.joined).toBe(true);
  expect((await person.figures).gathered.requests).toBe(3);
  expect(await scheduled.figures).toBe(await person.figures);
});
