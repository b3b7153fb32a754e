/**
 * GET /metrics of the real app (simulator ↔ app ↔ fake Slack): after a command, a poll and an upload, the named
 * series exist, parse, and moved; labels carry route templates and method names, never ids or secrets; each app has
 * its own registry. Who reaches it: the operators' listener (METRICS_PORT, on 127.0.0.1 unless METRICS_HOST says
 * otherwise, with a warning), never PORT unless METRICS_TOKEN is set, and then only with that bearer token.
 */
import { networkInterfaces } from 'node:os';
import { createLogger } from '../../src/log.js';
import { parseExposition, type Exposition } from '../support/prom-text.js';
import { SIGNING_SECRET, startTestApp, type TestApp } from '../support/test-app.js';
import { FAST_TUNING } from '../support/watch-harness.js';
import { ADMIN, CHANNEL, openUploadModal, seedCampaign, submitUpload, waitForSummary } from '../support/upload.js';
import { freePort } from '../support/ports.js';

async function scrape(port: number): Promise<{ text: string; m: Exposition; contentType: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, m: parseExposition(text), contentType: res.headers.get('content-type') };
}

/** `/campaign <text>` as ADMIN in CHANNEL, waiting for its answer through response_url. */
async function command(t: TestApp, text: string): Promise<void> {
  const r = await t.driver.command(text, { userId: ADMIN, channelId: CHANNEL });
  expect(r.status).toBe(200);
  await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === r.responseUrl), 10_000);
}

const FILE = [
  'Nombre,Teléfono',
  'Ana,55 1234 5678',
  'Beto,55 1234 5679',
  'Carla,55 1234 5680',
  'Dario,12345',
  'Eva,',
].join('\n');

