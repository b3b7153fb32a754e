/**
 * A reader of Prometheus' text exposition format (version 0.0.4), enough to check what GET /metrics serves: every
 * sample line is parsed strictly (a malformed line fails the test), with its labels and value.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name -> type from `# TYPE`. */
  types: Map<string, string>;
  help: Map<string, string>;
  /** Sum of the samples named `name` whose labels include `labels` (0 when none). */
  sum(name: string, labels?: Record<string, string>): number;
  /** The samples named `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const n = Number(text);
  if (text === '' || Number.isNaN(n)) throw new Error(`bad sample value in: ${line}`);
  return n;
}

function parseSample(line: string): Sample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new Error(`bad metric name in: ${line}`);
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const label = LABEL_NAME.exec(rest)?.[0];
      if (!label || rest[label.length] !== '=' || rest[label.length + 1] !== '"') {
        throw new Error(`bad label in: ${line}`);
      }
      rest = rest.slice(label.length + 2);
      let value = '';
      for (;;) {
        const c = rest[0];
        if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
        rest = rest.slice(1);
        if (c === '"') break;
        if (c === '\\') {
          const e = rest[0];
          rest = rest.slice(1);
          value += e === 'n' ? '\n' : (e ?? '');
        } else value += c;
      }
      labels[label] = value;
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) throw new Error(`bad label list in: ${line}`);
    }
    rest = rest.slice(1);
  }
  const parts = rest.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 2) throw new Error(`bad sample in: ${line}`);
  return { name, labels, value: parseValue(parts[0]!, line) };
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (m?.[1] === 'TYPE') types.set(m[2]!, m[3]!);
      else if (m?.[1] === 'HELP') help.set(m[2]!, m[3]!);
      continue;
    }
    samples.push(parseSample(line));
  }
  const matches = (s: Sample, name: string, labels: Record<string, string>) =>
    s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  const find = (name: string, labels: Record<string, string> = {}) => samples.filter((s) => matches(s, name, labels));
  return {
    samples,
    types,
    help,
    find,
    sum: (name, labels = {}) => find(name, labels).reduce((a, s) => a + s.value, 0),
  };
}
