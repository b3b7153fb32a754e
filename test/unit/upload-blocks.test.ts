/**
 * The upload's pure builders: the modal, the progress message and the summary stay inside Block Kit's limits with
 * extreme inputs, escape outside text, and read right (bar, percent, counts, failure groups).
 */
import {
  countryLabel,
  decodeUploadMetadata,
  encodeUploadMetadata,
  uploadCountries,
  uploadModalView,
  uploadProblemView,
} from '../../src/render/upload-modal.js';
import {
  failureReportFileName,
  percent,
  progressBar,
  uploadProgressMessage,
  uploadSummaryMessage,
  type UploadStats,
} from '../../src/render/upload-progress.js';
import { failureGroups } from '../../src/slack/upload/runner.js';
import { validateBlocks, validateView } from '../support/blockKitLimits.js';

const nasty = `<!channel> & <@U123> ${'x'.repeat(400)}`;
const heading = {
  fileName: `${nasty}.csv`,
  campaignId: 7,
  campaignName: nasty,
  userId: 'U0ADMIN',
  ifDuplicate: 'skip' as const,
};
const stats: UploadStats = {
  rowsRead: 1_234_567,
  sent: 1_200_000,
  created: 1_100_000,
  updated: 0,
  skipped: 100_000,
  rejected: 34_000,
  serviceFailed: 567,
};

describe('progress bar and percent', () => {
  it('fills in proportion, clamped', () => {
    expect(progressBar(0)).toBe('░'.repeat(20));
    expect(progressBar(0.5)).toBe('▓'.repeat(10) + '░'.repeat(10));
    expect(progressBar(1)).toBe('▓'.repeat(20));
    expect(progressBar(7)).toBe('▓'.repeat(20));
    expect(progressBar(Number.NaN)).toBe('░'.repeat(20));
  });

  it('never says 100% before the end', () => {
    expect(percent(0.999)).toBe('99%');
    expect(percent(1)).toBe('99%');
    expect(percent(1, true)).toBe('100%');
    expect(percent(0.426)).toBe('42%');
  });
});

describe('progress message and summary', () => {
  it('stay within Block Kit limits and escape names from outside', () => {
    const progress = uploadProgressMessage({
      ...heading,
      stats,
      fraction: 0.42,
      resumedAfterRow: 5000,
      note: `busy ${nasty}`,
    });
    const summary = uploadSummaryMessage({
      ...heading,
      stats,
      stopReason: `Stopped ${nasty}`,
      failureGroups: failureGroups([], 567),
      report: 'attached',
      resumedAfterRow: 5000,
      elapsedMs: 93_000,
    });
    for (const m of [progress, summary]) {
      expect(validateBlocks(m.blocks)).toEqual([]);
      const all = JSON.stringify(m);
      expect(all).not.toContain('<!channel>');
      expect(all).not.toContain('<@U123>');
      expect(all).toContain('&lt;!channel&gt;');
      expect(m.text.length).toBeLessThanOrEqual(3000);
    }
    expect(JSON.stringify(progress.blocks)).toContain('42%');
    expect(JSON.stringify(progress.blocks)).toContain('<@U0ADMIN>');
    expect(JSON.stringify(summary.blocks)).toContain('1,100,000 added');
    expect(JSON.stringify(summary.blocks)).toContain('Took 1m 33s');
  });

  it('groups failed rows by kind', () => {
    const rejected = [
      { kind: 'rejected' as const, rowNumber: 2, original: '', reason: 'empty number' },
      { kind: 'rejected' as const, rowNumber: 3, original: '123', reason: 'too short' },
      { kind: 'rejected' as const, rowNumber: 4, original: '5512345678', reason: 'duplicate of row 2 (same number)' },
      { kind: 'rejected' as const, rowNumber: 5, original: '55', reason: 'has values beyond the 2 columns' },
      {
        kind: 'rejected' as const,
        rowNumber: 6,
        original: '5512345670',
        reason: 'the value in column "Notas" has 9,000 characters; a cell may have at most 5,000: shorten it',
      },
    ];
    const groups = Object.fromEntries(failureGroups(rejected, 2).map((g) => [g.label, g.count]));
    expect(groups).toEqual({
      'number not valid': 1,
      'row without a number': 1,
      'repeated in the file': 1,
      'row with more values than columns': 1,
      'row with a value too long': 1,
      'refused by the outreach service': 2,
    });
  });

  it('names the failure report after the file', () => {
    expect(failureReportFileName('contactos.xlsx')).toBe('failed-rows-contactos.csv');
    expect(failureReportFileName('a/b:c.csv')).toBe('failed-rows-a_b_c.csv');
    expect(failureReportFileName('.csv')).toBe('failed-rows-contacts.csv');
  });
});

describe('the modal', () => {
  it('is a valid modal with the file input in block `file` and the campaign in private_metadata', () => {
    const view = uploadModalView({
      campaign: { id: 12, name: nasty, status: 'ready' },
      defaultCountry: 'MX',
      maxBytes: 10 * 1024 * 1024,
      maxSizeText: '10 MB',
      postTo: 'C0OPS',
    });
    expect(validateView(view, 'modal')).toEqual([]);
    const blocks = JSON.stringify(view.blocks);
    expect(blocks).toContain('"block_id":"file"');
    expect(blocks).toContain('"type":"file_input"');
    expect(blocks).toContain('"filetypes":["csv","tsv","txt","xlsx"]');
    expect(decodeUploadMetadata(view.private_metadata)).toEqual({ campaignId: 12, postTo: 'C0OPS' });
  });

  it('offers the configured default country first when it is not among the usual ones', () => {
    expect(uploadCountries('JP')[0]).toBe('JP');
    expect(uploadCountries('MX').filter((c) => c === 'MX')).toHaveLength(1);
    expect(countryLabel('MX')).toBe('🇲🇽 Mexico (+52)');
  });

  it('reads back only well-formed metadata', () => {
    expect(decodeUploadMetadata(encodeUploadMetadata({ campaignId: 3 }))).toEqual({ campaignId: 3 });
    expect(decodeUploadMetadata('{"campaignId":"3"}')).toBeUndefined();
    expect(decodeUploadMetadata('not json')).toBeUndefined();
    expect(decodeUploadMetadata('{"campaignId":3,"postTo":"<!here>"}')).toEqual({ campaignId: 3 });
  });

  it('shows a refusal escaped', () => {
    const v = uploadProblemView(`Campaign "<b>" is finished`);
    expect(validateView(v, 'modal')).toEqual([]);
    expect(JSON.stringify(v.blocks)).toContain('&lt;b&gt;');
  });
});
