/**
 * The app's settings, read once from the environment at start-up.
 *
 * Every problem is reported as one line that names the variable, says what is wrong and what to set instead, so a
 * misconfigured deployment fails at once with a message an operator can act on. Secret values (tokens, signing
 * secret, API key) are never repeated in those messages, nor in `describeConfig`'s summary.
 *
 * Each variable is written once, in `envShape`: its parser (which gives its default) and its doc. The `Config` type,
 * the order problems are reported in, the start-up summary, the secrets handed to the logger and the README's table
 * of variables (held to it by test/unit/readme-variables-table.test.ts) all come from there.
 */
import { isIP } from 'node:net';
import { isSupportedCountry, type CountryCode } from './contacts/libphonenumber.js';
import { isLocale, type Locale } from './i18n/locale.js';
import { z } from 'zod';
import { API_VERSION_PATH } from './outreach/unspecified.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
/** `pretty`: coloured, one line per event, for a person at a terminal; `json`: one JSON object per line. */
const LOG_FORMATS = ['pretty', 'json'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

/** The operators' listener's port when METRICS_PORT is unset (the usual port of a Prometheus exporter). */
const DEFAULT_METRICS_PORT = 9464;
/** Shortest METRICS_TOKEN accepted: a bearer token anyone can reach PORT to guess at. */
const METRICS_TOKEN_MIN_CHARS = 24;

/** Slack's `file_input` limit per file (10 MB); the default cap on uploaded spreadsheets. */
const SLACK_FILE_INPUT_MAX_BYTES = 10 * 1024 * 1024;

/** A configuration problem; `message` is a single line naming the variable and the fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    /** The variable(s) at fault, first one first. */
    readonly variables: string[],
  ) {
    super(message);
  }
}

type Env = Record<string, string | undefined>;
type Ctx = z.core.$RefinementCtx<unknown>;

/** Shows a non-secret value in a message: quoted, on one line, shortened. */
function shown(value: string): string {
  const oneLine = value.replace(/[\r\n\t]+/g, ' ');
  return `'${oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine}'`;
}

function fail(ctx: Ctx, message: string): typeof z.NEVER {
  ctx.issues.push({ code: 'custom', message, input: undefined });
  return z.NEVER;
}

/** Unset, empty and whitespace-only all mean "not set"; values are trimmed (pasted secrets often carry a newline). */
const text = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? undefined : t;
}, z.string().optional());

/** Each whole-number parser's bounds, for the README's table (its messages say them too). */
const wholeNumberRanges = new WeakMap<z.ZodType, { min: number; max: number }>();

function wholeNumber(
  name: string,
  { min, max, fallback, purpose }: { min: number; max: number; fallback: number; purpose: string },
) {
  const schema = text.transform((v, ctx) => {
    if (v === undefined) return fallback;
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    return fail(
      ctx,
      `${name} must be a whole number between ${min} and ${max} (got ${shown(v)}). ` +
        `Set ${name} to ${purpose}, or leave it unset for ${fallback}.`,
    );
  });
  wholeNumberRanges.set(schema, { min, max });
  return schema;
}

/** Token-like secret: checked by prefix only; the value itself never appears in a message. */
function token(name: string, prefix: string, what: string, where: string) {
  return text.transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v.startsWith(prefix) && v.length > prefix.length && !/\s/.test(v)) return v;
    const known = /^(xoxb|xoxp|xapp|xoxa|xoxe)-/.exec(v)?.[1];
    const got = known ? ` It starts with '${known}-' instead (value not shown).` : ' (value not shown).';
    return fail(ctx, `${name} must be ${what}, which starts with '${prefix}'.${got} Copy it from ${where}.`);
  });
}

function httpUrl(value: string): URL | undefined {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password ? u : undefined;
  } catch {
    return undefined;
  }
}

/** Like `shown`, but a URL carrying credentials (user:password@) is not repeated. */
function shownUrl(value: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)
    ? 'a URL with credentials, not shown; credentials do not belong in it'
    : shown(value);
}

/** A Slack id such as U0123ABC: a known first letter then upper-case letters/digits. */
function slackId(value: string, firstLetters: string): boolean {
  return new RegExp(`^[${firstLetters}][A-Z0-9]{2,}$`).test(value);
}

