/**
 * Contacts pipeline throughput: a 100,000-row CSV (Spanish headers, Mexican numbers in local formats, some
 * invalid, some repeated) streamed from disk through readTable → normalizeRows → batch. Prints rows/s (target
 * ≥ 100,000) and peak RSS, plus the phone step alone against libphonenumber-js's own parse + isValid(), which is
 * what the compiled-pattern validation in src/contacts/phone.ts is measured against.
 *
 *   npm run bench -- parse          (ROWS=500000 npm run bench -- parse for a bigger file)
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { batch, normalizePhone, onlyContacts, openContactFile } from '../src/contacts/index.js';
import { normalizePhoneWithoutShortcut } from '../src/contacts/phone.js';
import { seededRandom } from '../test/support/seeded-random.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const AREA_CODES = ['55', '33', '81', '222', '442', '999', '664', '477', '618', '961'];
const FIRST = ['José', 'María', 'Juan', 'Guadalupe', 'Francisco', 'Ana', 'Luis', 'Sofía', 'Jesús', 'Ximena'];
const LAST = ['Hernández', 'García', 'Martínez', 'López', 'González', 'Pérez', 'Rodríguez', 'Sánchez', 'Muñoz'];

function localNumber(rand: () => number): string {
  const area = AREA_CODES[Math.floor(rand() * AREA_CODES.length)]!;
  const rest = String(Math.floor(rand() * 10 ** (10 - area.length))).padStart(10 - area.length, '0');
  const digits = area + rest;
  const style = rand();
  if (style < 0.35) return `${area} ${rest.slice(0, 4)} ${rest.slice(4)}`;
  if (style < 0.55) return `(${area}) ${rest.slice(0, 4)}-${rest.slice(4)}`;
  if (style < 0.7) return digits;
  if (style < 0.8) return `+52 1 ${area} ${rest}`;
  if (style < 0.87) return `044 ${digits}`;
  if (style < 0.95) return `+52${digits}`;
  if (style < 0.98) return digits.slice(0, 8); // too short
  return '';
}

async function writeCsv(path: string, rows: number): Promise<void> {
  const rand = seededRandom(42);
  const out = createWriteStream(path);
  const numbers: string[] = [];
  let lines: string[] = ['Nombre,Teléfono,Notas,Folio,Ciudad'];
  for (let i = 0; i < rows; i++) {
    // About 2% repeat an earlier number.
    const phone = i > 100 && rand() < 0.02 ? numbers[Math.floor(rand() * numbers.length)]! : localNumber(rand);
    if (numbers.length < 5000) numbers.push(phone);
    const name = `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`;
    const notes = i % 7 === 0 ? '"Llamar por la tarde, después de las 5"' : 'Cliente frecuente';
    lines.push(`${name},${phone},${notes},F-${100000 + i},Ciudad de México`);
    if (lines.length === 2000) {
      if (!out.write(lines.join('\n') + '\n')) await once(out, 'drain');
      lines = [];
    }
  }
  out.end(lines.length ? lines.join('\n') + '\n' : '');
  await once(out, 'finish');
}

const RUNS = 3;

function rate(n: number, ms: number): string {
  return Math.round((n / ms) * 1000)
    .toLocaleString('en-US')
    .padStart(8);
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'parse-bench-'));
  const path = join(dir, 'contactos.csv');
  try {
    await writeCsv(path, ROWS);
    const size = (await stat(path)).size;
    const rssBefore = process.memoryUsage().rss;
    console.log(`file: ${ROWS} rows, ${mib(size)}`);

    // Run 1 is cold (as an upload in a fresh process is); runs 2-3 show the steady state. CPU time is printed
    // too: on a shared machine wall time also counts other processes.
    for (let run = 1; run <= RUNS; run++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const file = await openContactFile(createReadStream(path), { fileName: 'contactos.csv', defaultCountry: 'MX' });
      let contacts = 0;
      let rejected = 0;
      let batches = 0;
      for await (const b of batch(onlyContacts(file.rows, () => rejected++))) {
        batches++;
        contacts += b.contacts.length;
      }
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const rows = contacts + rejected;
      if (run === 1) {
        console.log(
          `pipeline: ${rows} rows -> ${contacts} contacts in ${batches} batches + ${rejected} rejected ` +
            `(delimiter ${JSON.stringify(file.table.delimiter)}, ${file.table.encoding})`,
        );
      }
      console.log(
        `  run ${run}${run === 1 ? ' (cold)' : '       '}: ${ms.toFixed(0).padStart(5)} ms wall = ${rate(rows, ms)} rows/s; ` +
          `${cpuMs.toFixed(0).padStart(5)} ms CPU = ${rate(rows, cpuMs)} rows per CPU-second`,
      );
    }
    // The floor under the pipeline: csv-parse alone over the same file, with the options csvRecords uses.
    {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let records = 0;
      const parser = createReadStream(path).pipe(
        parse({ relax_column_count: true, relax_quotes: true, trim: true, record_delimiter: ['\r\n', '\n', '\r'] }),
      );
      for await (const _record of parser) records++;
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      console.log(
        `  csv-parse alone : ${ms.toFixed(0).padStart(5)} ms wall = ${rate(records, ms)} rows/s; ` +
          `${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(5)} ms CPU`,
      );
    }
    const peakRss = process.resourceUsage().maxRSS * 1024;
    console.log(`  target >= 100,000 rows/s; peak RSS ${mib(peakRss)} (RSS before parsing ${mib(rssBefore)})`);

    // The phone step alone, ours against the library's own validity check, on the same kind of numbers.
    const rand = seededRandom(7);
    const sample = Array.from({ length: 100_000 }, () => localNumber(rand));
    for (let round = 0; round < 2; round++) {
      let t = performance.now();
      let ok = 0;
      for (const s of sample) if (normalizePhone(s, 'MX').ok) ok++;
      const ours = performance.now() - t;
      t = performance.now();
      let ok2 = 0;
      for (const s of sample)
        if (parsePhoneNumberFromString(s, { defaultCountry: 'MX', extract: false })?.isValid()) ok2++;
      const lib = performance.now() - t;
      t = performance.now();
      let ok3 = 0;
      for (const s of sample) if (normalizePhoneWithoutShortcut(s, 'MX').ok) ok3++;
      const slow = performance.now() - t;
      if (round === 1) {
        console.log(`phone step alone, same kind of numbers:`);
        console.log(`  normalizePhone:                          ${rate(sample.length, ours)} numbers/s (${ok} valid)`);
        console.log(`  normalizePhoneWithoutShortcut:           ${rate(sample.length, slow)} numbers/s (${ok3} valid)`);
        console.log(
          `  libphonenumber-js max parse + isValid(): ${rate(sample.length, lib)} numbers/s (${ok2} valid: ` +
            "it does not know Mexico's old 044/045/01/+52 1 prefixes)",
        );
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
