/**
 * An XLSX file opened as a ZIP archive, read at random (yauzl) rather than front to back: the central directory,
 * at the end of the file, is checked first, and only the parts needed for the first sheet are ever inflated, in the
 * order that needs no spooling (workbook, styles, shared strings, then the sheet). exceljs's own streaming reader
 * spools every worksheet it meets before the shared strings into a temp file; a 1 MB ZIP declaring a 1 GB sheet
 * filled the disk that way.
 *
 * The budget (FileLimits.maxUnpackedBytes) holds twice: the sizes the central directory declares, all entries
 * together, are checked before anything is inflated; and the bytes actually inflated are counted as they come (yauzl
 * also fails an entry that inflates to more than it declared), so a lying header cannot get past it either.
 */
import { posix } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { describeFile, FileFormatError } from './errors.js';
import { formatCount } from './limits.js';

export type ZipSource = { path: string } | { buffer: Buffer };

/** Far more parts than any workbook has (Excel writes 10 to 30); a central directory of millions is an attack. */
const MAX_ENTRIES = 10_000;

const MB = 1024 * 1024;
function megabytes(n: number): string {
  return `${formatCount(Math.ceil(n / MB))} MB`;
}

const SAVE_AS_CSV = 'Open it in Excel and export the sheet as "CSV UTF-8", then upload that file.';

export interface ZipOptions {
  fileName?: string;
  maxUnpackedBytes: number;
}

export class XlsxZip {
  private unpacked = 0;
  private closed = false;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    /** Entries by lower-case name: part names in an OPC package are case-insensitive. */
    private readonly entries: Map<string, yauzl.Entry>,
    /** Entry names in stored order. */
    readonly names: string[],
    private readonly opts: ZipOptions,
  ) {}

  static async open(source: ZipSource, opts: ZipOptions): Promise<XlsxZip> {
    const file = describeFile(opts.fileName);
    const options: yauzl.Options = { lazyEntries: true, autoClose: false, validateEntrySizes: true };
    let zip: yauzl.ZipFile;
    try {
      zip =
        'path' in source
          ? await yauzl.openPromise(source.path, options)
          : await yauzl.fromBufferPromise(source.buffer, options);
    } catch (err) {
      throw unreadable(opts.fileName, err);
    }
    try {
      if (zip.entryCount > MAX_ENTRIES) {
        throw new FileFormatError(
          'UNREADABLE_XLSX',
          `${file} is a ZIP archive of ${formatCount(zip.entryCount)} parts, not an Excel workbook. ${SAVE_AS_CSV}`,
          { kind: 'zipManyParts', file: opts.fileName ?? '', parts: zip.entryCount },
        );
      }
      const entries = new Map<string, yauzl.Entry>();
      const names: string[] = [];
      let declared = 0;
      for await (const entry of zip.eachEntry()) {
        declared += entry.uncompressedSize;
        if (declared > opts.maxUnpackedBytes) {
          throw tooLarge(
            opts,
            `its parts declare at least ${megabytes(declared)}; ${entry.fileName} alone ${megabytes(entry.uncompressedSize)}`,
            entry.fileName,
            { total: megabytes(declared), part: megabytes(entry.uncompressedSize) },
          );
        }
        if (entry.fileName.endsWith('/')) continue;
        names.push(entry.fileName);
        entries.set(entry.fileName.toLowerCase(), entry);
      }
      return new XlsxZip(zip, entries, names, opts);
    } catch (err) {
      zip.close();
      if (err instanceof FileFormatError) throw err;
      throw unreadable(opts.fileName, err);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  /** Declared inflated size of an entry (0 when absent). */
  size(name: string): number {
    return this.entries.get(name.toLowerCase())?.uncompressedSize ?? 0;
  }

  /** Bytes inflated so far, all entries together. */
  get unpackedBytes(): number {
    return this.unpacked;
  }

  /**
   * An entry's inflated bytes, counted against the budget: the stream fails with a FileFormatError
   * ('TOO_LARGE_UNPACKED') at the first byte over it. `onBytes` sees the count of this entry as it grows.
   */
  async open(name: string, onBytes?: (n: number) => void): Promise<Readable> {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) throw new Error(`no ${name} in the archive`);
    if (entry.isEncrypted()) {
      throw new FileFormatError(
        'UNREADABLE_XLSX',
        `${describeFile(this.opts.fileName)} is password protected. Remove the password in Excel (File → Info → ` +
          'Protect Workbook), save it, and upload it again.',
        { kind: 'passwordProtected', file: this.opts.fileName ?? '' },
      );
    }
    let raw: Readable;
    try {
      raw = await this.zip.openReadStreamPromise(entry);
    } catch (err) {
      throw unreadable(this.opts.fileName, err);
    }
    let own = 0;
    const counted = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        own += chunk.length;
        this.unpacked += chunk.length;
        if (this.unpacked > this.opts.maxUnpackedBytes) {
          done(tooLarge(this.opts, `${name} goes past it while it is unpacked`, name));
          return;
        }
        onBytes?.(own);
        done(null, chunk);
      },
    });
    raw.on('error', (err) => {
      // yauzl's check that an entry inflates to the size it declares: only a damaged or a crafted file fails it.
      const lied = /too many bytes in the stream/i.test(err.message);
      counted.destroy(lied ? lyingPart(this.opts, name) : toFileError(this.opts.fileName, err));
    });
    counted.on('close', () => {
      if (!raw.destroyed) raw.destroy();
    });
    return raw.pipe(counted);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.zip.close();
  }
}

