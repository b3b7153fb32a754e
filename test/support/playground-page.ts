/**
 * A browser test's playground: the real one (src/playground/start.ts, the emulator, the simulator and the app) on a
 * free port, and the machine's Chromium on its page (browser.ts). `finish` keeps a screenshot of the end state.
 */
import { afterAll, beforeAll } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { loadPlaygroundSettings } from '../../src/config.js';
import { translator } from '../../src/i18n/translator.js';
import { startPlayground, type Playground } from '../../src/playground/start.js';
import { PEOPLE } from '../../src/playground/workspace.js';
import { openBrowser, type BrowserSession } from './browser.js';

export interface PageTest {
  playground: Playground;
  browser: BrowserSession;
  /** Opens the page as one of the playground's people (by the start of their name), as its link `?as=` does. */
  openAs(name: string): Promise<void>;
  /** Keeps a screenshot of the end state (artifacts/browser/<name>.png), then stops the browser and the playground. */
  finish(name: string): Promise<void>;
}

export function personId(name: string): string {
  const person = PEOPLE.find((p) => p.name.startsWith(name));
  if (!person) throw new Error(`no playground person named ${name}`);
  return person.id;
}

async function startPageTest(): Promise<PageTest> {
  const playground = await startPlayground({ settings: loadPlaygroundSettings({ PORT: '0', LOG_LEVEL: 'error' }) });
  let browser: BrowserSession;
  try {
    browser = await openBrowser(playground.url);
  } catch (error) {
    await playground.close();
    throw error;
  }
  return {
    playground,
    browser,
    async openAs(name) {
      await browser.page.goto(`${playground.url}?as=${encodeURIComponent(personId(name))}`);
      await browser.page.getByRole('navigation', { name: 'Channels and apps' }).waitFor();
    },
    async finish(name) {
      await browser.screenshot(name).catch(() => undefined);
      await browser.close();
      await playground.close();
    },
  };
}

/**
 * In the new-campaign modal (as the admin, in Spanish): a phone campaign of Diego's named `name`, without a schedule.
 * Returns the modal, for what the test does next (tick a day, submit).
 */
export async function fillNewCampaign(page: Page, name: string): Promise<Locator> {
  const es = translator('es');
  const modal = page.getByRole('dialog', { name: es.t('campaignForm.title.create') });
  await modal.getByRole('radio').first().check();
  await modal.getByRole('textbox', { name: es.t('campaignForm.name'), exact: true }).fill(name);
  const agent = modal.getByRole('combobox', { name: es.t('campaignForm.agent'), exact: true });
  const diego = await agent.locator('option', { hasText: 'Diego Salazar' }).getAttribute('value');
  await agent.selectOption(diego ?? '');
  const integration = modal.getByRole('combobox', { name: es.t('campaignForm.integration'), exact: true });
  await integration.selectOption({ label: 'int-phone-diego (teléfono)' });
  return modal;
}

/**
 * A test file's playground and browser: started before its tests, its end state kept as `<screenshot>.png` and both
 * stopped after them. Returns what the tests use.
 */
export function usePageTest(screenshot: string): () => PageTest {
  let test: PageTest | undefined;
  beforeAll(async () => {
    test = await startPageTest();
  }, 120_000);
  afterAll(async () => {
    await test?.finish(screenshot);
  }, 60_000);
  return () => {
    if (!test) throw new Error('the playground or the browser did not start');
    return test;
  };
}
