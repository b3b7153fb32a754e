/**
 * Several replicas on one PostgreSQL (issue 14, part 4): three app processes on one database behind the fake Slack,
 * Slack's requests spread over them. Calls go on in the simulator of a campaign watched in two channels (each
 * `watch` made through another replica); the leader is SIGKILLed in the middle of a poll cycle, then the next one
 * in the middle of an upload it runs. Afterwards:
 * - every call has exactly one message per watching channel, showing its end, and every thread message is in its
 *   thread exactly once;
 * - one Slack event delivered to two replicas (the second with Slack's retry headers) was relayed once;
 * - the simulator (which counts 12 a second on the spec's rate-limited endpoints) never answered 429;
 * - the upload finished on another replica with each contact added once (each batch applied once at the service);
 * - exactly one replica led at a time, and a new one led within 2 × POLL_INTERVAL_SECONDS + 15 s of each kill.
 */
import { expect, it } from '@jest/globals';
import { batchIdempotencyKey } from '../../src/contacts/index.js';
import { RATE_LIMITED_ENDPOINTS } from '../../src/outreach/unspecified.js';
import { callMessagesIn, replicaSetOfFile, seedPhoneCampaign, uploadThrough } from '../support/replicas.js';

const CHANNELS = ['C0OPS', 'C0SALES'] as const;
const POLL_INTERVAL_SECONDS = 5;
/** The bound on a takeover after the leader dies. */
const FAILOVER_BOUND_MS = 2 * POLL_INTERVAL_SECONDS * 1000 + 15_000;
const ROWS = 300;
const BATCH = 10;
const BATCHES = ROWS / BATCH;
/** The upload through the replica that stays, at the same time. */
const PRESSURE_ROWS = 400;

