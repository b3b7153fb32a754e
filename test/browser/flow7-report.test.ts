/**
 * Flow 7 of the playground (issue 24), through the page only: `/campaign report 1` posts the campaign's report in the
 * channel, and its chart — a PNG file shared with the message — is drawn on the page as an image from the
 * playground's own URL.
 */
import { describe, expect, it } from '@jest/globals';
import { usePageTest } from '../support/playground-page.js';

const current = usePageTest('7-report');

describe('playground page: a report', () => {
  it('shows the chart in the channel', async () => {
    const test = current();
    const { page } = test.browser;
    await test.openAs('Mariana');
    const composer = page.getByRole('textbox', { name: 'Message #operations' });
    await composer.fill('/campaign report 1');
    await composer.press('Enter');
    const chart = page.locator('.messages .file-image img').first();
    await chart.waitFor();
    expect(await chart.getAttribute('src')).toMatch(/\/playground\/files\//);
    // Drawn: the browser decoded the PNG (decode() fails for an image that does not load), at its own size.
    type Image = { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
    const size = await chart.evaluate(async (img) => {
      const image = img as unknown as Image;
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    });
    expect(size[0]).toBeGreaterThan(100);
    expect(size[1]).toBeGreaterThan(100);
    await chart.scrollIntoViewIfNeeded();
    expect(test.browser.pageErrors).toEqual([]);
  }, 240_000);
});