describe('GET /metrics after a command, a poll and an upload', () => {
  let t: TestApp;
  let before: Exposition;
  let after: Exposition;
  let text: string;
  let contentType: string | null;

  beforeAll(async () => {
    t = await startTestApp({
      env: { ADMIN_USER_IDS: ADMIN, DEFAULT_PHONE_REGION: 'MX' },
      start: {
        watch: FAST_TUNING,
        upload: { progressIntervalMs: 200, retryBaseMs: 20, retryMaxMs: 100 },
      },
    });
    ({ m: before } = await scrape(t.app.metricsPort));

    // A command that reads from the service, rate-limited once (the client waits and tries again).
    t.sim.control.injectFaults({ status: 429, match: /^GET \/api\/v1\.0\/campaigns$/, retryAfter: 0 });
    await command(t, 'list');
    // A Slack call refused once, to be counted as an error of its method.
    t.fake.failNext('views.open', 'internal_error');
    const refused = await t.driver.command('create', { userId: ADMIN, channelId: CHANNEL });
    expect(refused.status).toBe(200);
    await t.fake.waitForCall('views.open', (c) => !c.ok, 5000);

    // A poll: a watched campaign with a call that ends.
    const agent = t.sim.control.addAgent({ name: 'Ana' });
    const phone = t.sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const campaignId = Number(
      t.sim.control.seedCampaign({
        name: 'Metrics',
        agentId: agent.id,
        integrationId: phone.id,
        status: 'active',
        contacts: [{ contact: '+525510000001', name: 'Contact 1' }],
      }).id,
    );
    await command(t, `watch ${campaignId}`);
    const svc = t.app.services.watch;
    const call = t.sim.control.createCall(campaignId, { status: 'in-progress' });
    await svc.pollNow();
    await svc.delivery.idle();
    t.sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human', duration: 30 });
    await svc.pollNow();
    await svc.delivery.idle();
    expect(svc.delivery.stats.finalShown.has(call.id as string)).toBe(true);

    // An upload: 3 contacts created, 2 rows refused while reading.
    const uploadCampaign = seedCampaign(t, 'Upload');
    const viewId = await openUploadModal(t, uploadCampaign);
    const file = t.fake.addFile({ name: 'contacts.csv', content: FILE });
    expect((await submitUpload(t, viewId, file)).status).toBe(200);
    await waitForSummary(t, uploadCampaign, file.id);

    ({ m: after, text, contentType } = await scrape(t.app.metricsPort));
  }, 60_000);
  afterAll(async () => t.close());

  const moved = (name: string, labels?: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);

  it('serves the Prometheus text format, typed', () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(after.types.get('outreach_slack_ack_seconds')).toBe('histogram');
    expect(after.types.get('outreach_slack_service_request_duration_seconds')).toBe('histogram');
    expect(after.types.get('outreach_slack_limiter_queued_requests')).toBe('gauge');
    expect(after.types.get('outreach_slack_limiter_rate_limited_total')).toBe('counter');
    expect(after.types.get('outreach_slack_poll_cycle_duration_seconds')).toBe('histogram');
    expect(after.types.get('outreach_slack_call_end_to_slack_seconds')).toBe('histogram');
    expect(after.types.get('outreach_slack_slack_api_calls_total')).toBe('counter');
    expect(after.types.get('outreach_slack_upload_rows_total')).toBe('counter');
    // The embedded store's one process always leads.
    expect(after.types.get('outreach_slack_leader')).toBe('gauge');
    expect(after.sum('outreach_slack_leader')).toBe(1);
  });

  it('times the ack of commands and view submissions', () => {
    expect(moved('outreach_slack_ack_seconds_count', { surface: 'command' })).toBeGreaterThanOrEqual(4);
    expect(moved('outreach_slack_ack_seconds_count', { surface: 'view_submission' })).toBe(1);
    // All acked well within Slack's 3 s.
    const cmd = { surface: 'command' };
    expect(after.sum('outreach_slack_ack_seconds_bucket', { ...cmd, le: '3' })).toBe(
      after.sum('outreach_slack_ack_seconds_count', cmd),
    );
  });

  it('counts service requests by route template and status, with latency', () => {
    const list = { endpoint: 'GET /campaigns' };
    expect(moved('outreach_slack_service_request_duration_seconds_count', { ...list, status: '429' })).toBe(1);
    expect(moved('outreach_slack_service_request_duration_seconds_count', { ...list, status: '200' })).toBe(1);
    expect(
      moved('outreach_slack_service_request_duration_seconds_count', {
        endpoint: 'GET /campaigns/{id}/calls',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      moved('outreach_slack_service_request_duration_seconds_count', {
        endpoint: 'POST /campaigns/{id}/contacts',
        status: '200',
      }),
    ).toBe(1);
    expect(moved('outreach_slack_service_request_duration_seconds_sum')).toBeGreaterThan(0);
    const endpoints = new Set(
      after.find('outreach_slack_service_request_duration_seconds_count').map((s) => s.labels.endpoint!),
    );
    for (const e of endpoints) expect(e).toMatch(/^(GET|POST|PUT|PATCH|DELETE) (\/([a-z_]+|\{[a-z_]+\}))+$/);
  });

  it('shows the limiter: queue depth by priority, pause and 429s', () => {
    for (const priority of ['interactive', 'poller', 'bulk']) {
      expect(after.find('outreach_slack_limiter_queued_requests', { priority })).toHaveLength(1);
    }
    expect(after.find('outreach_slack_limiter_pause_seconds')).toHaveLength(1);
    expect(moved('outreach_slack_limiter_rate_limited_total')).toBe(1);
  });

  it('times poll cycles and the lag from a call ending to Slack', () => {
    expect(moved('outreach_slack_poll_cycle_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(moved('outreach_slack_poll_cycles_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(moved('outreach_slack_call_end_to_slack_seconds_count')).toBe(1);
    const lag = after.sum('outreach_slack_call_end_to_slack_seconds_sum');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60);
  });

  it('counts Slack Web API calls and errors by method', () => {
    expect(moved('outreach_slack_slack_api_calls_total', { method: 'chat.postMessage' })).toBeGreaterThan(0);
    expect(moved('outreach_slack_slack_api_calls_total', { method: 'views.open' })).toBe(2);
    expect(moved('outreach_slack_slack_api_calls_total', { method: 'files.info' })).toBe(1);
    expect(moved('outreach_slack_slack_api_errors_total', { method: 'views.open', error: 'internal_error' })).toBe(1);
    expect(moved('outreach_slack_slack_api_duration_seconds_count', { method: 'chat.postMessage' })).toBeGreaterThan(0);
    // The bot token was checked at start.
    expect(after.sum('outreach_slack_slack_api_calls_total', { method: 'auth.test' })).toBeGreaterThanOrEqual(1);
  });

  it('counts uploaded rows by outcome', () => {
    expect(moved('outreach_slack_upload_rows_total', { outcome: 'created' })).toBe(3);
    expect(moved('outreach_slack_upload_rows_total', { outcome: 'rejected' })).toBe(2);
    expect(moved('outreach_slack_upload_rows_total', { outcome: 'failed' })).toBe(0);
  });

  it('has the process metrics, event-loop lag included, and the health checks', () => {
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(after.find(name).length).toBeGreaterThan(0);
    }
    expect(after.sum('outreach_slack_health_check_ok', { check: 'store' })).toBe(1);
    expect(after.sum('outreach_slack_health_check_ok', { check: 'slack_auth' })).toBe(1);
  });

  it('carries no secret', () => {
    expect(text).not.toContain(t.fake.botToken);
    expect(text).not.toContain(t.sim.apiKey);
    expect(text).not.toContain(SIGNING_SECRET);
    expect(text).not.toMatch(/xox[a-z]-/);
  });

  it('keeps one registry per app: a second app in the same process starts from zero', async () => {
    const port = await freePort();
    const other = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN, METRICS_PORT: String(port) } });
    try {
      expect(other.app.metricsPort).toBe(port);
      const { m } = await scrape(port);
      expect(m.sum('outreach_slack_upload_rows_total', { outcome: 'created' })).toBe(0);
      expect(m.sum('outreach_slack_ack_seconds_count')).toBe(0);
      // The metrics port serves the operators' endpoints and nothing else.
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${other.app.port}/healthz`)).status).toBe(200);
      // The first app's counts are untouched by the second's.
      expect((await scrape(t.app.metricsPort)).m.sum('outreach_slack_upload_rows_total', { outcome: 'created' })).toBe(
        3,
      );
    } finally {
      await other.close();
    }
    // Stopped with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('in Socket Mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ socketMode: true, env: { ADMIN_USER_IDS: ADMIN }, start: { socketPingTimeoutMs: 3000 } });
  });
  afterAll(async () => t.close());

  it("times the acks of envelopes and counts the socket client's calls, on the operators' listener", async () => {
    await command(t, 'list');
    const { m, text } = await scrape(t.app.metricsPort);
    expect(m.sum('outreach_slack_ack_seconds_count', { surface: 'command' })).toBe(1);
    expect(m.sum('outreach_slack_slack_api_calls_total', { method: 'apps.connections.open' })).toBe(1);
    expect(m.sum('outreach_slack_service_request_duration_seconds_count', { endpoint: 'GET /campaigns' })).toBe(1);
    expect(text).not.toContain(t.fake.appToken);
    expect(text).not.toContain(t.fake.botToken);
  });

  it('answers /healthz 503 when Slack refuses the app-level token on reconnecting', async () => {
    expect((await fetch(`http://127.0.0.1:${t.app.port}/healthz`)).status).toBe(200);
    t.fake.revokeToken(t.fake.appToken);
    t.fake.socket.disconnect();
    await t.fake.waitForCall('apps.connections.open', (c) => c.error === 'token_revoked', 15_000);
    expect(await (await fetch(`http://127.0.0.1:${t.app.port}/healthz`)).json()).toEqual({ ok: false });
    const res = await fetch(`http://127.0.0.1:${t.app.metricsPort}/healthz/details`);
    const body = (await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> };
    expect(res.status).toBe(503);
    expect(body.checks.slack_auth).toEqual({
      ok: false,
      detail:
        'Slack refuses the app-level token (token_revoked): reinstall the app or set SLACK_APP_TOKEN to a valid token',
    });
  }, 30_000);
});

