/**
 * The upload's pure builders, in both languages: the modal, the progress message and the summary stay inside Block
 * Kit's limits with extreme inputs, escape outside text, and read right (bar, percent, counts, failure groups).
 */
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import {
  countryLabel,
  decodeUploadMetadata,
  encodeUploadMetadata,
  uploadCountries,
  uploadCheckingView,
  uploadLoadingView,
  uploadModalView,
  uploadProblemView,
  uploadStartedView,
} from '../../src/render/upload-modal.js';
import {
  failureReportComment,
  failureReportFileName,
  failureReportHeader,
  percent,
  progressBar,
  uploadProgressMessage,
  uploadStoppedDm,
  uploadSummaryMessage,
  type UploadStats,
} from '../../src/render/upload-progress.js';
import { failureGroups } from '../../src/slack/upload/runner.js';
import { validateBlocks, validateView } from '../../src/emulator/block-kit-limits.js';

const en = translator('en');
const es = translator('es');
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
    expect(percent(0.999, false, en)).toBe('99%');
    expect(percent(1, false, en)).toBe('99%');
    expect(percent(1, true, en)).toBe('100%');
    expect(percent(0.426, false, en)).toBe('42%');
    expect(percent(0.426, false, es)).toBe('42 %');
  });
});

describe.each(LOCALES)('progress message and summary (%s)', (locale) => {
  const t = translator(locale);
  it('stay within Block Kit limits and escape names from outside', () => {
    const progress = uploadProgressMessage(
      { ...heading, stats, fraction: 0.42, resumedAfterRow: 5000, note: `busy ${nasty}` },
      t,
    );
    const waiting = uploadProgressMessage(
      { ...heading, stats, waiting: { reason: 'busy', running: 3, ahead: 1 }, resumedAfterRow: 0 },
      t,
    );
    const summary = uploadSummaryMessage(
      {
        ...heading,
        stats,
        stopReason: `Stopped ${nasty}`,
        failureGroups: failureGroups([], 567),
        report: 'attached',
        resumedAfterRow: 5000,
        elapsedMs: 93_000,
      },
      t,
    );
    const dm = uploadStoppedDm({ ...heading, stopReason: `Stopped ${nasty}` }, t);
    for (const m of [progress, waiting, summary, dm]) {
      expect(validateBlocks(m.blocks)).toEqual([]);
      const all = JSON.stringify(m);
      expect(all).not.toContain('<!channel>');
      expect(all).not.toContain('<@U123>');
      expect(all).toContain('&lt;!channel&gt;');
      expect(m.text.length).toBeLessThanOrEqual(3000);
    }
    expect(JSON.stringify(progress.blocks)).toContain(locale === 'en' ? '42%' : '42 %');
    expect(JSON.stringify(progress.blocks)).toContain('<@U0ADMIN>');
    expect(JSON.stringify(summary.blocks)).toContain(locale === 'en' ? '1,100,000 added' : '1,100,000 agregados');
    expect(JSON.stringify(summary.blocks)).toContain(locale === 'en' ? 'Took 1m 33s' : 'Tardó 1 min 33 s');
  });

  it('read as they do (snapshots of a finished upload with failures and a waiting one)', () => {
    const plain = { ...heading, fileName: 'contactos.xlsx', campaignName: 'Renovaciones' };
    const small: UploadStats = {
      rowsRead: 3,
      sent: 2,
      created: 1,
      updated: 0,
      skipped: 1,
      rejected: 1,
      serviceFailed: 0,
    };
    const invalid = { kind: 'rejected' as const, rowNumber: 3, original: '123', reason: 'too short' };
    expect(
      uploadSummaryMessage(
        {
          ...plain,
          stats: small,
          failureGroups: failureGroups([invalid], 0),
          report: 'attached',
          reportTo: 'thread',
          elapsedMs: 4_000,
        },
        t,
      ),
    ).toMatchSnapshot();
    expect(
      uploadProgressMessage({ ...plain, stats: small, waiting: { reason: 'campaign', fileName: 'otro.csv' } }, t),
    ).toMatchSnapshot();
    expect(
      failureReportComment('contactos.xlsx', 1, { campaignName: 'Renovaciones', campaignId: 7 }, t),
    ).toMatchSnapshot();
  });
});