/** A comma-separated list of Slack member ids (U… or W…), deduplicated; `otherwise` ends the fix sentence. */
function memberIds(name: string, otherwise: string) {
  return text.transform((v, ctx) => {
    const ids = (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const bad = ids.find((id) => !slackId(id, 'UW'));
    if (bad !== undefined) {
      return fail(
        ctx,
        `${name} has ${shown(bad)}, which is not a Slack member id (U… or W…). ` +
          `Set it to a comma-separated list of member ids (Slack: a person's profile → ⋮ → Copy member ID), ${otherwise}.`,
      );
    }
    return [...new Set(ids)];
  });
}

/** A Slack user group id (S…); `purpose` says what its members may do. */
function usergroupId(name: string, purpose: string) {
  return text.transform((v, ctx) => {
    if (v === undefined || slackId(v, 'S')) return v;
    return fail(
      ctx,
      `${name} must be a Slack user group id starting with S (got ${shown(v)}). ` +
        `Set it to the id of the group whose members ${purpose}, or leave it unset.`,
    );
  });
}

/** true or false (any case), false when unset; `fix` is the sentence saying what to set. */
function trueOrFalse(name: string, fix: string) {
  return text.transform((v, ctx) => {
    if (v === undefined || /^false$/i.test(v)) return false;
    if (/^true$/i.test(v)) return true;
    return fail(ctx, `${name} must be true or false (got ${shown(v)}). ${fix}`);
  });
}

/** An address to bind to (IP or host name), 127.0.0.1 when unset; `what` names what listens there. */
function hostAddress(name: string, what: string) {
  return text.transform((v, ctx) => {
    if (v === undefined) return '127.0.0.1';
    if (
      isIP(v) !== 0 ||
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i.test(v)
    ) {
      return v;
    }
    return fail(
      ctx,
      `${name} must be an IP address or a host name (got ${shown(v)}). ` +
        `Set it to the address ${what} binds to, or leave it unset for 127.0.0.1 (this host only).`,
    );
  });
}

/**
 * What the README's table of variables and the start-up summary say of a variable, written beside its parser; the
 * default is what the parser gives for unset.
 */
interface SettingDoc {
  /** The README's "Meaning": one short line (what needs more is in docs/operations.md). */
  description: string;
  /** A secret: the summary says only whether it is set, and `configSecrets` hands it to the logger to redact. */
  secret?: true;
  /** What leaving it unset means, when "unset" says too little: the README's default and the summary's value. */
  unset?: string;
}
const settingDocs = z.registry<SettingDoc>();

/** `schema` is the variable's parser, `doc` what the README and the summary say of it. */
function setting<T extends z.ZodType>(doc: SettingDoc, schema: T): T {
  settingDocs.add(schema, doc);
  return schema;
}

/** Every variable the app reads: its parser and its doc, in the order problems are reported. */
const envShape = {
  SLACK_BOT_TOKEN: setting(
    {
      description: 'Bot User OAuth Token, `xoxb-…` (no Slack variable set: the playground)',
      secret: true,
      unset: 'required for your Slack',
    },
    token('SLACK_BOT_TOKEN', 'xoxb-', "the app's Bot User OAuth Token", "the Slack app's OAuth & Permissions page"),
  ),
  // Required in HTTP mode, unused in Socket Mode (crossChecks).
  SLACK_SIGNING_SECRET: setting(
    { description: 'Verifies that requests come from Slack', secret: true, unset: 'required in HTTP mode' },
    text.clone(),
  ),
  SLACK_APP_TOKEN: setting(
    { description: 'App-level token `xapp-…`: the app connects in Socket Mode instead of HTTP', secret: true },
    token(
      'SLACK_APP_TOKEN',
      'xapp-',
      'an app-level token (for Socket Mode)',
      "the Slack app's Basic Information page (App-Level Tokens, scope connections:write), or leave it unset for HTTP mode",
    ),
  ),
  // Always ending with `/`.
  SLACK_API_URL: setting(
    { description: 'Base of the Slack Web API (the tests point it at a fake)' },
    text.transform((v, ctx) => {
      if (v === undefined) return 'https://slack.com/api/';
      const u = httpUrl(v);
      if (!u) {
        return fail(
          ctx,
          `SLACK_API_URL must be an http(s) URL (got ${shownUrl(v)}). ` +
            'Leave it unset for https://slack.com/api/, or set it to the base URL of a Slack API stand-in.',
        );
      }
      return u.href.endsWith('/') ? u.href : `${u.href}/`;
    }),
  ),
  PORT: setting(
    { description: '`POST /slack/events` and `GET /healthz` (in the playground: its page)' },
    wholeNumber('PORT', { min: 1, max: 65535, fallback: 3000, purpose: 'the port to listen on' }),
  ),
  // Never the port Slack reaches (crossChecks).
  METRICS_PORT: setting(
    { description: "Port of the operators' listener (`/metrics`, `/healthz/details`); 0: a free one" },
    wholeNumber('METRICS_PORT', {
      min: 0,
      max: 65535,
      fallback: DEFAULT_METRICS_PORT,
      purpose: "the port of the operators' listener (GET /metrics, GET /healthz/details; 0: any free port)",
    }),
  ),
  // Loopback unless set (a warning is logged at start then).
  METRICS_HOST: setting(
    { description: "The address the operators' listener binds to (not loopback: a warning)" },
    hostAddress('METRICS_HOST', "the operators' listener"),
  ),
  METRICS_TOKEN: setting(
    { description: "24+ characters: the operators' endpoints also on `PORT`, to this bearer", secret: true },
    text.transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v.length >= METRICS_TOKEN_MIN_CHARS && /^[\x21-\x7e]+$/.test(v)) return v;
      // A secret: never repeated, not even in part.
      return fail(
        ctx,
        `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_CHARS} printable characters without spaces (value not shown). ` +
          'Set it to a long random string (e.g. the output of `openssl rand -hex 32`), or leave it unset to keep ' +
          '/metrics off PORT.',
      );
    }),
  ),
  // Read together with OUTREACH_API_KEY as Config.outreach.
  OUTREACH_BASE_URL: setting(
    { description: "The service's base URL, ending with `/api/v1.0`; unset with the key: sandbox" },
    text.transform((v, ctx) => {
      if (v === undefined) return undefined;
      const u = httpUrl(v);
      const path = u?.pathname.replace(/\/$/, '');
      if (!u || !path?.endsWith(API_VERSION_PATH) || u.search || u.hash) {
        return fail(
          ctx,
          `OUTREACH_BASE_URL must be an http(s) URL ending with ${API_VERSION_PATH} (got ${shownUrl(v)}). ` +
            `Set it to the service's base URL, e.g. https://outreach.example.com${API_VERSION_PATH}, ` +
            'or unset it together with OUTREACH_API_KEY to run in sandbox mode.',
        );
      }
      // Normalised without a trailing slash: the client appends "/campaigns" etc.
      return `${u.origin}${path}`;
    }),
  ),
  OUTREACH_API_KEY: setting(
    { description: "The service's API key (sent as `Authorization: api-key …`)", secret: true },
    text.clone(),
  ),
  STATE_FILE: setting(
    { description: 'The state file of older versions, converted into `STATE_DIR` at first start' },
    text.transform((v) => v ?? './data/state.json'),
  ),
  STATE_DIR: setting(
    { description: 'Where the state is kept without `DATABASE_URL`; one app process per folder' },
    text.transform((v) => v ?? './data'),
  ),
  DATABASE_URL: setting(
    // The whole URL is a secret: it may hold a password.
    { description: '`postgres://…`: the state in PostgreSQL, shared by any number of replicas', secret: true },
    text.transform((v, ctx) => {
      if (v === undefined) return undefined;
      let u: URL | undefined;
      try {
        u = new URL(v);
      } catch {
        u = undefined;
      }
      if (!u || (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') || !u.hostname) {
        // The URL may hold a password: it is never repeated back.
        return fail(
          ctx,
          'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@db.example.com:5432/outreach ' +
            '(the value given is not one; it is not shown because it may hold a password). ' +
            'Unset it to keep state embedded in STATE_DIR.',
        );
      }
      return v;
    }),
  ),
  RETENTION_DAYS: setting(
    { description: 'Days the records of ended calls and of finished uploads are kept' },
    wholeNumber('RETENTION_DAYS', {
      min: 1,
      max: 3650,
      fallback: 7,
      purpose: 'how many days records of ended calls and finished uploads are kept',
    }),
  ),
  POLL_INTERVAL_SECONDS: setting(
    { description: 'How often watched campaigns are polled, in seconds' },
    wholeNumber('POLL_INTERVAL_SECONDS', {
      min: 5,
      max: 3600,
      fallback: 30,
      purpose: 'how often, in seconds, watched campaigns are checked for new calls',
    }),
  ),
  // Empty with no ADMIN_USERGROUP_ID: everyone, which the live service allows only with ALLOW_EVERYONE_TO_CHANGE.
  ADMIN_USER_IDS: setting(
    { description: 'Member ids, comma-separated, of the people who may change campaigns' },
    memberIds('ADMIN_USER_IDS', 'or leave it empty and set ADMIN_USERGROUP_ID instead'),
  ),
  ADMIN_USERGROUP_ID: setting(
    { description: 'A Slack user group (`S…`) whose members may also change campaigns' },
    usergroupId('ADMIN_USERGROUP_ID', 'may manage campaigns'),
  ),
  // Never guests or people of another organization: src/slack/permissions.ts.
  ALLOW_EVERYONE_TO_CHANGE: setting(
    { description: '`true`: with the live service and no admins, every full member may change' },
    trueOrFalse(
      'ALLOW_EVERYONE_TO_CHANGE',
      'Set it to true only if every full member of the workspace may change campaigns with the live service, or leave it unset.',
    ),
  ),
  RESPONDER_USER_IDS: setting(
    { description: 'Member ids of the people who may reply to customers; empty: the admins' },
    memberIds(
      'RESPONDER_USER_IDS',
      'or leave it empty to let the admins (ADMIN_USER_IDS, ADMIN_USERGROUP_ID) reply to customers',
    ),
  ),
  RESPONDER_USERGROUP_ID: setting(
    { description: 'A Slack user group (`S…`) whose members may also reply to customers' },
    usergroupId('RESPONDER_USERGROUP_ID', 'may reply to customers in watched threads'),
  ),
  AUDIT_CHANNEL_ID: setting(
    { description: 'A channel where every change is also posted (it is always logged)' },
    text.transform((v, ctx) => {
      if (v === undefined || slackId(v, 'CG')) return v;
      return fail(
        ctx,
        `AUDIT_CHANNEL_ID must be a Slack channel id starting with C or G (got ${shown(v)}). ` +
          'Set it to the id of the channel that records campaign changes (channel details → bottom), or leave it unset.',
      );
    }),
  ),
  DEFAULT_PHONE_REGION: setting(
    { description: 'Country (ISO 3166 code) of numbers written without a country code' },
    text.transform((v, ctx): CountryCode => {
      if (v === undefined) return 'MX';
      const upper = v.toUpperCase();
      if (isSupportedCountry(upper)) return upper;
      return fail(
        ctx,
        `DEFAULT_PHONE_REGION must be a two-letter ISO 3166 country code with a phone numbering plan (got ${shown(v)}). ` +
          'Set it to the country assumed for numbers without a +country prefix, e.g. MX or US, or leave it unset for MX.',
      );
    }),
  ),
  DEFAULT_LOCALE: setting(
    { description: '`en` or `es`: the language posted in channels that chose none' },
    text.transform((v, ctx): Locale => {
      if (v === undefined) return 'en';
      const lower = v.trim().toLowerCase();
      if (isLocale(lower)) return lower;
      return fail(
        ctx,
        `DEFAULT_LOCALE must be en or es (got ${shown(v)}). ` +
          'Set it to the language of what the app posts in channels (es: Spanish, en: English), or leave it unset for en.',
      );
    }),
  ),
  UPLOAD_MAX_BYTES: setting(
    { description: "Largest contact file, in bytes (Slack's own limit is 10 MB)" },
    wholeNumber('UPLOAD_MAX_BYTES', {
      min: 1,
      max: 1024 * 1024 * 1024,
      fallback: SLACK_FILE_INPUT_MAX_BYTES,
      purpose: 'the largest contact file accepted, in bytes',
    }),
  ),
  // The rows after are not read, and the uploader is told where to go on.
  UPLOAD_MAX_ROWS: setting(
    { description: 'Data rows one upload reads; it says from which row to upload the rest' },
    wholeNumber('UPLOAD_MAX_ROWS', {
      min: 1,
      // The service lists a campaign's contacts 100 per page, pages 0 to 25,000.
      max: 2_500_000,
      fallback: 200_000,
      purpose: 'the most data rows one upload reads',
    }),
  ),
  // A row over it is rejected, naming the column.
  UPLOAD_MAX_CELL_CHARS: setting(
    { description: 'Characters one cell may hold (a row: four times that)' },
    wholeNumber('UPLOAD_MAX_CELL_CHARS', {
      min: 100,
      // A CSV record of more than 1 MiB is refused as a quote left open.
      max: 1_000_000,
      fallback: 5_000,
      purpose: 'the most characters one cell of a contact file may hold',
    }),
  ),
  // One per campaign; the others wait and say so.
  UPLOAD_CONCURRENCY: setting(
    { description: 'Uploads that read and send at once, never two into one campaign' },
    wholeNumber('UPLOAD_CONCURRENCY', {
      min: 1,
      max: 10,
      fallback: 2,
      purpose: 'how many uploads may read and send at once',
    }),
  ),
  // Sustained: a token bucket refilled at this rate.
  PERSON_ACTIONS_PER_MINUTE: setting(
    { description: 'Commands and clicks using the service, per person per minute' },
    wholeNumber('PERSON_ACTIONS_PER_MINUTE', {
      min: 1,
      max: 6000,
      fallback: 60,
      purpose: 'how many commands and clicks that use the service one person may make per minute',
    }),
  ),
  // The bucket's size.
  PERSON_ACTIONS_BURST: setting(
    { description: 'How many of those one person may make at once' },
    wholeNumber('PERSON_ACTIONS_BURST', {
      min: 1,
      max: 1000,
      fallback: 10,
      purpose: 'how many commands and clicks one person may make at once before being asked to wait',
    }),
  ),
  LOG_LEVEL: setting(
    { description: `${LOG_LEVELS.map((l) => `\`${l}\``).join(', ')}; secrets are redacted` },
    text.transform((v, ctx): LogLevel => {
      if (v === undefined) return 'info';
      const lower = v.toLowerCase();
      const level = LOG_LEVELS.find((l) => l === lower);
      if (level) return level;
      return fail(
        ctx,
        `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${shown(v)}). Set it accordingly, or leave it unset for info.`,
      );
    }),
  ),
  LOG_FORMAT: setting(
    {
      description: `${LOG_FORMATS.map((f) => `\`${f}\``).join(' or ')}; secrets are redacted in both`,
      unset: 'auto (pretty in a terminal, json otherwise)',
    },
    text.transform((v, ctx): LogFormat | undefined => {
      if (v === undefined) return undefined;
      const lower = v.toLowerCase();
      const format = LOG_FORMATS.find((f) => f === lower);
      if (format) return format;
      return fail(
        ctx,
        `LOG_FORMAT must be pretty or json (got ${shown(v)}). Set it to pretty for readable coloured lines, json for ` +
          'one JSON object per line, or leave it unset for pretty in a terminal and json otherwise.',
      );
    }),
  ),
};
const envSchema = z.looseObject(envShape);
type Variable = keyof typeof envShape;
/** Every variable read, in the order problems are reported. */
const VARIABLES = Object.keys(envShape) as Variable[];

/** What each variable gives: `Read['PORT']` is a number. */
type Read = { [Name in Variable]: z.output<(typeof envShape)[Name]> };
/** A variable's name in Config: SLACK_BOT_TOKEN is slackBotToken. */
type Key<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<Key<Tail>>}`
  : Lowercase<Name>;
