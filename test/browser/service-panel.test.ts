/**
 * The playground's panel for the service's side, through the page only: a campaign's status changed there is the
 * simulator's (and the panel shows it); the billing limit is reached and lifted; the service taken down for a
 * minute is shown as down, and the app's answer to a command then says the service cannot be reached.
 */
import { describe, expect, it } from '@jest/globals';
import { en } from '../../src/i18n/catalog/en.js';
import { usePageTest } from '../support/playground-page.js';

const current = usePageTest('service-panel');

describe("playground page: the service's side", () => {
  it('changes the simulator from the panel', async () => {
    const test = current();
    const { page } = test.browser;
    const sim = test.playground.simulator.control;
    await test.openAs('Sam');
    await page.getByRole('button', { name: 'Service side' }).click();
    const panel = page.getByRole('region', { name: 'The service side' });

    const name = 'Reactivación de clientes inactivos';
    await panel.getByRole('combobox', { name: `Status of ${name}` }).selectOption('finished');
    await panel.getByRole('button', { name: `Set status of ${name}` }).click();
    await panel.locator('li', { hasText: name }).locator('.campaign-status', { hasText: 'finished' }).waitFor();
    expect(sim.getCampaignState(5)?.record.status).toBe('finished');

    await panel.getByRole('checkbox', { name: 'Billing limit reached' }).check();
    await panel.getByRole('status').getByText('billing limit reached').waitFor();
    await panel.getByRole('checkbox', { name: 'Billing limit reached' }).uncheck();
    await panel.getByRole('status').getByText('billing limit reached').waitFor({ state: 'detached' });

    await panel.getByRole('button', { name: 'Take the service down for a minute' }).click();
    await panel.getByRole('status').getByText('The service is down').waitFor();
    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    await composer.fill('/campaign list');
    await composer.press('Enter');
    await page.locator('.ephemeral', { hasText: en['serviceError.unavailable'] }).waitFor();
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
