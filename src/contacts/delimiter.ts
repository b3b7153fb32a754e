/**
 * Which of `,` `;` tab `|` separates the fields, guessed from the first lines of the text.
 *
 * Each candidate is counted per line, outside quoted fields (a quote opens a field only at its start, so the inch
 * mark in `5" pantalla` is not taken for one; `""` inside quotes is an escaped quote). A candidate must appear in
 * the header line; among those, the one whose count on the other lines equals the header's most often wins, then
 * the one with more columns, then the order `,` `;` tab `|`. A sample without any candidate in its header is a
 * one-column file: the hint (tab for `.tsv`) or `,`.
 */
const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

const MAX_SAMPLE_LINES = 50;

/** Per logical line (quoted newlines do not end a line), how often each candidate occurs outside quotes. */
function countPerLine(sample: string, complete: boolean): number[][] {
  const lines: number[][] = [];
  let counts = [0, 0, 0, 0];
  let inQuotes = false;
  let atFieldStart = true;
  let lineHasContent = false;
  for (let i = 0; i < sample.length && lines.length < MAX_SAMPLE_LINES; i++) {
    const ch = sample[i];
    if (inQuotes) {
      if (ch === '"') {
        if (sample[i + 1] === '"') i++;
        else inQuotes = false;
      }
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      if (lineHasContent) lines.push(counts);
      counts = [0, 0, 0, 0];
      lineHasContent = false;
      atFieldStart = true;
      continue;
    }
    const d = DELIMITERS.indexOf(ch as Delimiter);
    if (d !== -1) {
      counts[d]!++;
      lineHasContent = true;
      atFieldStart = true;
      continue;
    }
    if (ch === ' ') continue; // spaces before an opening quote keep us at the field start
    lineHasContent = true;
    if (ch === '"' && atFieldStart) inQuotes = true;
    atFieldStart = false;
  }
  // The last line of an incomplete sample may be cut short: only count it at the end of the text.
  if (complete && lineHasContent && lines.length < MAX_SAMPLE_LINES) lines.push(counts);
  return lines;
}

export function detectDelimiter(sample: string, complete: boolean, hint?: string): Delimiter {
  const fallback: Delimiter = (DELIMITERS as readonly string[]).includes(hint ?? '') ? (hint as Delimiter) : ',';
  const lines = countPerLine(sample, complete);
  const header = lines[0];
  if (!header) return fallback;
  let best: Delimiter | undefined;
  let bestAgree = -1;
  let bestColumns = -1;
  DELIMITERS.forEach((d, i) => {
    const columns = header[i]!;
    if (columns === 0) return;
    let agree = 0;
    for (let l = 1; l < lines.length; l++) if (lines[l]![i] === columns) agree++;
    const agreeRatio = lines.length > 1 ? agree / (lines.length - 1) : 1;
    if (agreeRatio > bestAgree || (agreeRatio === bestAgree && columns > bestColumns)) {
      best = d;
      bestAgree = agreeRatio;
      bestColumns = columns;
    }
  });
  return best ?? fallback;
}
