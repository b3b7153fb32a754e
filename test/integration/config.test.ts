import {
  ConfigError,
  configSecrets,
  describeConfig,
  everyoneMayChangeProblem,
  loadConfig,
  loadPlaygroundSettings,
  startMode,
} from '../../src/config.js';

const BOT = 'xoxb-1111-2222-abcdefSECRETbot';
const SIGNING = '8f14e45fceea167a5a36dedd4bea2543';
const APP = 'xapp-1-A111-2222-SECRETapp';
const KEY = 'sk_live_SECRETkey_123456';

/** The smallest valid HTTP-mode environment. */
const base = { SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING };

function errorFor(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults: HTTP mode, sandbox, port 3000', () => {
    expect(loadConfig(base)).toEqual({
      slackBotToken: BOT,
      slackSigningSecret: SIGNING,
      slackApiUrl: 'https://slack.com/api/',
      port: 3000,
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
      outreach: { mode: 'sandbox' },
      stateFile: './data/state.json',
      stateDir: './data',
      retentionDays: 7,
      pollIntervalSeconds: 30,
      adminUserIds: [],
      allowEveryoneToChange: false,
      responderUserIds: [],
      defaultPhoneRegion: 'MX',
      defaultLocale: 'en',
      uploadMaxBytes: 10 * 1024 * 1024,
      uploadMaxRows: 200_000,
      uploadMaxCellChars: 5_000,
      uploadConcurrency: 2,
      personActionsPerMinute: 60,
      personActionsBurst: 10,
      logLevel: 'info',
    });
  });

  it('reads every variable, trimming and normalising', () => {
    const c = loadConfig({
      SLACK_BOT_TOKEN: ` ${BOT}\n`,
      SLACK_APP_TOKEN: APP,
      SLACK_API_URL: 'http://127.0.0.1:4000/api',
      PORT: '8080',
      OUTREACH_BASE_URL: 'https://outreach.example.com/api/v1.0/',
      OUTREACH_API_KEY: KEY,
      STATE_FILE: '/var/lib/outreach/state.json',
      STATE_DIR: '/var/lib/outreach/state',
      DATABASE_URL: 'postgres://outreach:s3cret@db.internal:5432/outreach',
      RETENTION_DAYS: ' 14 ',
      POLL_INTERVAL_SECONDS: '5',
      ADMIN_USER_IDS: ' U01ABC , W02DEF,,U01ABC ',
      ADMIN_USERGROUP_ID: 'S0614TZR7',
      RESPONDER_USER_IDS: 'U03RES, U03RES,W04RES',
      RESPONDER_USERGROUP_ID: 'S0RESPOND',
      AUDIT_CHANNEL_ID: 'G0ABCDEF',
      DEFAULT_PHONE_REGION: 'us',
      DEFAULT_LOCALE: ' ES ',
      UPLOAD_MAX_BYTES: '1048576',
      UPLOAD_MAX_ROWS: '50000',
      UPLOAD_MAX_CELL_CHARS: ' 2000 ',
      UPLOAD_CONCURRENCY: '4',
      LOG_LEVEL: 'DEBUG',
    });
    expect(c).toEqual({
      slackBotToken: BOT,
      slackAppToken: APP,
      slackApiUrl: 'http://127.0.0.1:4000/api/',
      port: 8080,
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
      outreach: { mode: 'live', baseUrl: 'https://outreach.example.com/api/v1.0', apiKey: KEY },
      stateFile: '/var/lib/outreach/state.json',
      stateDir: '/var/lib/outreach/state',
      databaseUrl: 'postgres://outreach:s3cret@db.internal:5432/outreach',
      retentionDays: 14,
      pollIntervalSeconds: 5,
      adminUserIds: ['U01ABC', 'W02DEF'],
      adminUsergroupId: 'S0614TZR7',
      allowEveryoneToChange: false,
      responderUserIds: ['U03RES', 'W04RES'],
      responderUsergroupId: 'S0RESPOND',
      auditChannelId: 'G0ABCDEF',
      defaultPhoneRegion: 'US',
      defaultLocale: 'es',
      uploadMaxBytes: 1048576,
      uploadMaxRows: 50_000,
      uploadMaxCellChars: 2_000,
      uploadConcurrency: 4,
      personActionsPerMinute: 60,
      personActionsBurst: 10,
      logLevel: 'debug',
    });
  });

  it('refuses a DATABASE_URL that is not PostgreSQL without repeating it, and keeps its password out of the summary', () => {
    const bad = errorFor({ ...base, DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(bad.variables).toEqual(['DATABASE_URL']);
    expect(bad.message).toMatch(/^DATABASE_URL must be a PostgreSQL URL/);
    expect(bad.message).not.toContain('hunter2');
    const c = loadConfig({ ...base, DATABASE_URL: 'postgresql://app:p%40ss@10.0.0.5/outreach' });
    const summary = JSON.stringify(describeConfig(c));
    expect(summary).toContain('PostgreSQL at 10.0.0.5/outreach');
    expect(summary).not.toContain('p%40ss');
    expect(configSecrets(c)).toEqual(expect.arrayContaining(['p@ss', 'postgresql://app:p%40ss@10.0.0.5/outreach']));
    expect(errorFor({ ...base, RETENTION_DAYS: '0' }).variables).toEqual(['RETENTION_DAYS']);
  });

  it('treats empty values as unset', () => {
    const c = loadConfig({ ...base, PORT: '', OUTREACH_BASE_URL: ' ', OUTREACH_API_KEY: '', ADMIN_USER_IDS: '' });
    expect(c.port).toBe(3000);
    expect(c.outreach).toEqual({ mode: 'sandbox' });
  });

  it("reads each person's share of actions: PERSON_ACTIONS_PER_MINUTE and PERSON_ACTIONS_BURST", () => {
    const c = loadConfig({ ...base, PERSON_ACTIONS_PER_MINUTE: ' 30 ', PERSON_ACTIONS_BURST: '5' });
    expect([c.personActionsPerMinute, c.personActionsBurst]).toEqual([30, 5]);
    expect(errorFor({ ...base, PERSON_ACTIONS_PER_MINUTE: '0' }).message).toMatch(
      /^PERSON_ACTIONS_PER_MINUTE must be a whole number between 1 and 6000 \(got '0'\)\. .*leave it unset for 60\.$/,
    );
    expect(errorFor({ ...base, PERSON_ACTIONS_BURST: 'lots' }).variables).toEqual(['PERSON_ACTIONS_BURST']);
  });

  it('reads METRICS_PORT, METRICS_HOST, METRICS_TOKEN and LOG_FORMAT, with their defaults when unset', () => {
    const token = 'f'.repeat(40);
    const c = loadConfig({
      ...base,
      METRICS_PORT: ' 9100 ',
      METRICS_HOST: '10.0.0.7',
      METRICS_TOKEN: ` ${token}\n`,
      LOG_FORMAT: 'JSON',
    });
    expect([c.metricsPort, c.metricsHost, c.metricsToken]).toEqual([9100, '10.0.0.7', token]);
    expect(configSecrets(c)).toContain(token);
    expect(c.logFormat).toBe('json');
    expect(loadConfig({ ...base, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...base, METRICS_HOST: '::1' }).metricsHost).toBe('::1');
    expect(loadConfig({ ...base, METRICS_PORT: '0' }).metricsPort).toBe(0);
    const unset = loadConfig({ ...base, METRICS_PORT: '', METRICS_HOST: ' ', METRICS_TOKEN: '', LOG_FORMAT: ' ' });
    // The operators' listener on this host only; nothing of it on PORT.
    expect([unset.metricsPort, unset.metricsHost]).toEqual([9464, '127.0.0.1']);
    expect('metricsToken' in unset).toBe(false);
    expect('logFormat' in unset).toBe(false);
  });

  it('refuses a short METRICS_TOKEN without repeating it', () => {
    const e = errorFor({ ...base, METRICS_TOKEN: 'secret-but-short' });
    expect(e.variables).toEqual(['METRICS_TOKEN']);
    expect(e.message).toMatch(
      /^METRICS_TOKEN must be at least 24 printable characters without spaces \(value not shown\)/,
    );
    expect(e.message).not.toContain('secret-but-short');
    expect(errorFor({ ...base, METRICS_TOKEN: 'twenty four characters with spaces' }).variables).toEqual([
      'METRICS_TOKEN',
    ]);
  });

  it('does not need a signing secret in Socket Mode', () => {
    const c = loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: APP });
    expect(c.slackAppToken).toBe(APP);
    expect(c.slackSigningSecret).toBeUndefined();
  });

  it.each<[string, Record<string, string>, string, RegExp]>([
    [
      'PORT not a number',
      { PORT: 'abc' },
      'PORT',
      /^PORT must be a whole number between 1 and 65535 \(got 'abc'\)\. Set PORT to the port to listen on, or leave it unset for 3000\.$/,
    ],
    ['PORT out of range', { PORT: '70000' }, 'PORT', /between 1 and 65535 \(got '70000'\)/],
    ['PORT with a fraction', { PORT: '80.5' }, 'PORT', /whole number/],
    ['poll interval too short', { POLL_INTERVAL_SECONDS: '1' }, 'POLL_INTERVAL_SECONDS', /between 5 and 3600/],
    ['poll interval too long', { POLL_INTERVAL_SECONDS: '3601' }, 'POLL_INTERVAL_SECONDS', /leave it unset for 30/],
    [
      'Slack API URL not http',
      { SLACK_API_URL: 'ftp://x/' },
      'SLACK_API_URL',
      /SLACK_API_URL must be an http\(s\) URL/,
    ],
    [
      'base URL without the version',
      { OUTREACH_BASE_URL: 'https://o.example.com/api', OUTREACH_API_KEY: KEY },
      'OUTREACH_BASE_URL',
      /ending with \/api\/v1\.0 \(got 'https:\/\/o\.example\.com\/api'\)/,
    ],
    [
      'base URL not a URL',
      { OUTREACH_BASE_URL: 'o.example.com/api/v1.0', OUTREACH_API_KEY: KEY },
      'OUTREACH_BASE_URL',
      /http\(s\) URL/,
    ],
    [
      'only the base URL',
      { OUTREACH_BASE_URL: 'https://o.example.com/api/v1.0' },
      'OUTREACH_API_KEY',
      /^OUTREACH_BASE_URL is set but OUTREACH_API_KEY is not\. Set both .* or unset both/,
    ],
    [
      'only the API key',
      { OUTREACH_API_KEY: KEY },
      'OUTREACH_BASE_URL',
      /^OUTREACH_API_KEY is set but OUTREACH_BASE_URL is not/,
    ],
    [
      'an admin id that is a name',
      { ADMIN_USER_IDS: 'U01ABC,bob' },
      'ADMIN_USER_IDS',
      /has 'bob', which is not a Slack member id/,
    ],
    ['a usergroup id that is a channel', { ADMIN_USERGROUP_ID: 'C123ABC' }, 'ADMIN_USERGROUP_ID', /starting with S/],
    [
      'a responder id that is a name',
      { RESPONDER_USER_IDS: 'U01ABC,@ana' },
      'RESPONDER_USER_IDS',
      /^RESPONDER_USER_IDS has '@ana', which is not a Slack member id .*let the admins .* reply to customers\.$/,
    ],
    [
      'a responder group that is a channel',
      { RESPONDER_USERGROUP_ID: 'C123ABC' },
      'RESPONDER_USERGROUP_ID',
      /^RESPONDER_USERGROUP_ID must be a Slack user group id starting with S/,
    ],
    [
      'ALLOW_EVERYONE_TO_CHANGE that is not true or false',
      { ALLOW_EVERYONE_TO_CHANGE: 'yes' },
      'ALLOW_EVERYONE_TO_CHANGE',
      /^ALLOW_EVERYONE_TO_CHANGE must be true or false \(got 'yes'\)/,
    ],
    [
      'ALLOW_EVERYONE_TO_CHANGE beside admins',
      { ALLOW_EVERYONE_TO_CHANGE: 'true', ADMIN_USER_IDS: 'U01ABC' },
      'ALLOW_EVERYONE_TO_CHANGE',
      /contradicts ADMIN_USER_IDS \/ ADMIN_USERGROUP_ID/,
    ],
    [
      'an audit channel that is a name',
      { AUDIT_CHANNEL_ID: '#audit' },
      'AUDIT_CHANNEL_ID',
      /starting with C or G \(got '#audit'\)/,
    ],
    [
      'an unknown phone region',
      { DEFAULT_PHONE_REGION: 'XX' },
      'DEFAULT_PHONE_REGION',
      /two-letter ISO 3166 .*\(got 'XX'\).*unset for MX/,
    ],
    ['a phone region that is a name', { DEFAULT_PHONE_REGION: 'Mexico' }, 'DEFAULT_PHONE_REGION', /got 'Mexico'/],
    [
      'a default language the app does not speak',
      { DEFAULT_LOCALE: 'es-MX' },
      'DEFAULT_LOCALE',
      /DEFAULT_LOCALE must be en or es \(got 'es-MX'\).*unset for en/,
    ],
    [
      'an upload limit of zero',
      { UPLOAD_MAX_BYTES: '0' },
      'UPLOAD_MAX_BYTES',
      /UPLOAD_MAX_BYTES must be a whole number/,
    ],
    [
      'too many rows per upload',
      { UPLOAD_MAX_ROWS: '3000000' },
      'UPLOAD_MAX_ROWS',
      /^UPLOAD_MAX_ROWS must be a whole number between 1 and 2500000 \(got '3000000'\)\. Set UPLOAD_MAX_ROWS to the most data rows one upload reads, or leave it unset for 200000\.$/,
    ],
    ['rows per upload not a number', { UPLOAD_MAX_ROWS: '200k' }, 'UPLOAD_MAX_ROWS', /got '200k'/],
    [
      'a cell limit too small',
      { UPLOAD_MAX_CELL_CHARS: '10' },
      'UPLOAD_MAX_CELL_CHARS',
      /^UPLOAD_MAX_CELL_CHARS must be a whole number between 100 and 1000000 \(got '10'\)\..*unset for 5000\.$/,
    ],
    [
      'no upload at a time',
      { UPLOAD_CONCURRENCY: '0' },
      'UPLOAD_CONCURRENCY',
      /^UPLOAD_CONCURRENCY must be a whole number between 1 and 10 \(got '0'\)\. Set UPLOAD_CONCURRENCY to how many uploads may read and send at once, or leave it unset for 2\.$/,
    ],
    [
      'a metrics port out of range',
      { METRICS_PORT: '70000' },
      'METRICS_PORT',
      /^METRICS_PORT must be a whole number between 0 and 65535 \(got '70000'\)\. .*leave it unset for 9464\.$/,
    ],
    ['a metrics port that is not a number', { METRICS_PORT: 'nine' }, 'METRICS_PORT', /got 'nine'/],
    [
      'a metrics port equal to PORT',
      { PORT: '8080', METRICS_PORT: '8080' },
      'METRICS_PORT',
      /^METRICS_PORT is the same as PORT \(8080\)\. Set METRICS_PORT to another port/,
    ],
    ['a metrics port equal to the default PORT', { METRICS_PORT: '3000' }, 'METRICS_PORT', /same as PORT \(3000\)/],
    [
      'a PORT equal to the default metrics port',
      { PORT: '9464' },
      'METRICS_PORT',
      /^METRICS_PORT \(unset: 9464\) is the same as PORT \(9464\)\./,
    ],
    [
      'a metrics host that is no address',
      { METRICS_HOST: 'http://0.0.0.0' },
      'METRICS_HOST',
      /^METRICS_HOST must be an IP address or a host name \(got 'http:\/\/0\.0\.0\.0'\)\. .*leave it unset for 127\.0\.0\.1/,
    ],
    [
      'an unknown log format',
      { LOG_FORMAT: 'text' },
      'LOG_FORMAT',
      /^LOG_FORMAT must be pretty or json \(got 'text'\)\. .*leave it unset for pretty in a terminal and json otherwise\.$/,
    ],
    [
      'an unknown log level',
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL',
      /one of fatal, error, warn, info, debug, trace, silent \(got 'verbose'\)/,
    ],
  ])('rejects %s with one line naming the variable', (_what, env, variable, message) => {
    const e = errorFor({ ...base, ...env });
    expect(e.variables[0]).toBe(variable);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });

  it('asks for the bot token and the signing secret when missing, naming the first and listing the other', () => {
    const e = errorFor({});
    expect(e.message).toMatch(/^SLACK_BOT_TOKEN is not set\. Set it to the app's Bot User OAuth Token/);
    expect(e.message).toMatch(/\(also to fix: SLACK_SIGNING_SECRET\)$/);
    expect(e.variables).toEqual(['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET']);
    const s = errorFor({ SLACK_BOT_TOKEN: BOT });
    expect(s.message).toMatch(/^SLACK_SIGNING_SECRET is not set.*or set SLACK_APP_TOKEN to use Socket Mode\.$/);
  });

  it('reports problems in several variables in one line, in a stable order', () => {
    const e = errorFor({ ...base, LOG_LEVEL: 'loud', PORT: 'x', OUTREACH_API_KEY: KEY });
    expect(e.variables).toEqual(['PORT', 'OUTREACH_BASE_URL', 'LOG_LEVEL']);
    expect(e.message).toMatch(/^PORT must be .*\(also to fix: OUTREACH_BASE_URL, LOG_LEVEL\)$/);
  });

  it('never repeats a secret in an error message', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, SLACK_BOT_TOKEN: 'xoxp-user-SECRETuser' }, 'SECRETuser'],
      [{ ...base, SLACK_BOT_TOKEN: 'SECRETnoprefix' }, 'SECRETnoprefix'],
      [{ ...base, SLACK_APP_TOKEN: 'xoxb-SECRETwrongkind' }, 'SECRETwrongkind'],
      [{ ...base, OUTREACH_API_KEY: KEY }, KEY],
      [
        { ...base, OUTREACH_BASE_URL: 'https://user:SECRETpw@o.example.com/api/v1.0', OUTREACH_API_KEY: KEY },
        'SECRETpw',
      ],
    ];
    for (const [env, secret] of cases) {
      const e = errorFor(env);
      expect(e.message).not.toContain(secret);
      expect(e.message).not.toContain('SECRET');
    }
    const wrongKind = errorFor({ ...base, SLACK_BOT_TOKEN: 'xoxp-user-SECRETuser' });
    expect(wrongKind.message).toMatch(
      /^SLACK_BOT_TOKEN must be the app's Bot User OAuth Token, which starts with 'xoxb-'\. It starts with 'xoxp-' instead \(value not shown\)/,
    );
    expect(errorFor({ ...base, SLACK_APP_TOKEN: 'nope' }).variables).toEqual(['SLACK_APP_TOKEN']);
  });
});

