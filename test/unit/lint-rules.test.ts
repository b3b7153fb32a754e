/**
 * The lint config keeps the layers apart and the promises handled (docs/architecture.md): ESLint, run with the
 * project's own eslint.config.js on small snippets placed in the layers, reports a cross-layer import, a Slack client
 * in the renderers or in watch's core, a listener file imported outside the route table, an import loop and a
 * floating promise; and says nothing about the same code where it is allowed.
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROBE = 'lint-probe.ts';

// The probes are not files of the project: they get a default TypeScript project with the project's tsconfig.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: [`**/${PROBE}`],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [`src/*/${PROBE}`, `src/slack/*/${PROBE}`, `src/${PROBE}`],
          defaultProject: 'tsconfig.json',
        },
      },
    },
  },
});

async function rulesFired(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  const messages = result?.messages ?? [];
  // A snippet that does not parse would pass every rule: make that a failure of its own.
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.map((m) => m.ruleId ?? '');
}

describe('lint rules', () => {
  it('a renderer importing the Slack layer, or Bolt, fails', async () => {
    const fired = await rulesFired(
      `src/render/${PROBE}`,
      "import type { AppDeps } from '../slack/deps.js';\nimport type { App } from '@slack/bolt';\nexport type X = [AppDeps, App];\n",
    );
    expect(fired).toContain('import-x/no-restricted-paths');
    expect(fired).toContain('no-restricted-imports');
  }, 120_000);

  it("watch's core importing Slack's Web API or the Slack layer fails", async () => {
    const fired = await rulesFired(
      `src/watch/${PROBE}`,
      "import type { WebClient } from '@slack/web-api';\nimport { platformError } from '../slack/platform.js';\nexport const x: [WebClient?, unknown?] = [undefined, platformError];\n",
    );
    expect(fired).toContain('no-restricted-imports');
    expect(fired).toContain('import-x/no-restricted-paths');
  }, 120_000);

  it('the service client importing anything else of the app fails', async () => {
    const fired = await rulesFired(
      `src/outreach/${PROBE}`,
      "import { createLogger } from '../log.js';\nexport const x = createLogger;\n",
    );
    expect(fired).toEqual(['import-x/no-restricted-paths']);
  }, 120_000);

  it("a feature importing the route table or another feature's listeners fails", async () => {
    const fired = await rulesFired(
      `src/slack/home/${PROBE}`,
      "import { routes } from '../routes.js';\nimport { help } from '../campaigns/listeners.js';\nexport const x = [routes, help];\n",
    );
    expect(fired).toContain('import-x/no-restricted-paths');
    expect(fired).toContain('no-restricted-imports');
  }, 120_000);

  it('the Slack emulator importing the app fails, and so does the app importing the emulator', async () => {
    const emulator = await rulesFired(
      `src/emulator/${PROBE}`,
      "import { createLogger } from '../log.js';\nexport const x = createLogger;\n",
    );
    expect(emulator).toEqual(['import-x/no-restricted-paths']);
    const app = await rulesFired(
      `src/slack/home/${PROBE}`,
      "import { startFakeSlack } from '../../emulator/fake-slack.js';\nexport const x = startFakeSlack;\n",
    );
    expect(app).toEqual(['import-x/no-restricted-paths']);
    const playground = await rulesFired(
      `src/playground/${PROBE}`,
      "import { startFakeSlack } from '../emulator/fake-slack.js';\nexport const x = startFakeSlack;\n",
    );
    expect(playground).toEqual([]);
  }, 120_000);

  it('an import loop fails', async () => {
    // state.ts is imported by service.ts: state.ts importing service.ts back closes a loop.
    const code = `${readFileSync(join(root, 'src/watch/state.ts'), 'utf8')}\nimport { WatchService } from './service.js';\nexport const loop = WatchService;\n`;
    const [result] = await eslint.lintText(code, { filePath: join(root, 'src/watch/state.ts') });
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  }, 120_000);

  it('a floating promise, and a promise where a void callback is expected, fail', async () => {
    const fired = await rulesFired(
      `src/slack/${PROBE}`,
      'export async function save(): Promise<void> {}\nexport function later(): void {\n  save();\n  [1].forEach(async () => save());\n}\n',
    );
    expect(fired).toContain('@typescript-eslint/no-floating-promises');
    expect(fired).toContain('@typescript-eslint/no-misused-promises');
  }, 120_000);

  it('the same imports where the layers allow them pass', async () => {
    expect(
      await rulesFired(
        `src/slack/home/${PROBE}`,
        "import type { AppDeps } from '../deps.js';\nimport { loadCallsPage } from '../campaigns/pages.js';\nimport type { App } from '@slack/bolt';\nexport type X = [AppDeps, App, typeof loadCallsPage];\n",
      ),
    ).toEqual([]);
    expect(
      await rulesFired(
        `src/watch/${PROBE}`,
        "import { callMessage } from '../render/call-message.js';\nexport async function save(): Promise<void> {}\nexport async function later(): Promise<void> {\n  await save();\n}\nexport const x = callMessage;\n",
      ),
    ).toEqual([]);
  }, 120_000);
});
