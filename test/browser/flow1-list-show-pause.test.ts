/**
 * Flow 1 of the playground (issue 24), through the page only: a fresh start with nothing set; the page loads;
 * `/campaign help`; `/campaign list` shows the demo campaigns; Show; Activate with its confirm dialog, then Pause with
 * its own (denied once: nothing changes); the campaign is active, then paused, in the simulator. As the admin
 * (Mariana, es-MX): the app answers her in Spanish, so what the page should show is taken from the app's Spanish
 * catalog.
 */
import { describe, expect, it } from '@jest/globals';
import { translator } from '../../src/i18n/translator.js';
import { usePageTest } from '../support/playground-page.js';

const es = translator('es');
const current = usePageTest('1-list-show-pause');

describe('playground page: list, show, activate with its confirm, pause', () => {
  it('changes the campaign in the simulator through the buttons of the page', async () => {
    const test = current();
    const { page } = test.browser;
    const sim = test.playground.simulator.control;
    await test.openAs('Mariana');

    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    await composer.fill('/campaign');
    await page
      .getByRole('note')
      .getByText(/help \| list \| show/)
      .waitFor();
    await composer.fill('/campaign help');
    await composer.press('Enter');
    await page.locator('.ephemeral code', { hasText: '/campaign <comando>' }).first().waitFor();

    await composer.fill('/campaign list');
    await composer.press('Enter');
    const list = page.locator('.ephemeral', { hasText: 'Encuesta de satisfacción Q1' }).last();
    await list.getByText('Recordatorio de pago · Marzo').waitFor();
    await list.getByRole('button', { name: es.t('campaignList.showLabel', { id: '3' }) }).click();

    const detail = page.locator('.ephemeral', { hasText: es.t('campaignDetail.header', { id: '3' }) }).last();
    await detail.getByRole('button', { name: es.t('lifecycle.button.activate') }).click();
    const confirm = page.getByRole('dialog', { name: es.t('lifecycle.confirm.activate.title') });
    await confirm.getByText('Encuesta de satisfacción Q1').waitFor();
    await confirm.getByRole('button', { name: es.t('lifecycle.confirm.activate.confirm'), exact: true }).click();
    await confirm.waitFor({ state: 'detached' });

    // The channel is told (in the channel's language, English by default), with a Show button of its own.
    const activated = page.locator('.msg', { hasText: /activated Encuesta de satisfacción Q1 \(#3\)/ });
    await activated.waitFor();
    expect(sim.getCampaignState(3)?.record.status).toBe('active');
    await activated.getByRole('button', { name: 'Show' }).click();

    const shown = page.locator('.ephemeral', { hasText: 'Encuesta de satisfacción Q1' }).last();
    await shown.getByRole('button', { name: es.t('lifecycle.button.pause') }).click();
    // Pausing asks first too: denied, nothing changes; confirmed, the campaign pauses.
    const pause = page.getByRole('dialog', { name: es.t('lifecycle.confirm.pause.title') });
    await pause.getByText('Encuesta de satisfacción Q1').waitFor();
    await pause.getByRole('button', { name: es.t('common.cancel'), exact: true }).click();
    await pause.waitFor({ state: 'detached' });
    expect(sim.getCampaignState(3)?.record.status).toBe('active');
    await shown.getByRole('button', { name: es.t('lifecycle.button.pause') }).click();
    await pause.getByRole('button', { name: es.t('lifecycle.confirm.pause.confirm'), exact: true }).click();
    await pause.waitFor({ state: 'detached' });
    await page.locator('.msg', { hasText: /paused Encuesta de satisfacción Q1 \(#3\)/ }).waitFor();
    expect(sim.getCampaignState(3)?.record.status).toBe('inactive');
    expect(test.browser.pageErrors).toEqual([]);
    expect(test.browser.dialogs).toEqual([]);
  }, 240_000);
});