describe("who reaches the operators' endpoints", () => {
  const TOKEN = 'a-metrics-token-of-32-characters';
  let lines: string[];
  let t: TestApp;
  const start = (env: Record<string, string> = {}) => {
    lines = [];
    return startTestApp({
      env: { ADMIN_USER_IDS: ADMIN, LOG_LEVEL: 'info', ...env },
      start: { logger: createLogger('info', { destination: { write: (l: string) => void lines.push(l) } }) },
    });
  };
  const onPort = (path: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${t.app.port}${path}`, { headers });
  const warnings = () =>
    lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
  afterEach(async () => t.close());

  it('by default: not on PORT at all; its own listener on 127.0.0.1 only, with no warning', async () => {
    t = await start();
    expect((await onPort('/metrics')).status).toBe(404);
    expect((await onPort('/healthz/details')).status).toBe(404);
    expect((await onPort('/metrics', { Authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    expect(t.app.metricsHost).toBe('127.0.0.1');
    expect((await scrape(t.app.metricsPort)).m.sum('outreach_slack_leader')).toBe(1);
    // Not reachable on this host's other addresses.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    for (const address of others) {
      await expect(fetch(`http://${address}:${t.app.metricsPort}/metrics`)).rejects.toThrow();
    }
    expect(warnings().filter((w) => w.msg.includes('METRICS_HOST'))).toEqual([]);
  });

  it('with METRICS_TOKEN: on PORT only with that bearer token (401 otherwise); the token is never logged', async () => {
    t = await start({ METRICS_TOKEN: TOKEN });
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer a-metrics-token-of-32-characterz' },
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` },
      { Authorization: TOKEN },
    ]) {
      const res = await onPort('/metrics', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await res.text()).not.toContain('outreach_slack');
      expect((await onPort('/healthz/details', headers)).status).toBe(401);
    }
    const ok = await onPort('/metrics', { Authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(parseExposition(await ok.text()).sum('outreach_slack_leader')).toBe(1);
    const details = await onPort('/healthz/details', { Authorization: `bearer ${TOKEN}` });
    expect(details.status).toBe(200);
    expect(await details.json()).toMatchObject({ ok: true, leader: true, checks: { store: { ok: true } } });
    // Its own listener still answers without a token.
    expect((await fetch(`http://127.0.0.1:${t.app.metricsPort}/metrics`)).status).toBe(200);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('METRICS_HOST=0.0.0.0: listens there, with a warning at start saying who can read it', async () => {
    t = await start({ METRICS_HOST: '0.0.0.0' });
    expect(t.app.metricsHost).toBe('0.0.0.0');
    expect((await scrape(t.app.metricsPort)).m.sum('outreach_slack_leader')).toBe(1);
    const warned = warnings().filter((w) => w.msg.includes('METRICS_HOST 0.0.0.0 is not a loopback address'));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toContain('METRICS_TOKEN');
  });
});
