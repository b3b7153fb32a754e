/**
 * A byte stream we can look at the start of (to sniff the format) and then read from the beginning, without ever
 * holding more than the peeked head plus one chunk in memory.
 */
import type { Readable } from 'node:stream';

/** What the readers accept: a Node stream of bytes, or any async iterable of byte chunks. */
export type ByteInput = Readable | AsyncIterable<Buffer | Uint8Array | string>;

function toBuffer(chunk: Buffer | Uint8Array | string): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  // A Readable with setEncoding() yields strings; its bytes were UTF-8 text, so encode them back.
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export class ByteSource {
  private readonly input: ByteInput;
  private readonly iterator: AsyncIterator<Buffer | Uint8Array | string>;
  private readonly buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private ended = false;
  private consumed = false;
  private handedOut = 0;

  constructor(input: ByteInput) {
    this.input = input;
    this.iterator = (input as AsyncIterable<Buffer | Uint8Array | string>)[Symbol.asyncIterator]();
  }

  /** Bytes handed out by `chunks()` so far. */
  get bytesRead(): number {
    return this.handedOut;
  }

  /** True once the whole input is in the peek buffer. */
  get atEnd(): boolean {
    return this.ended;
  }

  /** The first `minBytes` bytes (fewer if the input is shorter), read without consuming them. */
  async peek(minBytes: number): Promise<Buffer> {
    while (!this.ended && this.bufferedBytes < minBytes) {
      const r = await this.iterator.next();
      if (r.done) {
        this.ended = true;
        break;
      }
      const b = toBuffer(r.value);
      if (b.length === 0) continue;
      this.buffered.push(b);
      this.bufferedBytes += b.length;
    }
    if (this.buffered.length > 1) {
      const all = Buffer.concat(this.buffered, this.bufferedBytes);
      this.buffered.length = 0;
      this.buffered.push(all);
    }
    return this.buffered[0] ?? Buffer.alloc(0);
  }

  /** Every byte from the start, peeked ones first. Single use. Ending the loop early releases the input. */
  async *chunks(): AsyncGenerator<Buffer> {
    if (this.consumed) throw new Error('ByteSource.chunks() can only be read once');
    this.consumed = true;
    let finished = false;
    try {
      while (this.buffered.length > 0) {
        const b = this.buffered.shift()!;
        this.handedOut += b.length;
        yield b;
      }
      if (this.ended) {
        finished = true;
        return;
      }
      for (;;) {
        const r = await this.iterator.next();
        if (r.done) {
          finished = true;
          return;
        }
        const b = toBuffer(r.value);
        this.handedOut += b.length;
        if (b.length > 0) yield b;
      }
    } finally {
      // Stopped early (or failed downstream): tell the input we are done so a stream is destroyed.
      if (!finished) await this.iterator.return?.();
    }
  }

  /**
   * Releases the input whatever its state: a stream is destroyed at once (its pending reads end), another
   * iterable is asked to return. Used when reading stops early, and when the file is refused.
   */
  release(): void {
    this.consumed = true;
    const stream = this.input as { destroy?: () => void; destroyed?: boolean };
    if (typeof stream.destroy === 'function') {
      if (!stream.destroyed) stream.destroy();
    } else {
      this.iterator.return?.().catch(() => {});
    }
  }
}
