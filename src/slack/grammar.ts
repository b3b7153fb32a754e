/**
 * The `/campaign` grammar: text -> a typed request, or a problem (a catalog key and its values, worded in the
 * person's language by `problemText`); and the usage lines that describe it. Pure: no Slack, no service.
 *
 * Every subcommand and every word it takes is read in English and in Spanish, whoever types it (`lista activa
 * whatsapp` = `list active whatsapp`); accents and case do not matter. A new subcommand: its kind, its name in
 * SUBCOMMANDS and its Spanish alias in SPANISH_ALIASES, its case in parseCommandText and its usage keys in both
 * catalogs (`usage.<name>.syntax`/`.meaning`) and in USAGE_KEYS, its row in src/slack/routes.ts, its handler in its
 * feature's listeners.
 */
import type { LanguageSetting, Locale } from '../i18n/locale.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import {
  CALL_LIST_FILTER_STATUSES,
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  CONTACT_STATUSES,
  type CallListFilterStatus,
  type CampaignStatus,
  type ChannelType,
  type ContactStatus,
  type LifecycleAction,
} from '../outreach/schemas.js';
import { commandUsageMessage } from '../render/feedback.js';
import { tmd } from '../render/text.js';
import type { SlackMessage } from '../render/types.js';

export interface ChannelRef {
  id: string;
  name?: string;
  /** Typed by hand as a bare id (`C0123ABCD`), not picked from Slack's list: nothing says it is a real channel. */
  typed?: true;
}

export type CampaignCommand =
  | { kind: 'help' }
  | { kind: 'list'; status?: CampaignStatus; channel?: ChannelType; archived: boolean }
  | { kind: 'show'; id: number }
  | { kind: 'lifecycle'; action: LifecycleAction; id: number }
  | { kind: 'contacts'; id: number; status?: ContactStatus }
  | { kind: 'calls'; id: number; status?: CallListFilterStatus }
  | { kind: 'create' }
  | { kind: 'edit'; id: number }
  | { kind: 'upload'; id: number }
  | {
      kind: 'watch';
      id: number;
      channel?: ChannelRef;
      /** Settings typed after the id and channel (`compact`, `only:ended,busy`, `human`); none: today's watch. */
      options?: TypedWatchOptions;
      /** `settings` / `ajustes`: open the Watch settings form instead. */
      openSettings?: true;
    }
  | { kind: 'unwatch'; id: number; channel?: ChannelRef }
  | { kind: 'watching' }
  | { kind: 'try'; agentId?: string }
  /** No setting: say which language is in use. */
  | { kind: 'lang'; setting?: LanguageSetting }
  | { kind: 'report'; id: number }
  | ReportScheduleCommand
  | { kind: 'reportOff'; id: number; channel?: ChannelRef }
  | { kind: 'reports' };

/** `report <id> daily HH:MM [#channel]` / `report <id> weekly <day> HH:MM [#channel]`. */
interface ReportScheduleCommand {
  kind: 'reportSchedule';
  id: number;
  frequency: 'daily' | 'weekly';
  /** Weekly: 0 = Sunday … 6 = Saturday. */
  weekday?: number;
  /** `HH:MM`, 24 hours. */
  time: string;
  channel?: ChannelRef;
}

/** The common watch settings, as typed (src/watch/filter.ts holds all of them; the form sets the rest). */
export interface TypedWatchOptions {
  format?: 'compact' | 'detailed';
  /** `only:<outcome>,…`: the outcomes shown (the service's names). */
  outcomes?: CallListFilterStatus[];
  /** `human`: only calls a person answered. */
  human?: true;
}

