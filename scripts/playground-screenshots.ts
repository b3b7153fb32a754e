/**
 * `npm run playground:screenshots`: the README's pictures of the playground (docs/playground-*.png), drawn from the
 * real playground (the emulator, the simulator's demo data, the app) in the machine's Chromium, as a person would
 * click: the campaign list in a channel, the create modal, a watched call's thread, the Home tab. Needs a Chromium
 * (Debian's `chromium`, or PLAYGROUND_CHROMIUM) and `npm run build`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlaygroundSettings } from '../src/config.js';
import { translator } from '../src/i18n/translator.js';
import { startPlayground } from '../src/playground/start.js';
import { PEOPLE } from '../src/playground/workspace.js';
import { openBrowser } from '../test/support/browser.js';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');
process.env.PLAYGROUND_CHROMIUM ??= '/usr/bin/chromium';

const playground = await startPlayground({ settings: loadPlaygroundSettings({ PORT: '0', LOG_LEVEL: 'error' }) });
const browser = await openBrowser(playground.url);
const { page } = browser;
const shot = async (name: string) => {
  const path = join(DOCS, `playground-${name}.png`);
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
};
try {
  const en = translator('en');
  const es = translator('es');
  const sam = PEOPLE.find((p) => p.name.startsWith('Sam'))!.id;
  const mariana = PEOPLE.find((p) => p.name.startsWith('Mariana'))!.id;
  // The admin, in Spanish (the responder, in English, for the Home tab): the list, the create modal, a watched call.
  await page.goto(`${playground.url}?as=${mariana}`);
  const composer = page.getByRole('textbox', { name: 'Message #operations' });
  await composer.fill('/campaign list');
  await composer.press('Enter');
  await page.locator('.ephemeral', { hasText: 'Recordatorio de pago' }).last().waitFor();
  await shot('list');

  await composer.fill('/campaign create');
  await composer.press('Enter');
  const modal = page.getByRole('dialog', { name: es.t('campaignForm.title.create') });
  // Drawn once the app has filled it in (its agents: views.update), not before.
  await modal.getByRole('combobox', { name: es.t('campaignForm.agent'), exact: true }).waitFor();
  await shot('create');
  await page.keyboard.press('Escape');

  // A watched campaign: a call's post, updated as the call moves on, with its conversation in the thread.
  await composer.fill('/campaign watch 1');
  await composer.press('Enter');
  const post = page
    .locator('.messages .msg')
    .filter({ has: page.getByRole('button', { name: /^\d+ repl(y|ies)$/ }) })
    .first();
  await post.getByRole('button', { name: /repl(y|ies)$/ }).click();
  await page
    .getByRole('complementary', { name: 'Thread' })
    .getByText(/Agent:|System:/)
    .first()
    .waitFor();
  await shot('watch');

  await page.goto(`${playground.url}?as=${sam}`);
  await page.getByRole('button', { name: /^Outreach, app$/ }).click();
  await page.getByRole('tab', { name: 'Home' }).click();
  await page
    .getByRole('region', { name: 'Home' })
    .getByRole('heading', { name: en.t('home.header') })
    .waitFor();
  await shot('home');
} finally {
  await browser.close();
  await playground.close();
}
