/**
 * Flow 5 of the playground (issue 24), through the page only: the responder (Sam, en-US) opens the app's Home tab:
 * the campaigns' counts and summaries are drawn, and its menus work: choosing a status shows only those campaigns.
 * Not checked: the waiting list (it is drawn only while a customer waits for a reply).
 */
import { describe, expect, it } from '@jest/globals';
import { en } from '../../src/i18n/catalog/en.js';
import { usePageTest } from '../support/playground-page.js';

const current = usePageTest('5-home');

describe('playground page: the Home tab', () => {
  it('shows the summaries and a menu that works', async () => {
    const test = current();
    const { page } = test.browser;
    await test.openAs('Sam');
    await page.getByRole('button', { name: /^Outreach, app$/ }).click();
    await page.getByRole('tab', { name: 'Home' }).click();
    const home = page.getByRole('region', { name: 'Home' });
    await home.getByRole('heading', { name: en['home.header'] }).waitFor();
    await home.getByText('Recordatorio de pago · Marzo').first().waitFor();
    // The counts by status, one summary per campaign.
    await home.getByText(en['home.filterWord.finished'], { exact: false }).first().waitFor();
    expect(await home.getByRole('button', { name: /^Show campaign \d+$/ }).count()).toBeGreaterThanOrEqual(5);

    // A menu of the Home tab that works: only the pending campaigns once "pending" is chosen.
    const status = home.getByRole('combobox').first();
    const pending = await status
      .locator('option', { hasText: /pending/i })
      .first()
      .getAttribute('value');
    await status.selectOption(pending ?? '');
    await home
      .getByText(/matching/)
      .first()
      .waitFor();
    await home.getByText('Confirmación de citas · Clínica Roma').waitFor();
    await home.getByText('Recordatorio de pago · Marzo').waitFor({ state: 'detached' });
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