describe('the failure report is in the uploader’s language', () => {
  it.each([
    ['en', 'row,value,reason', 'failed-rows-contactos.csv'],
    ['es', 'fila,valor,motivo', 'filas-no-agregadas-contactos.csv'],
  ] as const)('%s: header %s, file %s', (locale, header, name) => {
    const t = translator(locale);
    expect(failureReportHeader(t)).toBe(header);
    expect(failureReportFileName('contactos.xlsx', t)).toBe(name);
  });
  it('a capped report says how many rows are not listed', () => {
    const text = failureReportComment('f.csv', 5000, { listed: 100 }, es);
    expect(text).toContain('5,000 filas de *f.csv* no se agregaron');
    expect(text).toContain('El CSV lista las primeras 100; las otras 4,900 no aparecen');
  });
});

describe('failure groups', () => {
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
    const groups = Object.fromEntries(failureGroups(rejected, 2).map((g) => [g.kind, g.count]));
    expect(groups).toEqual({ invalid: 1, empty: 1, repeated: 1, broken: 1, tooLong: 1, service: 2 });
    const line = (t: typeof en) =>
      JSON.stringify(
        uploadSummaryMessage({ ...heading, stats, failureGroups: failureGroups(rejected, 2), report: 'none' }, t)
          .blocks,
      );
    expect(line(en)).toContain(
      '*Not added:* 1 number not valid · 1 row without a number · 1 repeated in the file · 1 row with more values than columns · 1 row with a value too long · 2 refused by the outreach service',
    );
    expect(line(es)).toContain(
      '*No agregados:* 1 número no válido · 1 fila sin número · 1 repetido en el archivo · 1 fila con más valores que columnas · 1 fila con un valor demasiado largo · 2 rechazados por el servicio de outreach',
    );
  });

  it('names the failure report after the file', () => {
    expect(failureReportFileName('contactos.xlsx', en)).toBe('failed-rows-contactos.csv');
    expect(failureReportFileName('a/b:c.csv', en)).toBe('failed-rows-a_b_c.csv');
    expect(failureReportFileName('.csv', en)).toBe('failed-rows-contacts.csv');
  });
});

describe.each(LOCALES)('the modal (%s)', (locale) => {
  const t = translator(locale);
  it('is a valid modal with the file input in block `file` and the campaign in private_metadata', () => {
    const view = uploadModalView(
      {
        campaign: { id: 12, name: nasty, status: 'ready' },
        defaultCountry: 'MX',
        maxBytes: 10 * 1024 * 1024,
        maxSizeText: '10 MB',
        postTo: 'C0OPS',
      },
      t,
    );
    expect(validateView(view, 'modal')).toEqual([]);
    expect(view).toMatchSnapshot();
    const blocks = JSON.stringify(view.blocks);
    expect(blocks).toContain('"block_id":"file"');
    expect(blocks).toContain('"type":"file_input"');
    expect(blocks).toContain('"filetypes":["csv","tsv","txt","xlsx"]');
    expect(decodeUploadMetadata(view.private_metadata)).toEqual({ campaignId: 12, postTo: 'C0OPS' });
  });

  it('offers the configured default country first when it is not among the usual ones', () => {
    expect(uploadCountries('JP')[0]).toBe('JP');
    expect(uploadCountries('MX').filter((c) => c === 'MX')).toHaveLength(1);
    expect(countryLabel('MX', en)).toBe('🇲🇽 Mexico (+52)');
    expect(countryLabel('MX', es)).toBe('🇲🇽 México (+52)');
  });

  it('the views around it are valid modals', () => {
    for (const v of [
      uploadLoadingView(12, t),
      uploadCheckingView('ext-1', nasty, t),
      uploadCheckingView('ext-1', undefined, t),
      uploadStartedView('ext-1', nasty, { channelId: 'C0OPS' }, t),
      uploadStartedView(undefined, nasty, 'dm', t),
    ]) {
      expect(validateView(v, 'modal')).toEqual([]);
      expect(JSON.stringify(v)).not.toContain('<!channel>');
    }
  });

  it('reads back only well-formed metadata', () => {
    expect(decodeUploadMetadata(encodeUploadMetadata({ campaignId: 3 }))).toEqual({ campaignId: 3 });
    expect(decodeUploadMetadata('{"campaignId":"3"}')).toBeUndefined();
    expect(decodeUploadMetadata('not json')).toBeUndefined();
    expect(decodeUploadMetadata('{"campaignId":3,"postTo":"<!here>"}')).toEqual({ campaignId: 3 });
  });

  it('shows a refusal escaped', () => {
    const v = uploadProblemView(`Campaign "<b>" is finished`, {}, t);
    expect(validateView(v, 'modal')).toEqual([]);
    expect(JSON.stringify(v.blocks)).toContain('&lt;b&gt;');
  });
});
