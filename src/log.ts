/**
 * Logging: pino on stdout, as JSON lines, or pretty (coloured, one line per event) for a person at a terminal.
 * Secrets are kept out twice over: fields with secret-looking names are redacted by path, and the finished line is
 * scrubbed of the known secret values and of anything shaped like a Slack token or a bearer credential (an error
 * message or URL can carry one in free text). The pretty form is made from that scrubbed line, in the same thread
 * (pino-pretty's formatter, not a worker-thread transport, which would bypass the scrubbing hook), and is scrubbed
 * once more after formatting.
 */
import { pino, type DestinationStream, type LevelWithSilent } from 'pino';
import { prettyFactory } from 'pino-pretty';

interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

/** What the rest of the app needs from a logger; a pino logger satisfies it. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

export const REDACTED = '[redacted]';

const SECRET_KEYS = [
  'token',
  'botToken',
  'appToken',
  'slackBotToken',
  'slackAppToken',
  'slackSigningSecret',
  'signingSecret',
  'signing_secret',
  'apiKey',
  'api_key',
  'authorization',
  'Authorization',
  'password',
  'secret',
  'clientSecret',
  'client_secret',
  'x-api-key',
];

/** Redaction paths: each secret key at the top level and up to three levels down (pino's `*` matches one level). */
const REDACT_PATHS: string[] = SECRET_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const under = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, under('*'), under('*.*'), under('*.*.*')];
});

/** Slack tokens (bot, user, app-level, refresh, config) and `Bearer …` credentials, wherever they appear. */
const TOKEN_PATTERN = /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]+/g;
const BEARER_PATTERN = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** Shortest value treated as a secret; shorter ones would wipe ordinary words from the text. */
const MIN_SECRET_LENGTH = 6;

/**
 * Replaces every occurrence of the given secret values (and anything that looks like a Slack token or a bearer
 * credential) in `text` with "[redacted]". Values shorter than 6 characters are ignored. JSON-escaped forms of the
 * secrets are replaced too, so a log line that carries one inside a JSON string is scrubbed as well.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    out = out.split(form).join(REDACTED);
  }
  return out.replace(TOKEN_PATTERN, REDACTED).replace(BEARER_PATTERN, `$1 ${REDACTED}`);
}

export interface LoggerOptions {
  /** Secret values to scrub from every line (use `configSecrets(config)`). */
  secrets?: readonly (string | undefined)[];
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
  /** Fields on every line. */
  base?: Record<string, unknown>;
  /**
   * `json` or `pretty`. Default: pretty when writing to stdout and stdout is a terminal, JSON otherwise (and always
   * JSON into a given `destination`, unless asked).
   */
  format?: 'pretty' | 'json';
  /** Pretty only: colours. Default: when the terminal supports them (NO_COLOR / FORCE_COLOR are honoured). */
  colorize?: boolean;
}

/** Which format `createLogger` uses for these options. */
export function resolveLogFormat(options: Pick<LoggerOptions, 'format' | 'destination'>): 'pretty' | 'json' {
  if (options.format) return options.format;
  return !options.destination && process.stdout.isTTY ? 'pretty' : 'json';
}

/**
 * A destination that turns each (already scrubbed) JSON line into one readable line and writes it synchronously,
 * like the JSON destination does.
 */
function prettyDestination(
  out: DestinationStream,
  secrets: readonly (string | undefined)[],
  colorize: boolean | undefined,
): DestinationStream {
  const pretty = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // pino-pretty prints error-like keys (err, error) on lines of their own; here they stay on the event's line.
    errorLikeObjectKeys: [],
    ...(colorize !== undefined ? { colorize } : {}),
  });
  return {
    write(line: string) {
      out.write(redactSecrets(pretty(line), secrets));
    },
  };
}

export function createLogger(level: LevelWithSilent = 'info', options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  const out = options.destination ?? pino.destination(1);
  const destination = resolveLogFormat(options) === 'pretty' ? prettyDestination(out, secrets, options.colorize) : out;
  return pino(
    {
      level,
      ...(options.base ? { base: options.base } : {}),
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: { streamWrite: (line) => redactSecrets(line, secrets) },
    },
    destination,
  );
}