const key = (name: string) => name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

type OutreachConfig = { mode: 'sandbox' } | { mode: 'live'; baseUrl: string; apiKey: string };
/** Read together as `outreach`: `sandbox` runs against the built-in simulator, `live` against the real service. */
const SERVICE: readonly Variable[] = ['OUTREACH_BASE_URL', 'OUTREACH_API_KEY'];
/**
 * Read apart: the service's two (as `outreach`), and SLACK_BOT_TOKEN, which loadConfig requires (crossChecks says
 * how) though its parser lets it be unset, for the playground's sake.
 */
type Apart = 'OUTREACH_BASE_URL' | 'OUTREACH_API_KEY' | 'SLACK_BOT_TOKEN';
type Plain = Exclude<Variable, Apart>;
/** The variables that always have a value (a default); the others are absent from Config when unset. */
type Valued = { [Name in Plain]: undefined extends Read[Name] ? never : Name }[Plain];

/** The settings: one key per variable (`Key`), the service's two as `outreach`; what each means is in `envShape`. */
export type Config = {
  slackBotToken: string;
  outreach: OutreachConfig;
} & { [Name in Valued as Key<Name>]: Read[Name] } & {
  [Name in Exclude<Plain, Valued> as Key<Name>]?: Exclude<Read[Name], undefined>;
};

