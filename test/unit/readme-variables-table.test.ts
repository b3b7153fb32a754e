/**
 * The README's table of environment variables is the schema's (src/config.ts `envShape`): the same variables in the
 * same order, each with the default its parser gives when unset and the description written beside the parser.
 */
import { readFileSync } from 'node:fs';
import { SETTINGS, type SettingDescription } from '../../src/config.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const HEADER = '| Variable | Default | Meaning |';

/** The README's rows under the table's header, as [name, default, meaning]. */
function readmeRows(): string[][] {
  const lines = README.split('\n');
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`README.md has no table starting with "${HEADER}"`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const number = (n: number) => (n >= 100_000 ? n.toLocaleString('en-US') : String(n));

/** The default as the table writes it: what unset means, or the parsed value in code. */
function shownDefault(s: SettingDescription): string {
  if (s.unset !== undefined) return s.unset;
  if (s.default === undefined) return 'unset';
  if (Array.isArray(s.default) && s.default.length === 0) return 'empty';
  return `\`${String(s.default)}\``;
}

function expectedRow(s: SettingDescription): string[] {
  const range = s.range ? ` (${number(s.range.min)}–${number(s.range.max)})` : '';
  return [`\`${s.name}\``, shownDefault(s), `${s.description}${range}`];
}

describe("the README's table of environment variables", () => {
  it('names every variable the app and the playground read, in the order of their parsers', () => {
    expect(readmeRows().map(([name]) => name)).toEqual(SETTINGS.map((s) => `\`${s.name}\``));
  });

  it('gives each the default its parser gives when it is unset', () => {
    expect(readmeRows().map(([name, shown]) => [name, shown])).toEqual(SETTINGS.map((s) => expectedRow(s).slice(0, 2)));
    // The parsers' own defaults, so the rule above is not read from the docs alone.
    const byName = new Map(readmeRows().map(([name, shown]) => [name, shown]));
    expect(byName.get('`PORT`')).toBe('`3000`');
    expect(byName.get('`UPLOAD_MAX_BYTES`')).toBe('`10485760`');
    expect(byName.get('`ADMIN_USER_IDS`')).toBe('empty');
  });

  it('says what each means as the schema does (rows to paste below when it fails)', () => {
    const rows = SETTINGS.map((s) => `| ${expectedRow(s).join(' | ')} |`);
    expect(readmeRows().map((cells) => `| ${cells.join(' | ')} |`)).toEqual(rows);
  });
});