describe('who may change with the live service', () => {
  const live = { ...base, OUTREACH_BASE_URL: 'https://o.example.com/api/v1.0', OUTREACH_API_KEY: KEY };

  it('refuses to start without admins, in one line naming the three variables', () => {
    for (const env of [live, { ...live, ADMIN_USER_IDS: ' , ', ADMIN_USERGROUP_ID: ' ' }]) {
      const e = errorFor(env);
      expect(e.variables).toEqual(['ADMIN_USER_IDS']);
      expect(e.message).not.toContain('\n');
      expect(e.message).toMatch(/^Neither ADMIN_USER_IDS nor ADMIN_USERGROUP_ID is set/);
      expect(e.message).toContain('ALLOW_EVERYONE_TO_CHANGE=true');
      expect(e.message).not.toContain(KEY);
    }
  });

  it('starts with admins, or with everyone on purpose; the sandbox stays open', () => {
    expect(loadConfig({ ...live, ADMIN_USER_IDS: 'U01ABC' }).adminUserIds).toEqual(['U01ABC']);
    expect(loadConfig({ ...live, ADMIN_USERGROUP_ID: 'S0614TZR7' }).adminUsergroupId).toBe('S0614TZR7');
    const everyone = loadConfig({ ...live, ALLOW_EVERYONE_TO_CHANGE: 'TRUE' });
    expect(everyone.allowEveryoneToChange).toBe(true);
    expect(everyoneMayChangeProblem(everyone)).toBeUndefined();
    const sandbox = loadConfig(base);
    expect(sandbox.outreach.mode).toBe('sandbox');
    expect(everyoneMayChangeProblem(sandbox)).toBeUndefined();
    expect(describeConfig(sandbox)).toMatchObject({
      admins: 'every full member of the workspace',
      responders: 'the admins (every full member of the workspace)',
    });
  });

  it('holds a Config built by hand to the same rule (startApp checks it again)', () => {
    const c = { ...loadConfig({ ...live, ADMIN_USER_IDS: 'U01ABC' }), adminUserIds: [] };
    const e = everyoneMayChangeProblem(c);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e!.message).toMatch(/ADMIN_USER_IDS.*ADMIN_USERGROUP_ID.*ALLOW_EVERYONE_TO_CHANGE/);
    expect(e!.variables).toEqual(['ADMIN_USER_IDS', 'ADMIN_USERGROUP_ID', 'ALLOW_EVERYONE_TO_CHANGE']);
  });
});