const set = replicaSetOfFile({
  count: 3,
  env: { POLL_INTERVAL_SECONDS: String(POLL_INTERVAL_SECONDS) },
  start: {
    // Polls every second; one message per call (no digest), Slack pacing scaled down (the fake enforces none here).
    watch: {
      pollIntervalMs: 1000,
      minGapMs: 30,
      retryDelayMs: 200,
      backoffMs: 50,
      burstThreshold: 1000,
      workspacePostsPerInterval: 100_000,
    },
    // Slack's per-method windows 20 times faster: this test checks what is posted, not Slack's pace.
    slackTimeScale: 20,
    upload: { batchSize: BATCH, concurrency: 2, progressIntervalMs: 200, retryBaseMs: 50, leaseMs: 3000 },
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = <T>(what: string, fn: () => T | Promise<T>, timeoutMs: number) => set.until(what, fn, timeoutMs);
const theLeader = (timeoutMs: number) => set.theLeader(timeoutMs);
const callMessages = (channel: string, callId: string) => callMessagesIn(set.fake, channel, callId);

/** Kills replica `i` right after the simulator received a poll request (the leader is in the middle of a cycle). */
async function killMidCycle(i: number): Promise<number> {
  const seen = set.sim.control.requests().length;
  await until(
    'a poll request',
    () =>
      set.sim.control
        .requests()
        .slice(seen)
        .some((r) => r.route === 'listCampaignCalls'),
    10_000,
  );
  await set.kill(i);
  return Date.now();
}

async function command(replica: number, text: string, channelId: string): Promise<Record<string, unknown>> {
  const r = await set.driverFor(replica).command(text, { channelId });
  expect(r.status).toBe(200);
  const use = await until(
    'the command answer',
    () => set.fake.responseUrlUses().find((u) => u.url === r.responseUrl),
    10_000,
  );
  return use.body as Record<string, unknown>;
}

it('three replicas: one polls at a time, failovers lose and repeat nothing, one budget at the service', async () => {
  const started = Date.now();
  const { sim, fake } = set;
  const watched = seedPhoneCampaign(sim, 'Replicas', {
    contacts: Array.from({ length: 200 }, (_, i) => ({
      contact: `+5255${String(10000000 + i).padStart(8, '0')}`,
      name: `Contact ${i + 1}`,
    })),
  });
  // Each watch through another replica: whichever polls honours both.
  for (const [k, channel] of CHANNELS.entries()) {
    const answer = await command(k, `watch ${watched}`, channel);
    expect(JSON.stringify(answer)).not.toMatch(/couldn.t|cannot|error/i);
  }

  // Calls and their conversations go on in the simulator throughout.
  const calls: { id: string; threadId: string; texts: string[]; ended: boolean }[] = [];
  let tick = 0;
  const say = (c: (typeof calls)[number], sentBy: 'AI' | 'EU') => {
    const content = `${sentBy === 'AI' ? 'agent' : 'customer'} line ${c.texts.length + 1} of ${c.id}`;
    sim.control.addMessage(c.threadId, { sent_by: sentBy, content });
    c.texts.push(content);
  };
  const step = () => {
    tick++;
    const call = sim.control.createCall(watched, { status: 'in-progress' });
    const c = { id: call.id as string, threadId: call.thread_id as string, texts: [] as string[], ended: false };
    calls.push(c);
    say(c, 'AI');
    for (const o of calls.filter((x) => !x.ended && x !== c)) if ((tick + o.texts.length) % 3 === 0) say(o, 'EU');
    // About four calls open at a time.
    const open = calls.filter((x) => !x.ended);
    if (open.length > 4) {
      const oldest = open[0]!;
      sim.control.updateCall(oldest.id, { status: 'ended', answered_by: 'human', duration: 30 + tick });
      oldest.ended = true;
    }
  };
  const generator = setInterval(step, 400);

  try {
    const first = await theLeader(15_000);

    // One Slack event to two replicas (Slack retried it, with its retry headers): relayed once.
    // (A person answers a call whose conversation is showing: its intro and first line are in the thread.)
    const parent = await until(
      'a call message with its conversation',
      () => fake.messages(CHANNELS[0]).find((m) => m.metadata && fake.threadReplies(CHANNELS[0], m.ts).length >= 2),
      15_000,
    );
    const others = [0, 1, 2].filter((i) => i !== first);
    const { ack } = await set.driverFor(others[0]!).userMessage({
      channelId: CHANNELS[0],
      threadTs: parent.ts,
      text: 'relayed once across replicas',
      eventId: 'Ev0REPLICAS',
    });
    const again = await set
      .driverFor(others[1]!)
      .event(ack.payload.event as Record<string, unknown>, { eventId: 'Ev0REPLICAS', retryNum: 1 });
    expect(again.status).toBe(200);

    // The leader dies in the middle of a poll cycle.
    const firstKilledAt = await killMidCycle(first);
    const second = await theLeader(FAILOVER_BOUND_MS);
    const firstFailoverMs = Date.now() - firstKilledAt;
    expect(second).not.toBe(first);

    // An upload through the new leader, which dies in the middle of it (and of a poll cycle); another upload at
    // the same time through the replica that stays, so two replicas want more than the service's 12/s together.
    const csv = (n: number, from: number) => {
      const lines = ['Nombre,Teléfono'];
      for (let i = 0; i < n; i++) lines.push(`Persona ${from + i},55${String(10_000_000 + from + i).slice(-8)}`);
      return `${lines.join('\n')}\n`;
    };
    const upload = async (replica: number, name: string, rows: number, from: number) => {
      const campaignId = seedPhoneCampaign(sim, name, { status: 'ready' });
      const f = fake.addFile({ name: `${name}.csv`, content: csv(rows, from) });
      await uploadThrough(set, replica, campaignId, f, { userId: 'U0ADMIN', channelId: CHANNELS[0] });
      return { campaignId, file: f };
    };
    sim.control.setLatencyMs(150, /\/contacts$/);
    const survivor = [0, 1, 2].find((i) => i !== first && i !== second)!;
    const { campaignId: uploadCampaign, file } = await upload(second, 'replicas', ROWS, 20_000);
    const pressure = await upload(survivor, 'pressure', PRESSURE_ROWS, 40_000);
    const uploaded = () => sim.control.getCampaignState(uploadCampaign)?.contacts.length ?? 0;
    await until('the first batches of the upload', () => uploaded() >= 3 * BATCH, 15_000);
    expect(uploaded()).toBeLessThan(ROWS - 3 * BATCH);
    const secondKilledAt = await killMidCycle(second);
    const third = await theLeader(FAILOVER_BOUND_MS);
    const secondFailoverMs = Date.now() - secondKilledAt;
    expect([first, second]).not.toContain(third);

    // The calls end; their last words are said.
    await sleep(1500);
    clearInterval(generator);
    for (const c of calls.filter((x) => !x.ended)) {
      say(c, 'AI');
      sim.control.updateCall(c.id, { status: 'ended', answered_by: 'human', duration: 99 });
      c.ended = true;
    }
    /** What is not in Slack yet: calls not shown ended, thread messages missing. */
    const missing = () =>
      calls.flatMap((c) =>
        CHANNELS.flatMap((ch) => {
          const [m] = callMessages(ch, c.id);
          if (!m) return [`${ch}: no message for call ${c.id}`];
          if (!m.text.includes('Ended')) return [`${ch}: call ${c.id} not shown ended (${m.text.slice(0, 60)})`];
          const replies = fake.threadReplies(ch, m.ts).map((r) => r.text);
          return c.texts
            .filter((t) => !replies.some((r) => r.includes(t)))
            .map(
              (t) => `${ch}: "${t}" not in thread (${replies.length} replies: ${replies.join(' | ').slice(0, 300)})`,
            );
        }),
      );
    // Patience, not a bound: on a loaded machine the calls made meanwhile are more, and the leader reads their
    // conversations within the shared 12/s (behind two uploads), so catching up can take a minute.
    await until('every call shown ended with its whole conversation', () => missing().length === 0, 90_000).catch(
      (err: Error) => {
        const empty = calls.filter((c) => {
          const [m] = callMessages(CHANNELS[0], c.id);
          return m && fake.threadReplies(CHANNELS[0], m.ts).length === 0;
        });
        const at = (c: (typeof calls)[number]) => calls.indexOf(c);
        throw new Error(
          `${empty.length} of ${calls.length} calls without replies (${empty.map(at).join(',')})\n` +
            `${JSON.stringify(
              sim.control.requests().reduce<Record<string, number>>((acc, r) => {
                acc[String(r.route)] = (acc[String(r.route)] ?? 0) + 1;
                return acc;
              }, {}),
            )}\n` +
            `${missing().slice(0, 10).join('\n')}\n${err.message}`,
        );
      },
    );
    await until(
      'the other upload',
      () => (sim.control.getCampaignState(pressure.campaignId)?.contacts.length ?? 0) >= PRESSURE_ROWS,
      30_000,
    );
    const summary = await until(
      'the upload summary',
      () => fake.allMessages().find((m) => m.text.includes('replicas.csv') && /Upload finished/.test(m.text)),
      30_000,
    );
    // Two more cycles: anything posted twice would show now.
    await sleep(2500);

    // Every call: one message per watching channel; every thread message once.
    expect(calls.length).toBeGreaterThan(10);
    for (const c of calls) {
      for (const ch of CHANNELS) {
        const msgs = callMessages(ch, c.id);
        expect(msgs).toHaveLength(1);
        const replies = fake.threadReplies(ch, msgs[0]!.ts).map((r) => r.text);
        for (const t of c.texts) expect(replies.filter((r) => r.includes(t))).toHaveLength(1);
      }
    }

    // The event sent to two replicas reached the service once.
    const relayed = sim.control
      .requests()
      .filter((r) => r.route === 'sendMessage' && JSON.stringify(r.body).includes('relayed once across replicas'));
    expect(relayed).toHaveLength(1);

    // One budget at the service: the simulator, which counts the rate-limited endpoints in every sliding second as
    // the spec's limit does, never had to answer 429. (That is the service's own verdict. Counting again here by the
    // requests' arrival times would measure this machine's load: a busy CI delays some requests on their way more
    // than the limiter's margin, and their arrivals bunch although each started in its own slot.)
    const requests = sim.control.requests().filter((r) => r.route !== null);
    expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
    const limited = new Set<string>(RATE_LIMITED_ENDPOINTS);
    const times = requests
      .filter((r) => r.route !== null && limited.has(r.route))
      .map((r) => Date.parse(r.at))
      .sort((a, b) => a - b);
    let busiest = 0;
    for (let i = 0, j = 0; j < times.length; j++) {
      while (times[j]! - times[i]! >= 1000) i++;
      busiest = Math.max(busiest, j - i + 1);
    }
    expect(busiest).toBeGreaterThanOrEqual(8);

    // The upload finished on the last replica: each contact once, each batch applied once at the service.
    const numbers = (sim.control.getCampaignState(uploadCampaign)?.contacts ?? []).map((c) => c.contact);
    expect(numbers).toHaveLength(ROWS);
    expect(new Set(numbers).size).toBe(ROWS);
    const posts = requests.filter((r) => r.route === 'addContacts' && r.path.includes(`/campaigns/${uploadCampaign}/`));
    for (let b = 0; b < BATCHES; b++) {
      const key = batchIdempotencyKey(file.id, uploadCampaign, b);
      const applied = posts.filter((r) => r.headers['idempotency-key'] === key && !r.replayed && r.status < 300);
      expect(applied).toHaveLength(1);
    }
    expect(JSON.stringify(summary.blocks)).toContain(`*Created*\\n${ROWS}`);
    const pressureNumbers = (sim.control.getCampaignState(pressure.campaignId)?.contacts ?? []).map((c) => c.contact);
    expect(pressureNumbers).toHaveLength(PRESSURE_ROWS);
    expect(new Set(pressureNumbers).size).toBe(PRESSURE_ROWS);
    expect(set.log(third)).toContain('took over an upload');

    console.log(
      `replicas: ${calls.length} calls, ${requests.length} service requests (busiest second ${busiest}), ` +
        `failovers ${firstFailoverMs} ms and ${secondFailoverMs} ms, ${Date.now() - started} ms in all`,
    );
  } finally {
    clearInterval(generator);
  }
}, 240_000);
