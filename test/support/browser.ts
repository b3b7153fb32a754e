/**
 * The browser tests' Chromium: the machine's own (Debian's `chromium`, found by jest.config.js and handed over in
 * PLAYGROUND_CHROMIUM), driven by playwright-core, never a browser download. Each session gets a fresh profile, and
 * records what must stay silent on the page: JavaScript dialogs (alert, confirm, prompt) and uncaught page errors.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Where each browser test keeps a screenshot of its end state (git-ignored). */
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'artifacts', 'browser');

/** How long the page may take to show something: generous, since the machine is shared; never a sleep. */
const SHOWS_WITHIN = 60_000;

export interface BrowserSession {
  page: Page;
  /** JavaScript dialogs the page opened (message of each): a script that ran would show here. */
  dialogs: string[];
  /** Uncaught errors of the page's scripts. */
  pageErrors: string[];
  /** Requests the page made outside the playground (none expected). */
  foreignRequests: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

function chromiumPath(): string {
  const path = process.env.PLAYGROUND_CHROMIUM;
  if (!path) {
    throw new Error(
      'No Chromium for the browser tests: install one (apt-get install -y chromium) or set PLAYGROUND_CHROMIUM',
    );
  }
  return path;
}

export async function openBrowser(baseUrl: string): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'playground-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(SHOWS_WITHIN);
  const session: BrowserSession = {
    page,
    dialogs: [],
    pageErrors: [],
    foreignRequests: [],
    async screenshot(name) {
      mkdirSync(ARTIFACTS, { recursive: true });
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: false });
      return path;
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
  page.on('dialog', (dialog) => {
    session.dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (error) => session.pageErrors.push(error.message));
  const origin = new URL(baseUrl).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      session.foreignRequests.push(url);
    }
  });
  return session;
}
