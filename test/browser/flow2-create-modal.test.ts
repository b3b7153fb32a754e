/**
 * Flow 2 of the playground (issue 24), through the page only: `/campaign create` opens the modal; the channel chosen
 * first updates the form (dispatch_action); a wrong value (a ticked day without its times) comes back as the app's
 * error under its field, the other inputs kept (the app has no external select: its menus are static ones); once fixed, the submission creates the campaign in the simulator.
 * As the admin (Mariana, es-MX): the form's words come from the app's Spanish catalog.
 */
import { describe, expect, it } from '@jest/globals';
import { translator } from '../../src/i18n/translator.js';
import { fillNewCampaign, usePageTest } from '../support/playground-page.js';

const es = translator('es');
const current = usePageTest('2-create-modal');

describe('playground page: create a campaign in the modal', () => {
  it('shows the error under its field, then creates the campaign', async () => {
    const test = current();
    const { page } = test.browser;
    const sim = test.playground.simulator.control;
    await test.openAs('Mariana');
    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    await composer.fill('/campaign create');
    await composer.press('Enter');

    const modal = await fillNewCampaign(page, 'Prueba desde el navegador');
    // Monday ticked without its times: a wrong value the app refuses.
    await modal.getByRole('checkbox', { name: 'Lunes' }).check();
    await modal.getByRole('button', { name: es.t('campaignForm.submit.create') }).click();

    const error = modal.locator('.block-input.has-error');
    await error.first().waitFor();
    const errorText = (await error.first().locator('.input-error').textContent()) ?? '';
    expect(errorText).toBe(es.t('campaignForm.error.dayNoStart', { day: 'Lunes' }));
    expect(await error.first().getAttribute('data-block-id')).toMatch(/mon/);
    // The inputs are as they were.
    await expect(
      modal.getByRole('textbox', { name: es.t('campaignForm.name'), exact: true }).inputValue(),
    ).resolves.toBe('Prueba desde el navegador');

    await modal.getByLabel('Lunes: inicio').fill('09:00');
    await modal.getByLabel('Lunes: fin').fill('17:00');
    await modal.getByRole('button', { name: es.t('campaignForm.submit.create') }).click();
    await modal.waitFor({ state: 'hidden' });
    await page.locator('.msg', { hasText: 'Prueba desde el navegador' }).first().waitFor();

    const created = sim.campaignIds().map((id) => sim.getCampaignState(id)?.record);
    expect(created.find((c) => c?.name === 'Prueba desde el navegador')).toMatchObject({ agentId: expect.any(String) });
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
