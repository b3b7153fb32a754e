/**
 * Bytes → text for delimited files, streaming.
 *
 * Encoding heuristic (people's CSVs come from Excel on Windows as often as from Google Sheets):
 *  1. A byte-order mark decides: EF BB BF → UTF-8, FF FE → UTF-16LE, FE FF → UTF-16BE (the BOM is dropped).
 *  2. Otherwise, while every byte seen is ASCII the two candidates decode alike, so text flows on undecided.
 *  3. At the first non-ASCII byte we look at up to 64 KiB from there (buffering only that window): if it is valid
 *     UTF-8 the file is UTF-8, otherwise it is Windows-1252 (Excel's "CSV" on Spanish/English Windows; a superset
 *     of ISO-8859-1). Real Windows-1252 text is practically never valid UTF-8 (an accented letter followed by
 *     ASCII is an invalid sequence), so one window is a reliable vote.
 *  4. Once UTF-8 is chosen, a stray invalid byte later in the file becomes U+FFFD rather than failing the import.
 * A NUL byte anywhere in an 8-bit file means it is not text: a `FileFormatError` ('BINARY_FILE').
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';
import { binaryFileError } from './sniff.js';

export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** Shared with the caller so it can report which encoding was used; `ascii` while nothing else was seen. */
export interface DecodeState {
  encoding: TextEncoding | 'ascii';
}

const ENCODING_LOOKAHEAD_BYTES = 64 * 1024;

interface Decoder {
  write(b: Buffer): string;
  end(): string;
}

function makeDecoder(encoding: TextEncoding): Decoder {
  switch (encoding) {
    case 'utf-8':
      return new StringDecoder('utf8');
    case 'utf-16le':
      return new StringDecoder('utf16le');
    case 'utf-16be': {
      const d = iconv.getDecoder('utf-16be');
      return { write: (b) => d.write(b), end: () => d.end() ?? '' };
    }
    case 'windows-1252': {
      const d = iconv.getDecoder('win1252');
      return { write: (b) => d.write(b), end: () => d.end() ?? '' };
    }
  }
}

/** Drops a UTF-8 sequence cut off by the end of the window, so a window edge does not look like bad UTF-8. */
function withoutCutTail(b: Buffer): Buffer {
  for (let back = 1; back <= 3 && back <= b.length; back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? b.subarray(0, b.length - back) : b;
  }
  return b;
}

function firstNonAscii(b: Buffer): number {
  for (let i = 0; i < b.length; i++) if (b[i]! >= 0x80) return i;
  return -1;
}

export async function* decodeText(
  chunks: AsyncIterable<Buffer>,
  state: DecodeState,
  opts: { fileName?: string } = {},
): AsyncGenerator<string> {
  const it = chunks[Symbol.asyncIterator]();
  let finished = false;
  const next = async (): Promise<Buffer | undefined> => {
    const r = await it.next();
    if (r.done) {
      finished = true;
      return undefined;
    }
    return r.value;
  };
  try {
    // Gather at least 3 bytes (or the whole input) to see a byte-order mark.
    let first: Buffer = Buffer.alloc(0);
    while (first.length < 3) {
      const c = await next();
      if (!c) break;
      first = first.length === 0 ? c : Buffer.concat([first, c]);
    }
    let decoder: Decoder | undefined;
    let eightBit = true;
    if (first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) {
      state.encoding = 'utf-8';
      first = first.subarray(3);
    } else if (first[0] === 0xff && first[1] === 0xfe) {
      state.encoding = 'utf-16le';
      eightBit = false;
      first = first.subarray(2);
    } else if (first[0] === 0xfe && first[1] === 0xff) {
      state.encoding = 'utf-16be';
      eightBit = false;
      first = first.subarray(2);
    }
    if (state.encoding !== 'ascii') decoder = makeDecoder(state.encoding);

    let chunk: Buffer | undefined = first;
    while (chunk) {
      if (eightBit && chunk.indexOf(0) !== -1) throw binaryFileError(opts.fileName);
      if (decoder) {
        const s = decoder.write(chunk);
        if (s) yield s;
      } else if (isAscii(chunk)) {
        if (chunk.length) yield chunk.toString('latin1');
      } else {
        // First non-ASCII byte: emit the ASCII before it, then decide on a window starting there.
        const at = firstNonAscii(chunk);
        if (at > 0) yield chunk.toString('latin1', 0, at);
        const window = [chunk.subarray(at)];
        let windowBytes = window[0]!.length;
        while (windowBytes < ENCODING_LOOKAHEAD_BYTES) {
          const c = await next();
          if (!c) break;
          if (c.indexOf(0) !== -1) throw binaryFileError(opts.fileName);
          window.push(c);
          windowBytes += c.length;
        }
        const bytes = Buffer.concat(window, windowBytes);
        state.encoding = isUtf8(finished ? bytes : withoutCutTail(bytes)) ? 'utf-8' : 'windows-1252';
        decoder = makeDecoder(state.encoding);
        const s = decoder.write(bytes);
        if (s) yield s;
      }
      chunk = finished ? undefined : await next();
    }
    if (decoder) {
      const tail = decoder.end();
      if (tail) yield tail;
    }
  } finally {
    if (!finished) await it.return?.();
  }
}