const isSet = (v: string | undefined) => v !== undefined && v.trim() !== '';
/** A comma-separated list with at least one entry. */
const listed = (v: string | undefined) => (v ?? '').split(',').some((s) => s.trim() !== '');

const NO_ADMINS_MESSAGE =
  'Neither ADMIN_USER_IDS nor ADMIN_USERGROUP_ID is set, so with the live service every full member of the workspace ' +
  'could change campaigns and reply to customers. Set ADMIN_USER_IDS (member ids) or ADMIN_USERGROUP_ID (a user ' +
  'group), or set ALLOW_EVERYONE_TO_CHANGE=true if every full member (never guests or other organizations) may, on purpose.';

/**
 * The live service with no admins and no ALLOW_EVERYONE_TO_CHANGE: the one-line refusal (a ConfigError), else
 * undefined. The sandbox stays open. loadConfig checks it on the environment; startApp again on the Config it is
 * given, so a Config built by hand is held to the same rule.
 */
export function everyoneMayChangeProblem(config: Config): ConfigError | undefined {
  const noAdmins = config.adminUserIds.length === 0 && config.adminUsergroupId === undefined;
  if (config.outreach.mode !== 'live' || !noAdmins || config.allowEveryoneToChange) return undefined;
  return new ConfigError(NO_ADMINS_MESSAGE, ['ADMIN_USER_IDS', 'ADMIN_USERGROUP_ID', 'ALLOW_EVERYONE_TO_CHANGE']);
}