export const SUBCOMMANDS = [
  'help',
  'list',
  'show',
  'create',
  'edit',
  'activate',
  'pause',
  'resume',
  'archive',
  'contacts',
  'calls',
  'upload',
  'watch',
  'unwatch',
  'watching',
  'try',
  'lang',
  'report',
  'reports',
] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** The Spanish name of every subcommand (shown by the Spanish help). */
export const SPANISH_ALIASES: Readonly<Record<string, Subcommand>> = {
  ayuda: 'help',
  lista: 'list',
  ver: 'show',
  crear: 'create',
  editar: 'edit',
  activar: 'activate',
  pausar: 'pause',
  reanudar: 'resume',
  archivar: 'archive',
  contactos: 'contacts',
  llamadas: 'calls',
  subir: 'upload',
  seguir: 'watch',
  dejar: 'unwatch',
  siguiendo: 'watching',
  probar: 'try',
  idioma: 'lang',
  reporte: 'report',
  reportes: 'reports',
};

/** The usage, one line per subcommand, in the order of the help. */
const USAGE_KEYS: readonly (readonly [syntax: MessageKey, meaning: MessageKey])[] = [
  ['usage.help.syntax', 'usage.help.meaning'],
  ['usage.list.syntax', 'usage.list.meaning'],
  ['usage.show.syntax', 'usage.show.meaning'],
  ['usage.activate.syntax', 'usage.activate.meaning'],
  ['usage.pause.syntax', 'usage.pause.meaning'],
  ['usage.resume.syntax', 'usage.resume.meaning'],
  ['usage.archive.syntax', 'usage.archive.meaning'],
  ['usage.contacts.syntax', 'usage.contacts.meaning'],
  ['usage.calls.syntax', 'usage.calls.meaning'],
  ['usage.create.syntax', 'usage.create.meaning'],
  ['usage.edit.syntax', 'usage.edit.meaning'],
  ['usage.upload.syntax', 'usage.upload.meaning'],
  ['usage.watch.syntax', 'usage.watch.meaning'],
  ['usage.unwatch.syntax', 'usage.unwatch.meaning'],
  ['usage.watching.syntax', 'usage.watching.meaning'],
  ['usage.try.syntax', 'usage.try.meaning'],
  ['usage.lang.syntax', 'usage.lang.meaning'],
  ['usage.report.syntax', 'usage.report.meaning'],
  ['usage.reports.syntax', 'usage.reports.meaning'],
];

/**
 * The words each value is read from, besides its English name (lower case, without accents: input is compared
 * that way). The first Spanish word is the one Spanish messages show.
 */
const CAMPAIGN_STATUS_WORDS: Record<CampaignStatus, readonly string[]> = {
  pending: ['pendiente', 'pendientes'],
  ready: ['lista', 'listas'],
  active: ['activa', 'activas'],
  inactive: ['inactiva', 'inactivas', 'pausada', 'pausadas'],
  cooldown: ['reposo', 'enreposo', 'en-reposo'],
  finished: ['finalizada', 'finalizadas', 'terminada', 'terminadas', 'completada', 'completadas'],
};
const CHANNEL_WORDS: Record<ChannelType, readonly string[]> = {
  phone_call: ['telefono', 'llamada', 'llamadas'],
  whatsapp: [],
};
const ARCHIVED_WORDS = ['archivadas', 'archivada', 'archivados', 'archivado'];
const CONTACT_STATUS_WORDS: Record<ContactStatus, readonly string[]> = {
  queue: ['en-cola', 'cola', 'encola'],
  sending: ['enviando'],
  sent: ['enviado', 'enviados'],
  delivered: ['entregado', 'entregados'],
  voicemail: ['buzon', 'buzon-de-voz'],
  read: ['leido', 'leidos'],
  failed: ['fallido', 'fallidos'],
  retrying: ['reintentando'],
  converted: ['convertido', 'convertidos'],
  answered: ['contestado', 'contestados'],
  accepted: ['aceptado', 'aceptados'],
  rejected: ['rechazado', 'rechazados'],
};
const CALL_STATUS_WORDS: Record<CallListFilterStatus, readonly string[]> = {
  ended: ['terminada', 'terminadas', 'finalizada', 'finalizadas'],
  failed: ['fallida', 'fallidas'],
  busy: ['ocupado', 'ocupada', 'ocupadas'],
  'no-answer': ['sin-respuesta', 'sinrespuesta', 'no-contesta', 'nocontesta'],
  'in-progress': ['en-curso', 'encurso'],
};
/** The words of `/campaign watch` options (besides the channel): English first, then Spanish. */
const WATCH_OPTION_WORDS = {
  compact: ['compact', 'compacto'],
  detailed: ['detailed', 'detallado'],
  human: ['human', 'humano', 'humanos'],
  settings: ['settings', 'ajustes'],
  only: ['only', 'solo'],
} as const;
const LANGUAGE_WORDS: Record<LanguageSetting, readonly string[]> = {
  en: ['english', 'ingles'],
  es: ['spanish', 'espanol'],
  auto: ['automatico'],
};

