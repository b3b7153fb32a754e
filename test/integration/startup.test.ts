/**
 * `npm start`'s entry point as a child process: sandbox mode (no service credentials) against the fake Slack,
 * GET /healthz once listening, a clean stop on SIGTERM; and the one-line refusal of a bad environment.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startApp } from '../../src/main.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { runEntry } from '../support/entry-process.js';
import { freePort } from '../support/ports.js';

const run = (env: Record<string, string>) => runEntry(env);

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => fake.close());

it('starts in sandbox mode, answers /healthz, and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const stateFile = join(mkdtempSync(join(tmpdir(), 'outreach-start-')), 'state.json');
  const p = run({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: 'a-signing-secret-for-tests',
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
    // Any free port for the operators' listener: other suites may run an app on the default one at the same time.
    METRICS_PORT: '0',
    STATE_FILE: stateFile,
    POLL_INTERVAL_SECONDS: '5',
    LOG_LEVEL: 'info',
  });
  try {
    let status = 0;
    // Up to a minute: the child compiles the app first (tsx), slow on a busy machine.
    for (let i = 0; i < 600 && status !== 200; i++) {
      status = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.status)
        .catch(() => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect(p.output()).toContain('sandbox');
    expect(p.output()).not.toContain('a-signing-secret-for-tests');
    expect(p.output()).not.toContain(fake.botToken);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(p.output()).toContain('shutting down');
  } finally {
    p.child.kill('SIGKILL');
  }
}, 90_000);

it('refuses a malformed variable with one line naming it', async () => {
  const p = run({ SLACK_BOT_TOKEN: fake.botToken, SLACK_SIGNING_SECRET: 'x'.repeat(32), PORT: 'abc' });
  expect(await p.exit).toBe(1);
  const lines = p.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('PORT');
}, 30000);

it('refuses a missing bot token without echoing secrets', async () => {
  const p = run({ SLACK_SIGNING_SECRET: 'super-secret-value-123' });
  expect(await p.exit).toBe(1);
  expect(p.output()).toContain('SLACK_BOT_TOKEN');
  expect(p.output()).not.toContain('super-secret-value-123');
}, 30000);

describe('who may change with the live service', () => {
  const live = () => ({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: 'a-signing-secret-for-tests',
    SLACK_API_URL: fake.apiUrl,
    OUTREACH_BASE_URL: 'http://127.0.0.1:9/api/v1.0',
    OUTREACH_API_KEY: 'sk_live_SECRET_never_shown',
    STATE_FILE: join(mkdtempSync(join(tmpdir(), 'outreach-start-')), 'state.json'),
  });

  it('refuses to start without admins, in one line naming the variables', async () => {
    const p = run(live());
    expect(await p.exit).toBe(1);
    const lines = p.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^outreach-slack cannot start: /);
    for (const v of ['ADMIN_USER_IDS', 'ADMIN_USERGROUP_ID', 'ALLOW_EVERYONE_TO_CHANGE']) expect(lines[0]).toContain(v);
    expect(p.output()).not.toContain('sk_live_SECRET_never_shown');
  }, 30000);

  it('startApp refuses a hand-built live Config without admins before opening anything', async () => {
    const config = { ...loadConfig({ ...live(), ALLOW_EVERYONE_TO_CHANGE: 'true' }), allowEveryoneToChange: false };
    await expect(startApp(config)).rejects.toThrow(
      /ADMIN_USER_IDS nor ADMIN_USERGROUP_ID .*ALLOW_EVERYONE_TO_CHANGE=true/,
    );
    expect(existsSync(config.stateFile)).toBe(false);
  });
});