const serviceCredentials = (env: Env) => isSet(env.OUTREACH_BASE_URL) || isSet(env.OUTREACH_API_KEY);

/** The refusal when SLACK_BOT_TOKEN is missing: with the service's credentials set it names both ways out. */
function noBotTokenMessage(env: Env): string {
  const set = "Set it to the app's Bot User OAuth Token (xoxb-…) from the Slack app's OAuth & Permissions page";
  if (!serviceCredentials(env)) return `SLACK_BOT_TOKEN is not set. ${set}.`;
  return (
    'SLACK_BOT_TOKEN is not set, but the live service is (OUTREACH_BASE_URL / OUTREACH_API_KEY), and the playground ' +
    `never reaches real customers. ${set} (with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN) to connect your Slack, or ` +
    'unset OUTREACH_BASE_URL and OUTREACH_API_KEY to try the playground with the built-in simulator.'
  );
}

/**
 * What `npm start` runs: the app against a real Slack when a Slack token (or signing secret) is set; the playground
 * (a local Slack emulator, the simulator and the app) when none of them nor the service's credentials are, or when asked
 * for (`npm run playground`) without the service's credentials; otherwise loadConfig refuses, naming both ways out.
 */
export function startMode(env: Env, opts: { playground?: boolean } = {}): 'app' | 'playground' {
  if (serviceCredentials(env) && opts.playground) {
    throw new ConfigError(
      'The playground never reaches real customers, but OUTREACH_BASE_URL / OUTREACH_API_KEY are set. Unset them ' +
        'to try the playground with the built-in simulator, or run npm start with the Slack variables to use the live service.',
      ['OUTREACH_BASE_URL', 'OUTREACH_API_KEY'],
    );
  }
  if (serviceCredentials(env)) return 'app';
  if (opts.playground) return 'playground';
  // A signing secret alone is a Slack app being set up: it gets the app's refusal naming the missing token.
  const slack = [env.SLACK_BOT_TOKEN, env.SLACK_APP_TOKEN, env.SLACK_SIGNING_SECRET].some(isSet);
  return slack ? 'app' : 'playground';
}

