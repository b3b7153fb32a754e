/**
 * The one retry policy of the app's Slack Web API calls (src/slack/retry-policy.ts): which failures are tried again,
 * how often, and that Retry-After is waited; then the same through the real app's listeners in HTTP and in Socket
 * Mode (where @slack/socket-mode would otherwise put its own 100 retries into the listeners' client options).
 */
import { LogLevel, WebAPIHTTPError, WebAPIRequestError, WebClient } from '@slack/web-api';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  notReachedFetch,
  SLACK_RETRY_POLICY,
  slackAttemptMayBeRepeated,
  SlackNotReachedError,
  slackRetryClientOptions,
  SOCKET_RECONNECT_RETRY_POLICY,
} from '../../src/slack/retry-policy.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const FAST = { minTimeout: 5, maxTimeout: 10 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function netError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('which failed attempts may be sent again', () => {
  const rateLimited = () => new Error('A rate limit was exceeded (url: https://slack.com/api/x, retry-after: 1)');

  it('a 429 (after web-api waited Retry-After) and a request that never reached Slack: yes', () => {
    expect(slackAttemptMayBeRepeated(new WebAPIRequestError(rateLimited()))).toBe(true);
    expect(slackAttemptMayBeRepeated(new WebAPIRequestError(new SlackNotReachedError('refused')))).toBe(true);
  });

  it('anything that may have reached Slack: no (a post could be made twice)', () => {
    expect(slackAttemptMayBeRepeated(new WebAPIHTTPError(500, 'Internal Server Error', {}, ''))).toBe(false);
    expect(slackAttemptMayBeRepeated(new WebAPIHTTPError(503, 'Service Unavailable', {}, '<html>'))).toBe(false);
    expect(slackAttemptMayBeRepeated(new WebAPIRequestError(netError('ECONNRESET')))).toBe(false);
    expect(slackAttemptMayBeRepeated(new WebAPIRequestError(new Error('The operation was aborted')))).toBe(false);
  });

  it('the fetch tells a request that never reached Slack from one that may have', async () => {
    const failing = (err: unknown) => notReachedFetch(() => Promise.reject(err));
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      await expect(failing(netError(code))('https://slack.com/api/x')).rejects.toBeInstanceOf(SlackNotReachedError);
    }
    const bothFamilies = new AggregateError([netError('ECONNREFUSED'), netError('ECONNREFUSED')], 'connect failed');
    await expect(failing(bothFamilies)('https://slack.com/api/x')).rejects.toBeInstanceOf(SlackNotReachedError);
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'ETIMEDOUT']) {
      const err = netError(code);
      await expect(failing(err)('https://slack.com/api/x')).rejects.toBe(err);
    }
  });

  it('few retries with a bounded backoff; the socket reconnects without end but every 30 s at most', () => {
    expect(SLACK_RETRY_POLICY.retries).toBe(3);
    expect(SLACK_RETRY_POLICY.maxTimeout).toBeLessThanOrEqual(10_000);
    expect(SOCKET_RECONNECT_RETRY_POLICY).toMatchObject({ forever: true, maxTimeout: 30_000 });
  });
});

