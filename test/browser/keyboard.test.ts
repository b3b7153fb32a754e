/**
 * The page by keyboard alone (issue 24: "Keyboard usable"): a command typed and sent with Enter; the modal it opens
 * takes the focus and Escape closes it; a button pressed with Space asks its confirmation, Escape says no (nothing
 * changes), Enter on the confirm button says yes (the campaign is activated in the simulator).
 */
import { describe, expect, it } from '@jest/globals';
import { translator } from '../../src/i18n/translator.js';
import { usePageTest } from '../support/playground-page.js';

const es = translator('es');
const current = usePageTest('keyboard');

describe('playground page by keyboard', () => {
  it('sends commands, closes the modal and answers a confirmation', async () => {
    const test = current();
    const { page } = test.browser;
    const sim = test.playground.simulator.control;
    await test.openAs('Mariana');
    await page.getByRole('textbox', { name: 'Message #operations' }).focus();
    await page.keyboard.type('/campaign create');
    await page.keyboard.press('Enter');
    const modal = page.getByRole('dialog', { name: es.t('campaignForm.title.create') });
    await modal.waitFor();
    expect(await modal.evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });

    await page.getByRole('textbox', { name: 'Message #operations' }).focus();
    await page.keyboard.type('/campaign show 3');
    await page.keyboard.press('Enter');
    const detail = page.locator('.ephemeral', { hasText: es.t('campaignDetail.header', { id: '3' }) }).last();
    const activate = detail.getByRole('button', { name: es.t('lifecycle.button.activate') });
    await activate.focus();
    await page.keyboard.press('Space');
    const confirm = page.getByRole('dialog', { name: es.t('lifecycle.confirm.activate.title') });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(sim.getCampaignState(3)?.record.status).toBe('ready');

    await activate.focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await confirm.getByRole('button', { name: es.t('lifecycle.confirm.activate.confirm'), exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.msg', { hasText: /activated Encuesta de satisfacción Q1 \(#3\)/ }).waitFor();
    expect(sim.getCampaignState(3)?.record.status).toBe('active');
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