/** The playground's own settings: where its page listens and whether Slack's rate limits apply. */
export interface PlaygroundSettings {
  /** The page's port (PORT, default 3000; 0: any free port). */
  port: number;
  /** PLAYGROUND_HOST, default 127.0.0.1: the page has no login. */
  host: string;
  /** PLAYGROUND_RATE_LIMITS=true: the emulator answers 429 as Slack does past each method's limit. */
  rateLimits: boolean;
  /** PLAYGROUND_SOCKET_MODE=true: the app connects to the emulator in Socket Mode instead of getting signed HTTP. */
  socketMode: boolean;
  logLevel: LogLevel;
  logFormat?: LogFormat;
  /** Watched campaigns are checked this often (POLL_INTERVAL_SECONDS, default 5 in the playground). */
  pollIntervalSeconds: number;
}

/** The playground's own variables (PORT, POLL_INTERVAL_SECONDS and the log's are the app's, read its way). */
const playgroundShape = {
  PLAYGROUND_HOST: setting(
    { description: "The playground page's address; it has no login (not loopback: a warning)" },
    hostAddress('PLAYGROUND_HOST', "the playground's page"),
  ),
  PLAYGROUND_RATE_LIMITS: setting(
    { description: "`true`: the playground's Slack answers 429 past Slack's per-method limits" },
    trueOrFalse(
      'PLAYGROUND_RATE_LIMITS',
      "Set it to true for Slack's per-method rate limits in the playground, or leave it unset.",
    ),
  ),
  PLAYGROUND_SOCKET_MODE: setting(
    { description: "`true`: the playground's app uses Socket Mode instead of signed HTTP" },
    trueOrFalse(
      'PLAYGROUND_SOCKET_MODE',
      'Set it to true to run the app in Socket Mode in the playground, or leave it unset for signed HTTP requests.',
    ),
  ),
};
const playgroundSchema = z.looseObject({
  ...playgroundShape,
  PORT: wholeNumber('PORT', { min: 0, max: 65535, fallback: 3000, purpose: "the playground page's port" }),
  POLL_INTERVAL_SECONDS: envShape.POLL_INTERVAL_SECONDS,
  LOG_LEVEL: envShape.LOG_LEVEL,
  LOG_FORMAT: envShape.LOG_FORMAT,
});

/** Reads the playground's settings; a ConfigError names the first variable at fault. */
export function loadPlaygroundSettings(env: Env = process.env): PlaygroundSettings {
  const r = playgroundSchema.safeParse({ POLL_INTERVAL_SECONDS: '5', ...env });
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ConfigError(issue?.message ?? 'Invalid configuration.', [String(issue?.path[0] ?? '')]);
  }
  const e = r.data;
  return {
    port: e.PORT,
    host: e.PLAYGROUND_HOST,
    rateLimits: e.PLAYGROUND_RATE_LIMITS,
    socketMode: e.PLAYGROUND_SOCKET_MODE,
    logLevel: e.LOG_LEVEL,
    pollIntervalSeconds: e.POLL_INTERVAL_SECONDS,
    ...(e.LOG_FORMAT ? { logFormat: e.LOG_FORMAT } : {}),
  };
}