/** Report schedules: how often, the days of the week (cron's numbers: 0 = Sunday), and turning one off. */
const FREQUENCY_WORDS: Record<'daily' | 'weekly' | 'off', readonly string[]> = {
  daily: ['diario', 'diaria', 'diariamente'],
  weekly: ['semanal', 'semanalmente'],
  off: ['apagar', 'desactivar', 'no'],
};
const WEEKDAY_WORDS: Record<'0' | '1' | '2' | '3' | '4' | '5' | '6', readonly string[]> = {
  0: ['sunday', 'sun', 'domingo', 'dom'],
  1: ['monday', 'mon', 'lunes', 'lun'],
  2: ['tuesday', 'tue', 'martes', 'mar'],
  3: ['wednesday', 'wed', 'miercoles', 'mie'],
  4: ['thursday', 'thu', 'jueves', 'jue'],
  5: ['friday', 'fri', 'viernes', 'vie'],
  6: ['saturday', 'sat', 'sabado', 'sab'],
};

/** `9:00`, `09:00`, `17:30` → `HH:MM`; undefined when not a time of day. */
function parseTime(raw: string): string | undefined {
  const m = /^([01]?\d|2[0-3])[:.h]([0-5]\d)$/.exec(raw);
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : undefined;
}

function parseReport(sub: string, args: string[]): ParseResult {
  const id = parseCampaignId(args[0], sub);
  if (typeof id !== 'number') return id;
  if (args.length === 1) return ok({ kind: 'report', id });
  const frequency = wordOf(FREQUENCY_WORDS, args[1]!);
  if (!frequency) return fail('grammar.reportForm', { sub });
  let rest = args.slice(2);
  let weekday: number | undefined;
  if (frequency === 'weekly') {
    if (rest[0] === undefined) return fail('grammar.reportForm', { sub });
    const day = Object.entries(WEEKDAY_WORDS).find(([, words]) => words.includes(normalizeWord(rest[0]!)));
    if (!day) return fail('grammar.notADay', { raw: shown(rest[0]) });
    weekday = Number(day[0]);
    rest = rest.slice(1);
  }
  let time: string | undefined;
  if (frequency !== 'off') {
    if (rest[0] === undefined) return fail('grammar.reportForm', { sub });
    time = parseTime(rest[0]);
    if (!time) return fail('grammar.notATime', { raw: shown(rest[0]) });
    rest = rest.slice(1);
  }
  if (rest.length > 1) return fail('grammar.reportForm', { sub });
  let channel: ChannelRef | undefined;
  if (rest[0] !== undefined) {
    const parsed = parseChannel(rest[0]);
    if ('ok' in parsed) return parsed;
    channel = parsed;
  }
  const where = channel ? { channel } : {};
  if (frequency === 'off') return ok({ kind: 'reportOff', id, ...where });
  return ok({
    kind: 'reportSchedule',
    id,
    frequency,
    ...(weekday !== undefined ? { weekday } : {}),
    time: time!,
    ...where,
  });
}