describe('describeConfig', () => {
  it('summarises the configuration with every secret hidden', () => {
    const c = loadConfig({
      ...base,
      SLACK_APP_TOKEN: APP,
      OUTREACH_BASE_URL: 'https://o.example.com/api/v1.0',
      OUTREACH_API_KEY: KEY,
      ADMIN_USER_IDS: 'U01ABC',
      ADMIN_USERGROUP_ID: 'S0614TZR7',
    });
    const summary = describeConfig(c);
    const text = JSON.stringify(summary);
    for (const secret of configSecrets(c)) expect(text).not.toContain(secret);
    expect(configSecrets(c).sort()).toEqual([APP, BOT, KEY, SIGNING].sort());
    expect(summary).toMatchObject({
      slackMode: 'socket',
      slackBotToken: 'set (hidden)',
      outreach: { mode: 'live', baseUrl: 'https://o.example.com/api/v1.0', apiKey: 'set (hidden)' },
      admins: 'U01ABC, group S0614TZR7',
      responders: 'the admins (U01ABC, group S0614TZR7)',
      port: 3000,
      metrics: '127.0.0.1:9464, not on PORT',
      metricsToken: 'not set',
      logFormat: 'auto (pretty in a terminal, json otherwise)',
    });
    const token = 'm'.repeat(32);
    const withToken = describeConfig(
      loadConfig({ ...base, METRICS_PORT: '9100', METRICS_TOKEN: token, LOG_FORMAT: 'json' }),
    );
    expect(withToken).toMatchObject({
      metrics: '127.0.0.1:9100, and on PORT with METRICS_TOKEN',
      metricsToken: 'set (hidden)',
      logFormat: 'json',
    });
    expect(JSON.stringify(withToken)).not.toContain(token);
    expect(describeConfig(loadConfig(base))).toMatchObject({
      slackMode: 'http',
      slackAppToken: 'not set',
      outreach: { mode: 'sandbox' },
      admins: 'every full member of the workspace',
      uploadLimits: '200000 rows per file, 5000 characters per cell, 2 at once',
    });
  });
});