/** Rules that involve several variables; checked on the raw values so they are reported even beside other errors. */
function crossChecks(env: Env): Problem[] {
  const problems: Problem[] = [];
  if (!isSet(env.SLACK_BOT_TOKEN)) {
    problems.push({ variable: 'SLACK_BOT_TOKEN', message: noBotTokenMessage(env) });
  }
  if (!isSet(env.SLACK_APP_TOKEN) && !isSet(env.SLACK_SIGNING_SECRET)) {
    problems.push({
      variable: 'SLACK_SIGNING_SECRET',
      message:
        'SLACK_SIGNING_SECRET is not set; HTTP mode needs it to verify requests from Slack. ' +
        "Copy the Signing Secret from the Slack app's Basic Information page, or set SLACK_APP_TOKEN to use Socket Mode.",
    });
  }
  if (isSet(env.OUTREACH_BASE_URL) !== isSet(env.OUTREACH_API_KEY)) {
    const [set, unset] = isSet(env.OUTREACH_BASE_URL)
      ? ['OUTREACH_BASE_URL', 'OUTREACH_API_KEY']
      : ['OUTREACH_API_KEY', 'OUTREACH_BASE_URL'];
    problems.push({
      variable: unset,
      message: `${set} is set but ${unset} is not. Set both to use the live service, or unset both to run in sandbox mode.`,
    });
  }
  const live = isSet(env.OUTREACH_BASE_URL) && isSet(env.OUTREACH_API_KEY);
  const noAdmins = !listed(env.ADMIN_USER_IDS) && !isSet(env.ADMIN_USERGROUP_ID);
  const everyone = env.ALLOW_EVERYONE_TO_CHANGE?.trim().toLowerCase() === 'true';
  if (live && noAdmins && !everyone) {
    problems.push({ variable: 'ADMIN_USER_IDS', message: NO_ADMINS_MESSAGE });
  }
  if (everyone && !noAdmins) {
    problems.push({
      variable: 'ALLOW_EVERYONE_TO_CHANGE',
      message:
        'ALLOW_EVERYONE_TO_CHANGE=true contradicts ADMIN_USER_IDS / ADMIN_USERGROUP_ID, which name who may change. ' +
        'Unset ALLOW_EVERYONE_TO_CHANGE to keep the admins, or unset both admin variables to let everyone change.',
    });
  }
  const port = Number(env.PORT?.trim() || '3000');
  const metricsPort = Number(env.METRICS_PORT?.trim() || String(DEFAULT_METRICS_PORT));
  if (metricsPort === port && port !== 0) {
    problems.push({
      variable: 'METRICS_PORT',
      message:
        `METRICS_PORT${env.METRICS_PORT?.trim() ? '' : ` (unset: ${DEFAULT_METRICS_PORT})`} is the same as PORT (${port}). ` +
        "Set METRICS_PORT to another port: the operators' endpoints never share the port Slack reaches.",
    });
  }
  return problems;
}

const order = (variable: string) => VARIABLES.indexOf(variable as Variable);

interface Problem {
  variable: string;
  message: string;
}

/**
 * Reads and checks the configuration. Throws a `ConfigError` whose message names the first variable at fault (and
 * lists any others), without ever quoting a secret.
 */
export function loadConfig(env: Env = process.env): Config {
  const r = envSchema.safeParse(env);
  const problems: Problem[] = [
    ...crossChecks(env),
    ...(r.success ? [] : r.error.issues.map((i) => ({ variable: String(i.path[0] ?? ''), message: i.message }))),
  ];
  problems.sort((a, b) => order(a.variable) - order(b.variable));
  const [first, ...rest] = problems;
  if (first || !r.success) {
    const others = [...new Set(rest.map((p) => p.variable))].filter((v) => v !== first?.variable);
    const more = others.length ? ` (also to fix: ${others.join(', ')})` : '';
    throw new ConfigError(
      `${first?.message ?? 'Invalid configuration.'}${more}`,
      problems.map((p) => p.variable),
    );
  }
  const e = r.data;
  // Guaranteed by crossChecks; checked again for the type system.
  if (e.SLACK_BOT_TOKEN === undefined) throw new ConfigError('SLACK_BOT_TOKEN is not set.', ['SLACK_BOT_TOKEN']);
  const config: Record<string, unknown> = {
    outreach:
      e.OUTREACH_BASE_URL !== undefined && e.OUTREACH_API_KEY !== undefined
        ? { mode: 'live', baseUrl: e.OUTREACH_BASE_URL, apiKey: e.OUTREACH_API_KEY }
        : { mode: 'sandbox' },
  };
  for (const name of VARIABLES) {
    if (!SERVICE.includes(name) && e[name] !== undefined) config[key(name)] = e[name];
  }
  // What `Config` says by construction: one key per variable (`Key` is `key`), unset ones absent.
  return config as Config;
}

/** The value a Config holds for a variable (the service's two are inside `outreach`). */
function valueOf(config: Config, name: Variable): unknown {
  if (!SERVICE.includes(name)) return (config as Record<string, unknown>)[key(name)];
  if (config.outreach.mode === 'sandbox') return undefined;
  return name === 'OUTREACH_API_KEY' ? config.outreach.apiKey : config.outreach.baseUrl;
}

