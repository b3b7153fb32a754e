/**
 * Why a file could not be read, in the reader's language: the contacts pipeline (FileFormatError) and the download
 * from Slack (SlackFileError) carry their sentence as data (`problem`), turned into text here. English equals the
 * error's `message` (which stays English for logs, the job record and audit). Plain text: the caller escapes it.
 */
import { FileFormatError, type FileProblem } from '../../contacts/errors.js';
import type { MessageKey, Translator } from '../../i18n/translator.js';
import { SlackFileError, type SlackFileProblem } from './download.js';

const FILE_PROBLEM_KEYS: Record<FileProblem['kind'], MessageKey> = {
  binary: 'fileProblem.binary',
  emptyBytes: 'fileProblem.emptyBytes',
  openDocument: 'fileProblem.openDocument',
  emptyZip: 'fileProblem.emptyZip',
  oldExcel: 'fileProblem.oldExcel',
  pdf: 'fileProblem.pdf',
  webPage: 'fileProblem.webPage',
  xmlFile: 'fileProblem.xmlFile',
  noWorksheet: 'fileProblem.noWorksheet',
  tooComplex: 'fileProblem.tooComplex',
  passwordProtected: 'fileProblem.passwordProtected',
  noRows: 'fileProblem.noRows',
  noRowsInSheet: 'fileProblem.noRowsInSheet',
  workbookTooLarge: 'fileProblem.workbookTooLarge',
  tooManyColumns: 'fileProblem.tooManyColumns',
  noContacts: 'fileProblem.noContacts',
  quoteNotClosed: 'fileProblem.quoteNotClosed',
  recordTooLong: 'fileProblem.recordTooLong',
  textAfterQuote: 'fileProblem.textAfterQuote',
  csvUnreadable: 'fileProblem.csvUnreadable',
  zipManyParts: 'fileProblem.zipManyParts',
  unpacksTooLarge: 'fileProblem.unpacksTooLarge',
  lyingPart: 'fileProblem.lyingPart',
  unreadableWorkbook: 'fileProblem.unreadableWorkbook',
  noPhoneColumn: 'fileProblem.noPhoneColumn',
};

const SLACK_FILE_KEYS: Record<SlackFileProblem['kind'], MessageKey> = {
  tooLarge: 'slackFile.tooLarge',
  badUrl: 'slackFile.badUrl',
  outsideSlack: 'slackFile.outsideSlack',
  externalLink: 'slackFile.externalLink',
  badFileId: 'slackFile.badFileId',
  deletedOrHidden: 'slackFile.deletedOrHidden',
  deleted: 'slackFile.deleted',
  unreachable: 'slackFile.unreachable',
  otherFile: 'slackFile.otherFile',
  refusedInfo: 'slackFile.refusedInfo',
  unavailable: 'slackFile.unavailable',
  redirectedAway: 'slackFile.redirectedAway',
  notAuthorized: 'slackFile.notAuthorized',
};

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** The problem with a file's content, in `t`'s language. */
export function fileProblemText(p: FileProblem, t: Translator): string {
  const values: Record<string, string | number> = { named: yesNo(p.file !== ''), file: p.file };
  switch (p.kind) {
    case 'noRowsInSheet':
      values.sheet = p.sheet;
      break;
    case 'workbookTooLarge':
      values.mb = p.mb;
      break;
    case 'tooManyColumns':
      Object.assign(values, { width: p.width, max: p.max });
      break;
    case 'noContacts':
      values.headers = p.headers;
      break;
    case 'quoteNotClosed':
    case 'textAfterQuote':
      values.row = String(p.row);
      break;
    case 'recordTooLong':
      Object.assign(values, { row: String(p.row), max: String(p.max) });
      break;
    case 'csvUnreadable':
      Object.assign(values, { row: String(p.row), detail: p.detail });
      break;
    case 'zipManyParts':
      values.parts = p.parts;
      break;
    case 'unpacksTooLarge':
      Object.assign(values, {
        max: p.max,
        part: p.part,
        declared: yesNo(p.declared !== undefined),
        total: p.declared?.total ?? '',
        partSize: p.declared?.part ?? '',
      });
      break;
    case 'lyingPart':
      values.part = p.part;
      break;
    case 'unreadableWorkbook':
      Object.assign(values, { damage: p.damage, detail: p.detail });
      break;
    case 'noPhoneColumn':
      Object.assign(values, { hasColumns: yesNo(p.found !== ''), listed: p.found, more: p.more });
      break;
    default:
      break;
  }
  return t.t(FILE_PROBLEM_KEYS[p.kind], values);
}

/** The problem with getting a file from Slack, in `t`'s language. */
export function slackFileProblemText(p: SlackFileProblem, t: Translator): string {
  const values: Record<string, string | number> = {};
  switch (p.kind) {
    case 'tooLarge':
      Object.assign(values, { file: p.file, hasSize: yesNo(p.size !== undefined), size: p.size ?? '', max: p.max });
      break;
    case 'badUrl':
      Object.assign(values, { why: p.why, detail: p.detail ?? '' });
      break;
    case 'outsideSlack':
      Object.assign(values, { host: p.host, plainHttp: yesNo(p.plainHttp) });
      break;
    case 'externalLink':
      Object.assign(values, { file: p.file, known: yesNo(p.where !== ''), where: p.where });
      break;
    case 'refusedInfo':
      values.code = p.code;
      break;
    case 'unavailable':
    case 'notAuthorized':
      Object.assign(values, { why: p.why, status: p.status !== undefined ? String(p.status) : '' });
      break;
    case 'redirectedAway':
      values.host = p.host;
      break;
    default:
      break;
  }
  return t.t(SLACK_FILE_KEYS[p.kind], values);
}

/** A FileFormatError's or SlackFileError's sentence in `t`'s language. */
export function fileErrorSentence(err: FileFormatError | SlackFileError, t: Translator): string {
  return err instanceof FileFormatError ? fileProblemText(err.problem, t) : slackFileProblemText(err.problem, t);
}
