/**
 * Which column holds the phone, the name, the context and the external id, from the header row, in English or
 * Spanish. Matching ignores case, accents, punctuation and spacing (`Teléfono`, `TELEFONO`, `teléfono:` and
 * `Tel.` all match). For each target the FIRST matching column from the left wins; a second phone column, like
 * every other column, goes into `extracted_data`.
 */
import { FileFormatError } from './errors.js';

/** Header aliases per target, compared after `headerKey()`. */
const HEADER_ALIASES = {
  phone: [
    'phone',
    'phone number',
    'telefono',
    'tel',
    'celular',
    'cel',
    'movil',
    'numero',
    'whatsapp',
    'contact',
    'contacto',
    'mobile',
    'cell',
    // Longer spellings of the same, common in exports.
    'numero de telefono',
    'numero telefonico',
    'telefono celular',
    'telefono movil',
    'numero de celular',
    'numero celular',
    'mobile number',
    'mobile phone',
    'cell phone',
    'phone no',
    'whatsapp number',
  ],
  name: ['name', 'nombre', 'nombre completo', 'full name', 'cliente'],
  context: ['context', 'contexto', 'notas', 'notes', 'nota', 'comentarios'],
  fId: ['f id', 'id', 'external id', 'folio', 'id externo'],
} as const;

type HeaderTarget = keyof typeof HEADER_ALIASES;

/** Lowercase, accents dropped, every run of non-letters/digits a single space, trimmed: `Teléfono:` → `telefono`. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const TARGET_BY_KEY = new Map<string, HeaderTarget>();
for (const [target, aliases] of Object.entries(HEADER_ALIASES) as [HeaderTarget, readonly string[]][]) {
  for (const a of aliases) TARGET_BY_KEY.set(headerKey(a), target);
}

export interface HeaderMapping {
  ok: true;
  /** Header of the phone column. */
  phone: string;
  name?: string;
  context?: string;
  fId?: string;
  /** Every other header, in file order: their values go into `extracted_data`. */
  extra: string[];
}

export interface MissingPhoneColumn {
  ok: false;
  /** The headers found. */
  headers: string[];
  /** For the person who uploaded the file: lists the headers found and the names that work. */
  message: string;
  /** The first 30 headers, quoted, joined with ", " ('' when none). */
  listed: string;
  /** How many headers there are beyond those listed. */
  more: number;
}

export function mapHeaders(headers: readonly string[]): HeaderMapping | MissingPhoneColumn {
  const chosen: Partial<Record<HeaderTarget, string>> = {};
  const extra: string[] = [];
  for (const h of headers) {
    const target = TARGET_BY_KEY.get(headerKey(h));
    if (target && chosen[target] === undefined) chosen[target] = h;
    else extra.push(h);
  }
  if (chosen.phone === undefined) {
    // The first 30 names (each cut to 60 characters): a message is read by a person, not a list of 200 columns.
    const shown = headers.slice(0, 30).map((h) => `"${h.length > 60 ? `${h.slice(0, 60)}…` : h}"`);
    const listed = [...shown];
    if (headers.length > 30) listed.push(`and ${headers.length - 30} more`);
    const found = headers.length ? listed.join(', ') : '(none)';
    return {
      ok: false,
      headers: [...headers],
      listed: shown.join(', '),
      more: Math.max(0, headers.length - 30),
      message:
        `No phone column found. Columns in the file: ${found}. Name the column with the phone numbers ` +
        '"Teléfono", "Celular", "WhatsApp" or "Phone" (the first row must be the header row).',
    };
  }
  return {
    ok: true,
    phone: chosen.phone,
    ...(chosen.name !== undefined ? { name: chosen.name } : {}),
    ...(chosen.context !== undefined ? { context: chosen.context } : {}),
    ...(chosen.fId !== undefined ? { fId: chosen.fId } : {}),
    extra,
  };
}

/** `mapHeaders`, throwing the `FileFormatError` ('NO_PHONE_COLUMN') when there is no phone column. */
export function requirePhoneColumn(headers: readonly string[], fileName?: string): HeaderMapping {
  const m = mapHeaders(headers);
  if (!m.ok) {
    throw new FileFormatError('NO_PHONE_COLUMN', fileName ? `"${fileName}": ${m.message}` : m.message, {
      kind: 'noPhoneColumn',
      file: fileName ?? '',
      found: m.listed,
      more: m.more,
    });
  }
  return m;
}
