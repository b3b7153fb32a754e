/**
 * Report charts drawn in a thread of their own (chart-worker.ts), started at the first chart and kept for the next
 * ones (Vega takes ~150 ms to load); `close()` ends it. The event loop only posts the input and gets the PNG back.
 */
import { Worker } from 'node:worker_threads';
import { workerScript } from '../worker-script.js';
import type { ChartInput } from './figures.js';

interface Pending {
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
}

export class ChartRenderer {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** The chart as PNG bytes. */
  render(input: ChartInput): Promise<Buffer> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, input });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
    this.failAll(new Error('the chart renderer was closed'));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const { script, evalCode } = workerScript(import.meta.url, 'chart-worker');
    const worker = new Worker(script, {
      eval: evalCode,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    // An idle renderer does not keep the process alive.
    worker.unref();
    worker.on('message', (m: { id: number; png?: Uint8Array; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.png) p.resolve(Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength));
      else p.reject(new Error(`drawing the chart failed: ${m.error ?? 'unknown error'}`));
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the chart thread ended'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