function docOf(schema: z.ZodType, name: string): SettingDoc {
  const doc = settingDocs.get(schema);
  if (!doc) throw new Error(`${name} has no SettingDoc`);
  return doc;
}

/** A variable as the README's table shows it, from its parser and its doc. */
export interface SettingDescription extends SettingDoc {
  name: string;
  /** What the parser gives when it is unset. */
  default: unknown;
  /** The whole numbers it accepts, when it is one. */
  range?: { min: number; max: number };
  /** Read by the playground only. */
  playground: boolean;
}

function described(shape: Record<string, z.ZodType>, playground: boolean): SettingDescription[] {
  return Object.entries(shape).map(([name, schema]) => {
    const range = wholeNumberRanges.get(schema);
    return { name, ...docOf(schema, name), default: schema.parse(undefined), ...(range ? { range } : {}), playground };
  });
}

/** Every variable, the app's then the playground's own, in the order of their parsers. */
export const SETTINGS: readonly SettingDescription[] = [
  ...described(envShape, false),
  ...described(playgroundShape, true),
];
const appSettings = SETTINGS.filter((s) => !s.playground);

/** The secret values of a config, for `redactSecrets` / `createLogger({ secrets })`. */
export function configSecrets(config: Config): string[] {
  const secrets = appSettings.filter((s) => s.secret).map((s) => valueOf(config, s.name as Variable));
  // The database password, wherever it shows up (a driver's error message may quote the URL).
  if (config.databaseUrl) secrets.push(decodeURIComponent(new URL(config.databaseUrl).password));
  return secrets.filter((s): s is string => typeof s === 'string' && s !== '');
}

/** The start-up summary: a value per variable, or a reading of several together; no secret in it. */
export type ConfigSummary = Record<string, unknown>;

const SET = 'set (hidden)';
const UNSET = 'not set';

/** host:port/database of a PostgreSQL URL, without user or password. */
function postgresWhere(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

const people = (ids: string[], group: string | undefined) => [...ids, ...(group ? [`group ${group}`] : [])].join(', ');
const admins = (c: Config) => people(c.adminUserIds, c.adminUsergroupId) || 'every full member of the workspace';

/** Lines of the summary that say what several variables mean together; each stands for the variables it covers. */
const READINGS: ReadonlyArray<{ name: string; covers: Variable[]; read: (c: Config) => unknown }> = [
  {
    name: 'metrics',
    covers: ['METRICS_HOST', 'METRICS_PORT'],
    read: (c) =>
      `${c.metricsHost}:${c.metricsPort}${c.metricsToken ? ', and on PORT with METRICS_TOKEN' : ', not on PORT'}`,
  },
  {
    name: 'outreach',
    covers: ['OUTREACH_BASE_URL', 'OUTREACH_API_KEY'],
    read: (c) => (c.outreach.mode === 'live' ? { ...c.outreach, apiKey: SET } : c.outreach),
  },
  {
    name: 'state',
    covers: ['STATE_DIR', 'DATABASE_URL'],
    read: (c) => (c.databaseUrl ? `PostgreSQL at ${postgresWhere(c.databaseUrl)}` : `embedded in ${c.stateDir}`),
  },
  { name: 'admins', covers: ['ADMIN_USER_IDS', 'ADMIN_USERGROUP_ID'], read: admins },
  {
    name: 'responders',
    covers: ['RESPONDER_USER_IDS', 'RESPONDER_USERGROUP_ID'],
    read: (c) => people(c.responderUserIds, c.responderUsergroupId) || `the admins (${admins(c)})`,
  },
  {
    name: 'uploadLimits',
    covers: ['UPLOAD_MAX_ROWS', 'UPLOAD_MAX_CELL_CHARS', 'UPLOAD_CONCURRENCY'],
    read: (c) =>
      `${c.uploadMaxRows} rows per file, ${c.uploadMaxCellChars} characters per cell, ${c.uploadConcurrency} at once`,
  },
  {
    name: 'fairUse',
    covers: ['PERSON_ACTIONS_PER_MINUTE', 'PERSON_ACTIONS_BURST'],
    read: (c) => `${c.personActionsPerMinute} commands/clicks per person per minute, ${c.personActionsBurst} at once`,
  },
];

/** A summary safe to log at start-up: what is configured, with every secret replaced by "set (hidden)". */
export function describeConfig(config: Config): ConfigSummary {
  const summary: ConfigSummary = { slackMode: config.slackAppToken ? 'socket' : 'http' };
  for (const setting of appSettings) {
    const name = setting.name as Variable;
    const reading = READINGS.find((r) => r.covers.includes(name));
    if (reading) {
      summary[reading.name] ??= reading.read(config);
      continue;
    }
    const value = valueOf(config, name);
    if (setting.secret) summary[key(name)] = value === undefined ? UNSET : SET;
    else summary[key(name)] = value ?? setting.unset ?? UNSET;
  }
  return summary;
}
