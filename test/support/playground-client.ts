/**
 * A person on the playground's page, without a browser: the page protocol's requests (src/playground/api.ts) over
 * HTTP, and its Server-Sent Events read as they come, so a test awaits the event it expects.
 */
import type { PageEvent, PageState } from '../../src/playground/api.js';

export interface Answer {
  status: number;
  body: Record<string, unknown> & { ok?: boolean; error?: string };
}

export async function post(base: string, path: string, body: unknown): Promise<Answer> {
  const res = await fetch(new URL(`/playground/api/${path}`, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

export async function state(base: string, as: string): Promise<PageState> {
  const res = await fetch(new URL(`/playground/api/state?as=${encodeURIComponent(as)}`, base));
  if (res.status !== 200) throw new Error(`state of ${as}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as PageState;
}

/** One person's event stream: every event received so far, and a way to await the next one that matches. */
export class EventsOf {
  readonly events: PageEvent[] = [];
  private readonly waiters: { match: (e: PageEvent) => boolean; resolve: (e: PageEvent) => void }[] = [];
  private readonly abort = new AbortController();

  private constructor() {}

  static async open(base: string, as: string): Promise<EventsOf> {
    const stream = new EventsOf();
    const res = await fetch(new URL(`/playground/api/events?as=${encodeURIComponent(as)}`, base), {
      signal: stream.abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`events of ${as}: HTTP ${res.status}`);
    void stream.read(res.body.getReader());
    return stream;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of chunk.split('\n')) if (line.startsWith('data: ')) this.take(JSON.parse(line.slice(6)));
        }
      }
    } catch {
      // closed by the test
    }
  }

  private take(event: PageEvent): void {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (!w.match(event)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(event);
    }
  }

  /** The first event (already received or still to come) for which `match` holds. */
  next<T extends PageEvent>(match: (e: PageEvent) => e is T): Promise<T>;
  next(match: (e: PageEvent) => boolean): Promise<PageEvent>;
  next(match: (e: PageEvent) => boolean): Promise<PageEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  close(): void {
    this.abort.abort();
  }
}

/** Re-reads `read` until `ok` holds (for what only the simulator knows, which sends no events). */
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}
