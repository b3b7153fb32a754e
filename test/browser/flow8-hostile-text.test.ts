/**
 * Flow 8 of the playground (issue 24), through the page only: hostile text — a <script> tag, an <img onerror>,
 * `javascript:` links, `<!channel>` and a bidi override — typed by a person in a channel, and in a campaign's name
 * (text from outside that the app then shows in its own messages). The page shows each piece literally: no element,
 * link or mention is made of it, and no script runs (the page's dialog and page-error listeners stay silent).
 */
import { describe, expect, it } from '@jest/globals';
import type { Locator } from 'playwright-core';
import { translator } from '../../src/i18n/translator.js';
import { fillNewCampaign, personId, usePageTest } from '../support/playground-page.js';

const es = translator('es');

const current = usePageTest('8-hostile-text');

const SCRIPT = "<script>document.title='pwned';alert('script')</script>";
const IMAGE = '<img src=x onerror=alert(document.domain)>';
const LINKS = '<javascript:alert(1)|click me> [here](javascript:alert(2))';
const HOSTILE = `${SCRIPT} ${IMAGE} ${LINKS} <!channel> invoice\u202Efdp.exe`;

async function expectLiteral(shown: Locator): Promise<void> {
  const text = (await shown.textContent()) ?? '';
  for (const piece of [SCRIPT, IMAGE, 'click me', 'javascript:alert(2)']) expect(text).toContain(piece);
  // The override does not turn the text around: it is gone (the app strips it) or shown as its code point.
  expect(text).not.toContain('\u202E');
  expect(await shown.locator('img, script, a, .mention').count()).toBe(0);
}

describe('playground page: hostile text', () => {
  it('shows every piece literally and runs nothing', async () => {
    const test = current();
    const { page } = test.browser;
    await test.openAs('Sam');
    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    await composer.fill(HOSTILE);
    await composer.press('Enter');
    const typed = page.locator('.messages .msg', { hasText: 'fdp.exe' }).last();
    await typed.waitFor();
    await expectLiteral(typed);
    expect(await typed.textContent()).toContain('<!channel>');
    expect(await typed.textContent()).toContain('⟦U+202E⟧');

    // A campaign named with it, by the admin: the app shows the name in its own messages.
    await page.getByRole('combobox', { name: 'Be anyone' }).selectOption(personId('Mariana'));
    await page
      .getByRole('combobox', { name: 'Be anyone' })
      .locator('option:checked', { hasText: 'Mariana' })
      .waitFor({ state: 'attached' });
    const adminComposer = page.getByRole('textbox', { name: 'Message #operations' });
    await adminComposer.fill('/campaign create');
    await adminComposer.press('Enter');
    const modal = await fillNewCampaign(page, HOSTILE);
    await modal.getByRole('button', { name: es.t('campaignForm.submit.create') }).click();
    await modal.waitFor({ state: 'hidden' });
    const created = page.locator('.messages .msg', { hasText: 'fdp.exe' }).last();
    await created.locator('b, strong', { hasText: 'fdp.exe' }).first().waitFor();
    await expectLiteral(created.locator('b', { hasText: 'fdp.exe' }).first());

    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    expect(test.browser.dialogs).toEqual([]);
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
