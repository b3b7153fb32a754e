import { Writable } from 'node:stream';
import { createLogger, redactSecrets, REDACTED, type Logger } from '../src/log.js';

const API_KEY = 'sk_live_4f2a"9Zq\\x';
const BOT = 'xoxb-1111-2222-abcdefghij';

function capture(level: Parameters<typeof createLogger>[0], secrets: string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger: Logger = createLogger(level, { secrets, destination });
  const records = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, records };
}

describe('createLogger', () => {
  it('writes JSON lines at or above its level, with child bindings', () => {
    const { logger, records } = capture('info');
    logger.debug('hidden');
    logger.info({ campaignId: 7 }, 'shown');
    logger.child({ component: 'poller' }).warn('child line');
    expect(records()).toEqual([
      expect.objectContaining({ level: 30, campaignId: 7, msg: 'shown' }),
      expect.objectContaining({ level: 40, component: 'poller', msg: 'child line' }),
    ]);
  });

  it('redacts secret-named fields at any of the first four levels', () => {
    const { logger, records } = capture('info');
    logger.info(
      {
        token: 'a',
        config: { outreach: { apiKey: 'b' }, slackSigningSecret: 'c' },
        req: { headers: { authorization: 'Bearer d', 'x-api-key': 'e' } },
        a: { b: { c: { signingSecret: 'f' } } },
        campaign: { name: 'keep me' },
      },
      'request',
    );
    const [r] = records();
    expect(r).toMatchObject({
      token: REDACTED,
      config: { outreach: { apiKey: REDACTED }, slackSigningSecret: REDACTED },
      req: { headers: { authorization: REDACTED, 'x-api-key': REDACTED } },
      a: { b: { c: { signingSecret: REDACTED } } },
      campaign: { name: 'keep me' },
    });
  });

  it('scrubs known secrets and token-shaped text from messages and errors', () => {
    const { logger, lines } = capture('debug', [API_KEY, BOT]);
    logger.error({ err: new Error(`GET https://svc/api/v1.0/campaigns?key=${API_KEY} failed`) }, `with ${BOT}`);
    logger.info(`app token xapp-1-A0B-99-zz and Bearer abcdefghijklmnop`);
    const all = lines.join('');
    expect(all).not.toContain('sk_live_4f2a');
    expect(all).not.toContain('abcdefghij');
    expect(all).not.toContain('xapp-1');
    expect(all).not.toContain('abcdefghijklmnop');
    expect(all.split(REDACTED).length - 1).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('writes nothing when silent', () => {
    const { logger, lines } = capture('silent');
    logger.error('nothing');
    expect(lines).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence, longest secret first, and leaves other text alone', () => {
    expect(redactSecrets('k=abcdef123456 and abcdef123456; short abc', ['abcdef', 'abcdef123456', 'abc'])).toBe(
      `k=${REDACTED} and ${REDACTED}; short abc`,
    );
    expect(redactSecrets('token xoxb-9-9-x, xoxp-1-2 and xoxe.xoxp-1-r', [])).toBe(
      `token ${REDACTED}, ${REDACTED} and xoxe.${REDACTED}`,
    );
    expect(redactSecrets(`url ?k=${encodeURIComponent(API_KEY)}`, [API_KEY])).toBe(`url ?k=${REDACTED}`);
    expect(redactSecrets('nothing secret here', [undefined, ''])).toBe('nothing secret here');
  });
});