describe('startMode and the playground settings', () => {
  it('starts the playground with nothing set, the app with a Slack token or signing secret', () => {
    expect(startMode({})).toBe('playground');
    expect(startMode({ SLACK_BOT_TOKEN: 'xoxb-1' })).toBe('app');
    expect(startMode({ SLACK_APP_TOKEN: 'xapp-1' })).toBe('app');
    expect(startMode({ SLACK_SIGNING_SECRET: 'secret' })).toBe('app');
    expect(startMode({ SLACK_BOT_TOKEN: 'xoxb-1' }, { playground: true })).toBe('playground');
  });

  it("never starts the playground with the service's credentials", () => {
    const live = { OUTREACH_BASE_URL: 'https://outreach.example.com/api/v1.0', OUTREACH_API_KEY: 'sk_live_x' };
    expect(startMode(live)).toBe('app');
    expect(() => startMode(live, { playground: true })).toThrow(/never reaches real customers.*Unset them/);
    expect(() => loadConfig(live)).toThrow(/SLACK_BOT_TOKEN is not set.*unset OUTREACH_BASE_URL and OUTREACH_API_KEY/);
  });

  it('reads PORT (0: any free port), PLAYGROUND_HOST and PLAYGROUND_RATE_LIMITS, naming a bad one', () => {
    expect(loadPlaygroundSettings({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      rateLimits: false,
      socketMode: false,
    });
    expect(loadPlaygroundSettings({ PLAYGROUND_SOCKET_MODE: 'true' }).socketMode).toBe(true);
    expect(
      loadPlaygroundSettings({ PORT: '0', PLAYGROUND_HOST: '0.0.0.0', PLAYGROUND_RATE_LIMITS: 'true' }),
    ).toMatchObject({ port: 0, host: '0.0.0.0', rateLimits: true });
    expect(() => loadPlaygroundSettings({ PLAYGROUND_HOST: 'http://x' })).toThrow(
      /^PLAYGROUND_HOST must be an IP address/,
    );
    expect(() => loadPlaygroundSettings({ PLAYGROUND_RATE_LIMITS: 'yes' })).toThrow(
      /^PLAYGROUND_RATE_LIMITS must be true or false/,
    );
  });
});
