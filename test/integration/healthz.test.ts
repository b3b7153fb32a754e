/**
 * GET /healthz of the real app says whether it can do its job: 200 with every check passing; 503 when the state
 * cannot be saved (STATE_DIR unwritable, a file write failing) or when Slack refuses the bot token (seen by the
 * periodic auth.test, or on a real call and confirmed by auth.test), and 200 again once fixed. On PORT it says only
 * ok or not; which check, why, and whether this replica leads are on the operators' listener (GET /healthz/details).
 * However many requests come, the store is probed once per interval at most. No secret in any answer.
 */
import { mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import type { EmbeddedStore } from '../../src/store/embedded/store.js';
import { join } from 'node:path';
import { parseExposition } from '../support/prom-text.js';
import { SIGNING_SECRET, startTestApp, type TestApp } from '../support/test-app.js';
import { ADMIN, CHANNEL } from '../support/upload.js';

interface Report {
  ok: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
  leader?: boolean;
}

/** The operators' GET /healthz/details (the metrics listener): every check with its detail. */
async function healthz(t: TestApp): Promise<{ status: number; body: Report; text: string }> {
  const res = await fetch(`http://127.0.0.1:${t.app.metricsPort}/healthz/details`);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Report, text };
}

/** The public GET /healthz on PORT. */
async function publicHealthz(t: TestApp): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${t.app.port}/healthz`);
  return { status: res.status, text: await res.text() };
}

/** Asks /healthz/details until it answers `status` (or the time is up); returns the last answer. */
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
    // Probes (and the store's retries) every 20 ms: the answers follow the disk within the test's waits.
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { storeProbeMs: 20 } } });
  });
  afterEach(async () => {
    await mkdir(t.config.stateDir, { recursive: true }).catch(() => undefined);
    await t.close();
  });

  it('answers 200 with every check passing, and says this process leads (the embedded store has one)', async () => {
    // On PORT: that it is ok, and nothing about checks or roles.
    expect(await publicHealthz(t)).toEqual({ status: 200, text: '{"ok":true}' });
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

    const bad = await healthzUntil(t, 503);
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
    // PORT says only that the app is unavailable: no check, no directory, no role.
    expect(await publicHealthz(t)).toEqual({ status: 503, text: '{"ok":false}' });
    const metrics = parseExposition(await (await fetch(`http://127.0.0.1:${t.app.metricsPort}/metrics`)).text());
    expect(metrics.sum('outreach_slack_health_check_ok', { check: 'store' })).toBe(0);
    // Nothing moves on as if saved while the store cannot write.
    await expect(t.app.deps.store.collection<{ n: number }>('health-test').put('k', { n: 1 })).rejects.toThrow(
      /was not saved: cannot write the state in/,
    );

    await rm(dir, { force: true });
    await mkdir(dir);
    expect((await healthzUntil(t, 200)).status).toBe(200);
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
    expect((await healthzUntil(t, 200)).status).toBe(200);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { records: Record<string, { value: unknown }> };
    expect(onDisk.records.k?.value).toEqual({ n: 1 });
  });
});

describe('probes of the store', () => {
  let t: TestApp;
  afterEach(async () => {
    // The state directory back (it may be a file now), so the change kept in memory is written at the stop.
    await rm(t.config.stateDir, { recursive: true, force: true });
    await mkdir(t.config.stateDir, { recursive: true });
    await t.close();
  });

  it('100 requests make at most one probe write per interval, while the store works and while it fails', async () => {
    // An interval longer than the test: any second probe within it would be one too many.
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN }, start: { healthTuning: { storeProbeMs: 600_000 } } });
    const store = t.app.deps.store as EmbeddedStore;
    expect(store.kind).toBe('embedded');
    const probes = () => store.stats().probes;

    const durableBefore = probes();
    const atOnce = await Promise.all(Array.from({ length: 50 }, () => publicHealthz(t)));
    for (let i = 0; i < 50; i++) atOnce.push(await publicHealthz(t));
    expect(atOnce.map((r) => r.status)).toEqual(Array<number>(100).fill(200));
    expect(probes() - durableBefore).toBeLessThanOrEqual(1);

    // The state directory replaced by a file: the next write fails and the store says so.
    const dir = t.config.stateDir;
    await rm(dir, { recursive: true, force: true });
    await writeFile(dir, 'not a directory');
    await expect(store.collection<{ n: number }>('health-test').put('k', { n: 1 })).rejects.toThrow(/not saved/);
    const failingBefore = probes();
    const answers: number[] = [];
    for (let i = 0; i < 100; i++) answers.push((await publicHealthz(t)).status);
    expect(answers).toEqual(Array<number>(100).fill(503));
    expect(probes() - failingBefore).toBeLessThanOrEqual(1);
    // The details, asked 100 times at once, probe no more.
    const details = await Promise.all(Array.from({ length: 100 }, () => healthz(t)));
    expect(details.map((d) => d.status)).toEqual(Array<number>(100).fill(503));
    expect(details[0]!.body.checks.store!.detail).toMatch(/^cannot write the state in /);
    expect(probes() - failingBefore).toBeLessThanOrEqual(1);
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
