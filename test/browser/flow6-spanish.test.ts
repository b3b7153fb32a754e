/**
 * Flow 6 of the playground (issue 24), through the page only: as the es-MX person (Mariana), the help, a modal and an
 * error come in Spanish — the words a Spanish speaker reads, not the English ones.
 */
import { describe, expect, it } from '@jest/globals';
import { usePageTest } from '../support/playground-page.js';

const current = usePageTest('6-spanish');

describe('playground page: Spanish', () => {
  it('answers the es-MX person in Spanish', async () => {
    const test = current();
    const { page } = test.browser;
    await test.openAs('Mariana');
    await page.getByRole('combobox', { name: 'Be anyone' }).locator('option:checked', { hasText: 'es-MX' }).waitFor({
      state: 'attached',
    });
    const composer = page.getByRole('textbox', { name: 'Message #operations' });

    await composer.fill('/campaign ayuda');
    await composer.press('Enter');
    const help = page.locator('.ephemeral', { hasText: 'Uso:' }).last();
    await help.getByText('/campaign <comando>').waitFor();
    expect(await help.textContent()).not.toContain('Usage:');

    await composer.fill('/campaign volar');
    await composer.press('Enter');
    await page.locator('.ephemeral', { hasText: 'no es un comando de /campaign' }).getByText('volar').waitFor();

    await composer.fill('/campaign create');
    await composer.press('Enter');
    const modal = page.getByRole('dialog', { name: 'Nueva campaña' });
    await modal.getByText('Zona horaria', { exact: true }).waitFor();
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await modal.waitFor({ state: 'hidden' });

    await composer.fill('/campaign show 999');
    await composer.press('Enter');
    await page.locator('.ephemeral', { hasText: 'No se encontró la campaña 999' }).waitFor();
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
