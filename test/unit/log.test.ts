import { Writable } from 'node:stream';
import { createLogger, redactSecrets, resolveLogFormat, REDACTED, type Logger } from '../../src/log.js';

const API_KEY = 'sk_live_4f2a"9Zq\\x';
const BOT = 'xoxb-1111-2222-abcdefghij';

function capture(
  level: Parameters<typeof createLogger>[0],
  secrets: string[] = [],
  more: { format?: 'pretty' | 'json'; colorize?: boolean } = {},
) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger: Logger = createLogger(level, { secrets, destination, ...more });
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

describe('pretty format', () => {
  // eslint-disable-next-line no-control-regex
  const ANSI = /\u001b\[[0-9;]*m/g;

  it('writes one readable line per event: time, level, message and fields, not JSON', () => {
    const { logger, lines } = capture('info', [], { format: 'pretty', colorize: false });
    logger.child({ component: 'poller' }).warn({ campaignId: 7, err: 'HTTP 503' }, 'polling a campaign failed');
    logger.info('outreach-slack is listening');
    logger.error({ err: new Error('two\nlines') }, 'crashed');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.trimEnd()).not.toContain('\n');
      expect(() => JSON.parse(line) as unknown).toThrow();
    }
    expect(lines[0]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: polling a campaign failed \{.*"component":"poller".*"campaignId":7.*"err":"HTTP 503".*\}\n$/,
    );
    expect(lines[1]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: outreach-slack is listening\n$/);
    expect(lines[2]).toMatch(/ ERROR: crashed \{"err":\{.*"message":"two\\nlines"/);
    expect(lines.join('')).not.toMatch(/"pid"|"hostname"|"level"/);
  });

  it('colours the level when asked', () => {
    const { logger, lines } = capture('info', [], { format: 'pretty', colorize: true });
    logger.error('boom');
    expect(lines[0]).toMatch(ANSI);
    expect(lines[0]!.replace(ANSI, '')).toMatch(/ ERROR: boom\n$/);
  });

  it('keeps secrets out as the JSON form does: known values, token shapes and secret-named fields', () => {
    const { logger, lines } = capture('debug', [API_KEY, BOT], { format: 'pretty', colorize: true });
    logger.error(
      { err: new Error(`GET https://svc/api/v1.0/campaigns?key=${API_KEY} failed`), config: { apiKey: 'plain-key' } },
      `with ${BOT}`,
    );
    logger.info({ header: `Bearer abcdefghijklmnop`, app: 'xapp-1-A0B-99-zz' }, `quoted "${API_KEY}"`);
    const all = lines.join('').replace(ANSI, '');
    expect(lines).toHaveLength(2);
    expect(all).not.toContain('sk_live_4f2a');
    expect(all).not.toContain('abcdefghij');
    expect(all).not.toContain('xapp-1');
    expect(all).not.toContain('plain-key');
    expect(all).toMatch(/ERROR: with \[redacted\]/);
    expect(all).toMatch(/INFO: quoted "\[redacted\]"/);
  });

  it('is the default on a terminal only; a given destination or LOG_FORMAT=json gets JSON', () => {
    const tty = process.stdout.isTTY;
    try {
      process.stdout.isTTY = true;
      expect(resolveLogFormat({})).toBe('pretty');
      expect(resolveLogFormat({ format: 'json' })).toBe('json');
      expect(resolveLogFormat({ destination: new Writable() })).toBe('json');
      process.stdout.isTTY = false;
      expect(resolveLogFormat({})).toBe('json');
      expect(resolveLogFormat({ format: 'pretty' })).toBe('pretty');
    } finally {
      process.stdout.isTTY = tty;
    }
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