/** Lower case, accents off: `Teléfono` → `telefono`. */
function normalizeWord(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function wordOf<T extends string>(words: Record<T, readonly string[]>, raw: string): T | undefined {
  const w = normalizeWord(raw);
  for (const [value, spanish] of Object.entries(words) as [T, readonly string[]][]) {
    if (w === value || spanish.includes(w)) return value;
  }
  return undefined;
}

/** The words a message in `locale` lists for a set of values: English names, or the first Spanish word of each. */
function wordsIn<T extends string>(locale: Locale, values: readonly T[], words: Record<T, readonly string[]>): string {
  return values.map((v) => (locale === 'es' ? (words[v][0] ?? v) : v)).join(', ');
}

/** A command that could not be read: what is wrong, as a catalog message (see `problemText`). */
export interface CommandProblem {
  key: MessageKey;
  /** Outside text (what the person typed), escaped when worded. */
  values?: Record<string, string>;
}

export type ParseResult = { ok: true; command: CampaignCommand } | { ok: false; problem: CommandProblem };

/** The problem in the person's language (mrkdwn), with the lists of words it names in that language. */
export function problemText(t: Translator, problem: CommandProblem): string {
  return tmd(t, problem.key, { ...listsIn(t.locale), ...problem.values });
}

function listsIn(locale: Locale): Record<string, string> {
  return {
    statuses: wordsIn(locale, CAMPAIGN_STATUSES, CAMPAIGN_STATUS_WORDS),
    channels: wordsIn(locale, CHANNEL_TYPES, CHANNEL_WORDS),
    archived: locale === 'es' ? ARCHIVED_WORDS[0]! : 'archived',
    contactStatuses: wordsIn(locale, CONTACT_STATUSES, CONTACT_STATUS_WORDS),
    callStatuses: wordsIn(locale, CALL_LIST_FILTER_STATUSES, CALL_STATUS_WORDS),
    outcomes: wordsIn(locale, CALL_LIST_FILTER_STATUSES, CALL_STATUS_WORDS),
  };
}

/** The `/campaign` usage in the person's language, after "⚠️ <problem>" when a command could not be read. */
export function usageMessage(t: Translator, problem?: CommandProblem): SlackMessage {
  const lists = listsIn(t.locale);
  const lines = USAGE_KEYS.map(([syntax, meaning]) => ({ syntax: t.t(syntax), meaning: tmd(t, meaning, lists) }));
  return commandUsageMessage(lines, t, problem ? problemText(t, problem) : undefined);
}

/** An agent id as `/campaign try` and the Try button accept it. */
export const AGENT_ID = /^[A-Za-z0-9-]{1,64}$/;

const fail = (key: MessageKey, values: Record<string, string> = {}): ParseResult => ({
  ok: false,
  problem: { key, values },
});
const ok = (command: CampaignCommand): ParseResult => ({ ok: true, command });
const shown = (raw: string, max = 40) => raw.slice(0, max);

/** Campaign ids are positive integers; `#12` is accepted too since people copy it from our messages. */
function parseCampaignId(raw: string | undefined, sub: string): number | ParseResult {
  if (raw === undefined || raw === '') return fail('grammar.needsId', { sub });
  const m = /^#?(\d{1,15})$/.exec(raw);
  if (!m) return fail('grammar.notAnId', { raw: shown(raw), sub });
  const id = Number(m[1]);
  if (!Number.isSafeInteger(id) || id <= 0) return fail('grammar.badId', { raw: shown(raw) });
  return id;
}

/**
 * A channel argument: with `should_escape: true` Slack sends `<#C123|name>` (or `<#C123>`); a raw `#name` cannot be
 * resolved without an extra API call, so we ask the person to pick it from Slack's autocomplete.
 */
function parseChannel(raw: string): ChannelRef | ParseResult {
  const m = /^<#([CG][A-Z0-9]+)(?:\|([^>]*))?>$/.exec(raw);
  if (m) return { id: m[1]!, ...(m[2] ? { name: m[2] } : {}) };
  if (/^[CG][A-Z0-9]{6,}$/.test(raw)) return { id: raw, typed: true };
  return fail('grammar.notAChannel', { raw: shown(raw, 80) });
}

/** The subcommand a word names, in English or Spanish. */
function subcommandOf(word: string): Subcommand | undefined {
  const w = normalizeWord(word);
  return (SUBCOMMANDS as readonly string[]).includes(w) ? (w as Subcommand) : SPANISH_ALIASES[w];
}

const isWord = (w: string, words: readonly string[]) => words.includes(w);

/**
 * `/campaign watch <id> [#channel] [compact|detailed] [only:<outcome>,…] [human] [settings]`, the options in any
 * order after the id, in English or Spanish.
 */
function parseWatch(args: string[], sub: string): ParseResult {
  const id = parseCampaignId(args[0], sub);
  if (typeof id !== 'number') return id;
  const cmd: Extract<CampaignCommand, { kind: 'watch' }> = { kind: 'watch', id };
  const options: TypedWatchOptions = {};
  for (const a of args.slice(1)) {
    const w = normalizeWord(a);
    const colon = w.indexOf(':');
    const head = colon < 0 ? w : w.slice(0, colon);
    if (isWord(w, WATCH_OPTION_WORDS.compact)) options.format = 'compact';
    else if (isWord(w, WATCH_OPTION_WORDS.detailed)) options.format = 'detailed';
    else if (isWord(w, WATCH_OPTION_WORDS.human)) options.human = true;
    else if (isWord(w, WATCH_OPTION_WORDS.settings)) cmd.openSettings = true;
    else if (colon > 0 && isWord(head, WATCH_OPTION_WORDS.only)) {
      const outcomes: CallListFilterStatus[] = [];
      for (const o of w
        .slice(colon + 1)
        .split(',')
        .filter(Boolean)) {
        const outcome = wordOf(CALL_STATUS_WORDS, o);
        if (!outcome) return fail('grammar.notAWatchOutcome', { raw: shown(o) });
        if (!outcomes.includes(outcome)) outcomes.push(outcome);
      }
      if (!outcomes.length) return fail('grammar.notAWatchOutcome', { raw: shown(a) });
      options.outcomes = outcomes;
    } else if (!cmd.channel && (a.startsWith('<') || a.startsWith('#') || /^[CG][A-Z0-9]{6,}$/.test(a))) {
      const channel = parseChannel(a);
      if ('ok' in channel) return channel;
      cmd.channel = channel;
    } else return fail('grammar.watchOption', { raw: shown(a) });
  }
  if (Object.keys(options).length) cmd.options = options;
  return ok(cmd);
}

/** `list [status] [channel] [archived]`: each filter at most once, in any order. */
function parseList(args: string[]): ParseResult {
  const cmd: Extract<CampaignCommand, { kind: 'list' }> = { kind: 'list', archived: false };
  for (const a of args) {
    const status = wordOf(CAMPAIGN_STATUS_WORDS, a);
    const channel = wordOf(CHANNEL_WORDS, a);
    const archived = normalizeWord(a) === 'archived' || ARCHIVED_WORDS.includes(normalizeWord(a));
    if (status && !cmd.status) cmd.status = status;
    else if (channel && !cmd.channel) cmd.channel = channel;
    else if (archived && !cmd.archived) cmd.archived = true;
    else return fail('grammar.notAListFilter', { raw: shown(a.toLowerCase()) });
  }
  return ok(cmd);
}

/** `<sub> <id>`: show, edit, upload and the lifecycle moves. */
function parseOneId(name: 'show' | 'edit' | 'upload' | LifecycleAction, args: string[], sub: string): ParseResult {
  if (args.length > 1) return fail('grammar.oneId', { sub });
  const id = parseCampaignId(args[0], sub);
  if (typeof id !== 'number') return id;
  if (name === 'show' || name === 'edit' || name === 'upload') return ok({ kind: name, id });
  return ok({ kind: 'lifecycle', action: name, id });
}

/** `contacts|calls <id> [status]`: the status in the words of that list. */
function parseStatusPage(name: 'contacts' | 'calls', args: string[], sub: string): ParseResult {
  if (args.length > 2) return fail('grammar.idAndStatus', { sub });
  const id = parseCampaignId(args[0], sub);
  if (typeof id !== 'number') return id;
  const raw = args[1];
  if (raw === undefined) return ok({ kind: name, id });
  const problem = { raw: shown(raw.toLowerCase()) };
  if (name === 'contacts') {
    const status = wordOf(CONTACT_STATUS_WORDS, raw);
    return status ? ok({ kind: name, id, status }) : fail('grammar.notAContactStatus', problem);
  }
  const status = wordOf(CALL_STATUS_WORDS, raw);
  return status ? ok({ kind: name, id, status }) : fail('grammar.notACallStatus', problem);
}

/** `unwatch <id> [#channel]`. */
function parseUnwatch(args: string[], sub: string): ParseResult {
  if (args.length > 2) return fail('grammar.idAndChannel', { sub });
  const id = parseCampaignId(args[0], sub);
  if (typeof id !== 'number') return id;
  if (args[1] === undefined) return ok({ kind: 'unwatch', id });
  const channel = parseChannel(args[1]);
  if ('ok' in channel) return channel;
  return ok({ kind: 'unwatch', id, channel });
}

/** `try [agent id]`. */
function parseTry(args: string[], sub: string): ParseResult {
  const agentId = args[0];
  if (args.length > 1) return fail('grammar.tryOneAgent', { sub });
  if (agentId === undefined) return ok({ kind: 'try' });
  if (!AGENT_ID.test(agentId)) return fail('grammar.notAnAgentId', { raw: shown(agentId) });
  return ok({ kind: 'try', agentId });
}

/** `lang [es|en|auto]`. */
function parseLang(args: string[]): ParseResult {
  if (args.length === 0) return ok({ kind: 'lang' });
  const setting = args.length === 1 ? wordOf(LANGUAGE_WORDS, args[0]!) : undefined;
  if (!setting) return fail('grammar.langChoice', { raw: shown(args.join(' ')) });
  return ok({ kind: 'lang', setting });
}

/** A subcommand that takes no arguments. */
function bare(command: CampaignCommand, args: string[], sub: string, key: MessageKey = 'grammar.noArguments') {
  return args.length ? fail(key, { sub }) : ok(command);
}

export function parseCommandText(text: string): ParseResult {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  // `sub` is the word as typed (problems quote it, so a Spanish speaker reads their own word back).
  const sub = (tokens[0] ?? 'help').toLowerCase();
  const args = tokens.slice(1);
  const name = subcommandOf(sub);

  switch (name) {
    case 'help':
      return ok({ kind: 'help' });
    case 'list':
      return parseList(args);
    case 'show':
    case 'edit':
    case 'upload':
    case 'activate':
    case 'pause':
    case 'resume':
    case 'archive':
      return parseOneId(name, args, sub);
    case 'contacts':
    case 'calls':
      return parseStatusPage(name, args, sub);
    case 'create':
      return bare({ kind: 'create' }, args, sub, 'grammar.createNoArguments');
    case 'watching':
      return bare({ kind: 'watching' }, args, sub);
    case 'watch':
      return parseWatch(args, sub);
    case 'unwatch':
      return parseUnwatch(args, sub);
    case 'try':
      return parseTry(args, sub);
    case 'lang':
      return parseLang(args);
    case 'report':
      return parseReport(sub, args);
    case 'reports':
      return bare({ kind: 'reports' }, args, sub);
    default:
      return fail('grammar.unknownSubcommand', { raw: shown(sub) });
  }
}
