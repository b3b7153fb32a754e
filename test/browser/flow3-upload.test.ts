/**
 * Flow 3 of the playground (issue 24), through the page only: the admin uploads a CSV, then an XLSX, through the
 * upload modal's file input (a file chosen from disk, hosted as a Slack file): the progress message is updated in
 * place until its summary, and the rows not added come back as a CSV file in the admin's DM with the app.
 */
import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { translator } from '../../src/i18n/translator.js';
import { usePageTest } from '../support/playground-page.js';

const es = translator('es');
const current = usePageTest('3-upload');

const CSV = 'Nombre,Celular\nAna Prueba,55 1234 5678\nBeto Prueba,55 1234 5679\nSin Número,123\n';

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contactos');
  sheet.addRow(['Nombre', 'Celular']);
  sheet.addRow(['Carla Libro', '55 2234 5678']);
  sheet.addRow(['Dario Libro', 'no es un número']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('playground page: uploading contacts', () => {
  it('runs the real upload path for a CSV and an XLSX chosen from disk', async () => {
    const test = current();
    const { page } = test.browser;
    await test.openAs('Mariana');
    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    const files = [
      { name: 'contactos.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV), added: 2 },
      {
        name: 'contactos.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await workbook(),
        added: 1,
      },
    ];
    for (const file of files) {
      await composer.fill('/campaign upload 3');
      await composer.press('Enter');
      const modal = page.getByRole('dialog', { name: es.t('uploadModal.title') });
      await modal.getByLabel(es.t('uploadModal.file')).setInputFiles(file);
      await modal.getByText(`Attached ${file.name}`).waitFor();
      await modal.getByRole('button', { name: es.t('uploadModal.submit') }).click();
      await modal.waitFor({ state: 'hidden' });
      // One message for the upload, updated in place until its summary (the channel's language: English).
      const progress = page.locator('.messages .msg', { hasText: file.name });
      await progress.filter({ hasText: `Upload finished: ${file.name}` }).waitFor();
      expect(await progress.count()).toBe(1);
      await progress.getByText('(edited)').waitFor();
      expect(await progress.textContent()).toContain(
        `${file.added} added, 0 updated, 0 already in the campaign, 1 not added.`,
      );
    }
    // The rows not added, as a CSV file in the admin's DM with the app, one per upload.
    await page.getByRole('button', { name: /^Outreach, app$/ }).click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    const reports = page.locator('.messages .files a', { hasText: /\.csv$/ });
    await reports.nth(1).waitFor();
    const rejected = await Promise.all(
      [0, 1].map(async (n) => (await page.request.get((await reports.nth(n).getAttribute('href')) ?? '')).text()),
    );
    // Each names the row and the number refused (row 4 of the CSV, row 3 of the workbook), in the admin's Spanish.
    expect(rejected.join('\n')).toMatch(/^4,123,demasiado corto/m);
    expect(rejected.join('\n')).toMatch(/^3,no es un número,sin dígitos/m);
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
