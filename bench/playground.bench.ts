/**
 * The playground (issue 24), in three figures:
 *
 * - start: from `npm start` with nothing set (the entry already built, `node dist/src/index.js`) to the page
 *   answering `GET /`; target ≤ 5 s;
 * - live: from the app's Web API call (chat.postMessage with the bot token, as the app makes it) to the browser
 *   showing the message, p99 over 200 messages posted one after another; target ≤ 200 ms;
 * - a long channel: 1,000 messages, opened and scrolled through in the browser: the longest main-thread task
 *   (PerformanceObserver `longtask`); target ≤ 100 ms.
 *
 * Needs a Chromium (Debian's `chromium`, or PLAYGROUND_CHROMIUM) and `npm run build`.
 *   npm run build && npm run bench -- playground
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlaygroundSettings } from '../src/config.js';
import { startPlayground } from '../src/playground/start.js';
import { CHANNELS, PEOPLE } from '../src/playground/workspace.js';
import { openBrowser } from '../test/support/browser.js';
import { fmt, pass, pct } from './support/figures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIVE_MESSAGES = 200;
const LONG_CHANNEL = 1000;

/** `npm start`'s entry with nothing set, on a free port: ms until `GET /` answers 200. */
async function startTime(): Promise<number> {
  const entry = join(root, 'dist', 'src', 'index.js');
  if (!existsSync(entry)) throw new Error('build first: npm run build');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0' };
  const started = performance.now();
  const child = spawn(process.execPath, ['--optimize-for-size', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /Playground: open (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`npm start's entry exited (${code}): ${out}`)));
    });
    for (;;) {
      const res = await fetch(url).catch(() => undefined);
      if (res?.status === 200) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  process.env.PLAYGROUND_CHROMIUM ??= '/usr/bin/chromium';
  const start = await startTime();
  const playground = await startPlayground({ settings: loadPlaygroundSettings({ PORT: '0', LOG_LEVEL: 'error' }) });
  const browser = await openBrowser(playground.url);
  const { page } = browser;
  const channel = CHANNELS.find((c) => !c.isPrivate && !c.isExtShared)!.id;
  const quiet = CHANNELS.find((c) => c.isPrivate)!.id;
  const person = PEOPLE[0]!.id;
  const post = async (ch: string, text: string) => {
    const res = await fetch(`${playground.emulator.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${playground.emulator.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: ch, text }),
    });
    const body = (await res.json()) as { ok: boolean; error?: string };
    if (!body.ok) throw new Error(`chat.postMessage: ${body.error}`);
  };
  try {
    await page.goto(`${playground.url}?as=${person}`);
    await page.locator(`[data-channel="${channel}"]`).click();
    // Each marker's arrival in the page, on the page's clock (performance.timeOrigin + now: the same wall clock).
    // Scripts run in the page (strings: this file is typed for Node, not the DOM).
    await page.evaluate(`
      window.seen = {};
      window.watcher = new MutationObserver((records) => {
        const at = performance.timeOrigin + performance.now();
        for (const r of records) for (const node of r.addedNodes) {
          for (const m of (node.textContent || '').matchAll(/bench-live-(\\d+)/g)) window.seen[m[1]] ??= at;
        }
      });
      window.watcher.observe(document.body, { childList: true, subtree: true });
    `);
    const latencies: number[] = [];
    for (let i = 0; i < LIVE_MESSAGES; i++) {
      const sent = performance.timeOrigin + performance.now();
      await post(channel, `bench-live-${i}`);
      const shownAt = await page.waitForFunction(
        (n) => (globalThis as unknown as { seen: Record<number, number> }).seen[n],
        i,
      );
      latencies.push(((await shownAt.jsonValue()) as number) - sent);
    }

    await page.evaluate('window.watcher.disconnect()');
    for (let i = 0; i < LONG_CHANNEL; i++) await post(quiet, `message ${i} of a long channel`);
    await page.evaluate(`
      window.longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.longest = Math.max(window.longest, e.duration);
      }).observe({ type: 'longtask' });
    `);
    await page.locator(`[data-channel="${quiet}"]`).click();
    await page.getByText(`message ${LONG_CHANNEL - 1} of a long channel`).waitFor();
    // Up to the channel's first message, as a person scrolls (older messages are drawn as the top is reached), and
    // back down to the newest.
    const messages = page.locator('.messages');
    await messages.hover();
    const first = page.getByText('message 0 of a long channel', { exact: true });
    for (let i = 0; i < 200 && (await first.count()) === 0; i++) await page.mouse.wheel(0, -3000);
    await first.scrollIntoViewIfNeeded();
    for (
      let i = 0;
      i < 200 && !(await page.getByText(`message ${LONG_CHANNEL - 1} of a long channel`).isVisible());
      i++
    ) {
      await page.mouse.wheel(0, 3000);
    }
    const longest = (await page.evaluate('window.longest')) as number;

    console.log(`start: npm start's entry with nothing set to the page answering: ${fmt(start)} ms`);
    console.log(
      `live: Web API call to the browser showing it, ${LIVE_MESSAGES} messages: p50 ${fmt(pct(latencies, 50), 1)} ms, ` +
        `p99 ${fmt(pct(latencies, 99), 1)} ms, max ${fmt(Math.max(...latencies), 1)} ms`,
    );
    // The longtask API reports tasks of 50 ms or more only: 0 means none was that long.
    const longestText = longest > 0 ? `${fmt(longest)} ms` : 'none of 50 ms or more';
    console.log(`long channel: ${LONG_CHANNEL} messages opened and scrolled: longest main-thread task ${longestText}`);
    const targets: Array<[boolean, string]> = [
      [start <= 5000, `npm start to the page answering ≤ 5 s (${fmt(start)} ms)`],
      [pct(latencies, 99) <= 200, `Web API call to the browser, p99 ≤ 200 ms (${fmt(pct(latencies, 99), 1)} ms)`],
      [longest <= 100, `${LONG_CHANNEL} messages opened and scrolled, longest task ≤ 100 ms (${longestText})`],
    ];
    console.log('targets:');
    for (const [met, what] of targets) console.log(`  ${pass(met)}  ${what}`);
    const ok = targets.every(([met]) => met);
    console.log(`playground bench: ${ok ? 'PASS' : 'FAIL'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await playground.close();
  }
}

await main();