/** A path inside the package for a relationship target of `from` (`worksheets/sheet1.xml` of xl/ → xl/...). */
export function partPath(baseDir: string, target: string): string {
  const joined = target.startsWith('/') ? target.slice(1) : posix.join(baseDir, target);
  return posix.normalize(joined);
}

function tooLarge(
  opts: ZipOptions,
  why: string,
  part: string,
  declared?: { total: string; part: string },
): FileFormatError {
  return new FileFormatError(
    'TOO_LARGE_UNPACKED',
    `${describeFile(opts.fileName)} unpacks to more than ${megabytes(opts.maxUnpackedBytes)}, the most a workbook ` +
      `may hold here (${why}). It is damaged, or not a contact list. ${SAVE_AS_CSV}`,
    {
      kind: 'unpacksTooLarge',
      file: opts.fileName ?? '',
      max: megabytes(opts.maxUnpackedBytes),
      part,
      ...(declared ? { declared } : {}),
    },
  );
}

/** A part that unpacks to more than the size its ZIP header gives: a ZIP bomb's trick, or a damaged file. */
function lyingPart(opts: ZipOptions, name: string): FileFormatError {
  return new FileFormatError(
    'TOO_LARGE_UNPACKED',
    `${describeFile(opts.fileName)} can't be read: its part ${name} unpacks to more than its own header says, which ` +
      `only a damaged file, or one made to exhaust the reader, does. ${SAVE_AS_CSV}`,
    { kind: 'lyingPart', file: opts.fileName ?? '', part: name },
  );
}

function toFileError(fileName: string | undefined, err: unknown): FileFormatError {
  return err instanceof FileFormatError ? err : unreadable(fileName, err);
}

/** yauzl's and zlib's words for the usual damage, in plain words. */
function damageOf(err: unknown): 'cutShort' | 'damagedPart' | 'other' {
  const message = (err as Error).message;
  if (/end of central directory record signature not found/i.test(message)) return 'cutShort';
  if (/invalid (block type|distance|code|stored block)|incorrect header check|unexpected end of file/i.test(message)) {
    return 'damagedPart';
  }
  return 'other';
}

function why(err: unknown): string {
  const message = (err as Error).message;
  const damage = damageOf(err);
  if (damage === 'cutShort') return 'it is cut short or damaged: the end of its ZIP archive is missing';
  if (damage === 'damagedPart') return `a part of it is damaged: ${message}`;
  return message;
}

export function unreadable(fileName: string | undefined, err: unknown): FileFormatError {
  return new FileFormatError(
    'UNREADABLE_XLSX',
    `${describeFile(fileName)} looks like an Excel workbook but could not be read (${why(err)}). ` +
      'Open it in Excel and save it again as .xlsx, or export the sheet as "CSV UTF-8".',
    {
      kind: 'unreadableWorkbook',
      file: fileName ?? '',
      damage: damageOf(err),
      detail: String((err as Error)?.message ?? err),
    },
    { cause: err },
  );
}
