/**
 * GET /healthz of the real app says whether it can do its job: 200 with every check passing; 503 naming the check
 * when the state cannot be saved (STATE_DIR unwritable, a file write failing) or when Slack refuses the bot token (seen
 * by the periodic auth.test, or on a real call and confirmed by auth.test), and 200 again once fixed. No secret in
 * the answer.
 */
import { mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseExposition } from '../support/promText.js';
import { SIGNING_SECRET, startTestApp, type TestApp } from '../support/testApp.js';
import { ADMIN, CHANNEL } from '../support/upload.js';

interface Report {
  ok: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

async function healthz(t: TestApp): Promise<{ status: number; body: Report; text: string }> {
  const res = await fetch(`http://127.0.0.1:${t.app.port}/healthz`);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Report, text };
}

/** Asks /healthz until it answers `status` (or the time is up); returns the last answer. */
async function healthzUntil(t: TestApp, status: number, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await healthz(t);
    if (r.status === status || Date.now() > until) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function noSecrets(t: TestApp, text: string): void {
  expect(text).not.toContain(t.fake.botToken);
  expect(text).not.toContain(t.sim.apiKey);
  expect(text).not.toContain(SIGNING_SECRET);
}

describe('the state store', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { storeProbeMs: 0 } } });
  });
  afterEach(async () => {
    await mkdir(t.config.stateDir, { recursive: true }).catch(() => undefined);
    await t.close();
  });

  it('answers 200 with every check passing, and says this process leads (the embedded store has one)', async () => {
    const r = await healthz(t);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      checks: { listening: { ok: true }, store: { ok: true }, slack_auth: { ok: true } },
      leader: true,
    });
  });

  it('answers 503 naming the store while STATE_DIR cannot be written, and 200 once it can', async () => {
    const dir = t.config.stateDir;
    // The state directory replaced by a file: nothing can be written in it (root or not).
    await rm(dir, { recursive: true, force: true });
    await writeFile(dir, 'not a directory');

    const bad = await healthz(t);
    expect(bad.status).toBe(503);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.checks.store).toEqual({
      ok: false,
      detail: expect.stringMatching(
        /^cannot write the state in .*: a path component is not a directory \(ENOTDIR\); changes are refused and delivery to Slack waits until it can$/,
      ) as unknown,
    });
    expect(bad.body.checks.slack_auth).toEqual({ ok: true });
    noSecrets(t, bad.text);
    const metrics = parseExposition(await (await fetch(`http://127.0.0.1:${t.app.port}/metrics`)).text());
    expect(metrics.sum('outreach_slack_health_check_ok', { check: 'store' })).toBe(0);
    // Nothing moves on as if saved while the store cannot write.
    await expect(t.app.deps.store.collection<{ n: number }>('health-test').put('k', { n: 1 })).rejects.toThrow(
      /was not saved: cannot write the state in/,
    );

    await rm(dir, { force: true });
    await mkdir(dir);
    expect((await healthz(t)).status).toBe(200);
    await t.app.deps.store.collection<{ n: number }>('health-test').put('k', { n: 1 });
  });

  it('answers 503 while a save failed, and saves what was kept in memory once it can', async () => {
    const store = t.app.deps.store;
    await store.collection<{ n: number }>('health-test').put('a', { n: 0 });
    // Directories where the store appends its journal and writes its temporary file: neither can be written.
    const file = join(t.config.stateDir, 'collections', 'health-test', '@keys.json');
    await mkdir(`${file}.j1`);
    await mkdir(`${file}.tmp`);
    await expect(store.collection<{ n: number }>('health-test').put('k', { n: 1 })).rejects.toThrow(
      /not saved: cannot write the state in .*\(EISDIR\)/,
    );

    const bad = await healthz(t);
    expect(bad.status).toBe(503);
    expect(bad.body.checks.store).toEqual({
      ok: false,
      detail: expect.stringMatching(
        /^cannot write the state in .*: a directory is in the way of a file \(EISDIR\); changes are refused/,
      ) as unknown,
    });

    await rm(`${file}.tmp`, { recursive: true });
    await rm(`${file}.j1`, { recursive: true });
    expect((await healthz(t)).status).toBe(200);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { records: Record<string, { value: unknown }> };
    expect(onDisk.records.k?.value).toEqual({ n: 1 });
  });
});

describe('Slack auth', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('answers 503 once the periodic auth.test finds the token revoked, without showing it', async () => {
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { slackAuthCheckMs: 100 } } });
    expect((await healthz(t)).status).toBe(200);
    t.fake.revokeToken(t.fake.botToken);

    const bad = await healthzUntil(t, 503);
    expect(bad.status).toBe(503);
    expect(bad.body.checks.slack_auth).toEqual({
      ok: false,
      detail: 'Slack refuses the bot token (token_revoked): reinstall the app or set SLACK_BOT_TOKEN to a valid token',
    });
    expect(bad.body.checks.store).toEqual({ ok: true });
    noSecrets(t, bad.text);
  });

  it('notices a refusal on a real call at once, confirmed by auth.test', async () => {
    // No periodic check within the test: only the real call can tell.
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { slackAuthCheckMs: 600_000 } } });
    await t.fake.waitForCall('auth.test');
    expect((await healthz(t)).status).toBe(200);
    t.fake.revokeToken(t.fake.botToken);

    const ack = await t.driver.command('create', { userId: ADMIN, channelId: CHANNEL });
    expect(ack.status).toBe(200);
    await t.fake.waitForCall('views.open', (c) => c.error === 'token_revoked', 5000);
    const bad = await healthzUntil(t, 503);
    expect(bad.status).toBe(503);
    expect(bad.body.checks.slack_auth!.detail).toContain('token_revoked');
    // The first refused call may be another than views.open (the person's language is looked up with users.info):
    // auth.test confirms after whichever came first.
    const firstRefused = Math.min(
      ...t.fake
        .calls()
        .filter((c) => c.error === 'token_revoked')
        .map((c) => c.seq),
    );
    const confirmations = t.fake.calls('auth.test').filter((c) => c.seq > firstRefused);
    expect(confirmations.length).toBeGreaterThanOrEqual(1);
  });

  it('stays 200 when auth.test does not confirm a single refused call', async () => {
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { slackAuthCheckMs: 600_000 } } });
    await t.fake.waitForCall('auth.test');
    t.fake.failNext('views.open', 'invalid_auth');

    await t.driver.command('create', { userId: ADMIN, channelId: CHANNEL });
    const refused = await t.fake.waitForCall('views.open', (c) => c.error === 'invalid_auth', 5000);
    await t.fake.waitForCall('auth.test', (c) => c.seq > refused.seq && c.ok, 5000);
    expect((await healthz(t)).status).toBe(200);
  });
});