describe('a WebClient with the policy, against the fake Slack', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack();
  });
  afterAll(async () => fake.close());
  beforeEach(() => fake.reset());

  const client = (tuning: { retries?: number; minTimeout: number; maxTimeout: number } = FAST) =>
    new WebClient(fake.botToken, {
      slackApiUrl: fake.apiUrl,
      logLevel: LogLevel.ERROR,
      ...slackRetryClientOptions(tuning),
    });
  const post = (c: WebClient) => c.chat.postMessage({ channel: 'C0OPS', text: 'hola' });

  it('429s are sent again at most `retries` times, then the call fails', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 0 }, Infinity);
    await expect(post(client())).rejects.toThrow(/rate limit/i);
    expect(fake.calls('chat.postMessage')).toHaveLength(1 + SLACK_RETRY_POLICY.retries);
    await sleep(100);
    expect(fake.calls('chat.postMessage')).toHaveLength(1 + SLACK_RETRY_POLICY.retries);
  });

  it('retries 0 (the tests) sends a call once', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 0 }, Infinity);
    await expect(post(client({ ...FAST, retries: 0 }))).rejects.toThrow(/rate limit/i);
    expect(fake.calls('chat.postMessage')).toHaveLength(1);
  });

  it('Retry-After is waited before the call is sent again', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const res = await post(client());
    expect(res.ok).toBe(true);
    const [first, second] = fake.calls('chat.postMessage');
    expect(first).toMatchObject({ status: 429 });
    expect(second).toMatchObject({ ok: true });
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    expect(fake.messages('C0OPS')).toHaveLength(1);
  });

  it('a 5xx is not sent again', async () => {
    fake.failNext('chat.postMessage', { status: 500 }, Infinity);
    await expect(post(client())).rejects.toBeInstanceOf(WebAPIHTTPError);
    await sleep(100);
    expect(fake.calls('chat.postMessage')).toHaveLength(1);
  });

  it('a post whose answer was lost is not sent again, so it is not posted twice', async () => {
    fake.failNext('chat.postMessage', { dropConnection: true, afterApply: true });
    await expect(post(client())).rejects.toBeInstanceOf(WebAPIRequestError);
    await sleep(100);
    expect(fake.calls('chat.postMessage')).toHaveLength(1);
    expect(fake.messages('C0OPS')).toHaveLength(1);
  });

  it('a refused connection is tried again', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    let attempts = 0;
    const c = new WebClient(fake.botToken, {
      slackApiUrl: `http://127.0.0.1:${port}/api/`,
      logLevel: LogLevel.ERROR,
      ...slackRetryClientOptions(FAST, (url, init) => {
        attempts++;
        return fetch(url, init);
      }),
    });
    await expect(post(c)).rejects.toBeInstanceOf(WebAPIRequestError);
    expect(attempts).toBe(1 + SLACK_RETRY_POLICY.retries);
  });
});

describe.each([
  ['HTTP', false],
  ['Socket Mode', true],
])("the app's listeners in %s mode", (_mode, socketMode) => {
  const ADMIN = 'U0ADMIN';
  let t: TestApp;
  afterEach(async () => t?.close());

  /** `/campaign create` opens the form with views.open: the call these tests make fail. */
  async function openForm(): Promise<number> {
    const seq = t.fake.seq();
    const ack = await t.driver.command('create', { userId: ADMIN });
    expect(ack.status).toBe(200);
    return seq;
  }
  const opens = (seq: number) => t.fake.calls('views.open').filter((c) => c.seq > seq);

  it('a failing call is sent at most 1 + retries times', async () => {
    t = await startTestApp({
      socketMode,
      env: { ADMIN_USER_IDS: ADMIN },
      slackRetries: 'policy',
      start: { slackRetry: FAST },
    });
    t.fake.failNext('views.open', { status: 429, retryAfter: 0 }, Infinity);
    const seq = await openForm();
    await t.fake.waitFor(() => opens(seq).length === 1 + SLACK_RETRY_POLICY.retries, 5000);
    await sleep(300);
    expect(opens(seq)).toHaveLength(1 + SLACK_RETRY_POLICY.retries);
  });

  it('a 429 with Retry-After: 1 is sent again after a second, and the form opens', async () => {
    t = await startTestApp({
      socketMode,
      env: { ADMIN_USER_IDS: ADMIN },
      slackRetries: 'policy',
      start: { slackRetry: FAST },
    });
    t.fake.failNext('views.open', { status: 429, retryAfter: 1 });
    const seq = await openForm();
    const ok = await t.fake.waitFor(() => opens(seq).find((c) => c.ok), 5000);
    const [first] = opens(seq);
    expect(first).toMatchObject({ status: 429 });
    expect(ok.at - first!.at).toBeGreaterThanOrEqual(1000);
    expect(opens(seq)).toHaveLength(2);
  });

  it('with the policy untouched, a 5xx is not sent again (no library default of 10 or 100 retries)', async () => {
    t = await startTestApp({ socketMode, env: { ADMIN_USER_IDS: ADMIN }, slackRetries: 'policy' });
    t.fake.failNext('views.open', { status: 500 }, Infinity);
    const seq = await openForm();
    await t.fake.waitFor(() => opens(seq).length === 1, 5000);
    // Both library defaults would have sent it again within 2 s (first wait 1 s, randomized up to 2 s).
    await sleep(2_500);
    expect(opens(seq)).toHaveLength(1);
  });
});
