/**
 * The page in the browser never parses markup (issue 24, "Text from outside is never markup"): ESLint, run with the
 * project's own eslint.config.js on snippets placed in src/playground/web/, reports innerHTML, outerHTML,
 * insertAdjacentHTML, document.write, DOMParser and inline handlers or styles, and an import of the app from the
 * page; and says nothing about building elements through the page's one renderer.
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROBE = 'src/playground/web/lint-probe.ts';

const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: [PROBE],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: [PROBE], defaultProject: 'src/playground/web/tsconfig.json' },
      },
    },
  },
});

async function messages(code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(root, PROBE) });
  const all = result?.messages ?? [];
  expect(all.filter((m) => m.fatal)).toEqual([]);
  return all;
}

const MARKUP_SINKS = [
  "document.body.innerHTML = '<b>x</b>';",
  "document.body.outerHTML = '<b>x</b>';",
  "const key = 'innerHTML'; document.body['innerHTML'] = key;",
  "document.body.insertAdjacentHTML('beforeend', '<b>x</b>');",
  "document.write('<b>x</b>');",
  "new DOMParser().parseFromString('<b>x</b>', 'text/html');",
  "document.body.setAttribute('onclick', 'alert(1)');",
  "document.body.setAttribute('style', 'color: red');",
  "document.createRange().createContextualFragment('<b>x</b>');",
];

describe('the page lint rules', () => {
  it.each(MARKUP_SINKS)(
    '%s fails',
    async (code) => {
      const fired = await messages(`${code}\nexport {};\n`);
      expect(fired.map((m) => m.ruleId)).toContain('no-restricted-syntax');
      expect(fired.find((m) => m.ruleId === 'no-restricted-syntax')?.message).toMatch(/parses markup|inline/i);
    },
    120_000,
  );

  it("the page importing the app's modules fails", async () => {
    const fired = await messages(
      "import { escapeMrkdwn } from '../../render/mrkdwn.js';\nexport const x = escapeMrkdwn;\n",
    );
    expect(fired.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');
  }, 120_000);

  it('building elements through the renderer and importing the protocol pass', async () => {
    const fired = await messages(
      "import type { PageState } from '../api.js';\nimport { h } from './dom.js';\n" +
        "export const x = (s: PageState) => h('p', { attrs: { title: s.team.name } }, s.team.name);\n" +
        "document.body.textContent = 'text';\n",
    );
    expect(fired).toEqual([]);
  }, 120_000);
});
