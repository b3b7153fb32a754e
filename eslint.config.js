import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * What may import what inside src/ (docs/architecture.md): each zone names a folder or file and the only parts of src/
 * it may import. Anything else is a lint error, so no import runs from a lower layer to a higher one.
 */
const layer = (target, mayImport, why) => ({
  target,
  from: './src',
  except: mayImport,
  message: `${why} (docs/architecture.md, "The layers").`,
});
/** The Slack layer above its middleware: the features, the route table and the Bolt app. */
const ABOVE_MIDDLEWARE = [
  'campaigns',
  'campaign-form',
  'upload',
  'home',
  'watch',
  'try',
  'language',
  'reports',
  'routes.ts',
  'app.ts',
].map((part) => `./src/slack/${part}`);
const zones = [
  layer('./src/outreach', ['./outreach'], 'The service client imports nothing else of the app'),
  layer('./src/store', ['./store'], 'The store imports nothing else of the app'),
  layer('./src/log.ts', ['./log.ts'], 'The logger imports nothing else of the app'),
  layer('./src/health.ts', ['./health.ts'], 'The health checks import nothing else of the app'),
  layer('./src/bounded.ts', ['./bounded.ts'], 'The bounded map and set import nothing else of the app'),
  layer('./src/worker-script.ts', ['./worker-script.ts'], 'Starting a worker thread imports nothing else of the app'),
  layer(
    './src/contacts',
    ['./contacts', './outreach', './worker-script.ts'],
    'Reading contact files knows only the service (and how to start its thread)',
  ),
  layer('./src/sim', ['./sim', './outreach'], 'The simulator knows only the service'),
  layer('./src/emulator', ['./emulator'], 'The Slack emulator imports nothing of the app (node built-ins and ws)'),
  {
    // Only the playground and the entry point wire the emulator: the app talks to it through Slack's protocols.
    target: readdirSync(`${root}/src`)
      .filter((name) => !['emulator', 'playground', 'index.ts'].includes(name))
      .map((name) => `./src/${name}`),
    from: './src/emulator',
    message: 'Only src/playground/ and src/index.ts import the Slack emulator (docs/architecture.md, "The layers").',
  },
  {
    target: readdirSync(`${root}/src`)
      .filter((name) => !['playground', 'index.ts'].includes(name))
      .map((name) => `./src/${name}`),
    from: './src/playground',
    message: 'Only src/index.ts starts the playground (docs/architecture.md, "The layers").',
  },
  layer(
    './src/reports',
    ['./reports', './outreach', './store', './i18n', './clock.ts', './log.ts', './worker-script.ts'],
    'Reports read the service and keep their schedules in the store; nothing of Slack',
  ),
  layer('./src/i18n', ['./i18n'], 'The message catalogs and translator import nothing else of the app'),
  layer(
    './src/playground/web',
    ['./playground/web', './playground/api.ts'],
    'The page in the browser knows only the page protocol (src/playground/api.ts)',
  ),
  layer(
    './src/config.ts',
    ['./config.ts', './outreach', './contacts', './i18n/locale.ts'],
    'The settings know only the service (and the languages)',
  ),
  layer('./src/metrics.ts', ['./metrics.ts', './outreach'], 'Metrics know only the service'),
  layer(
    './src/render',
    ['./render', './outreach', './contacts/libphonenumber.ts', './i18n', './reports/figures.ts'],
    'Renderers are pure Block Kit: the service and its rules, the catalogs, nothing of Slack, watch, the store or the settings',
  ),
  layer(
    './src/watch',
    ['./watch', './outreach', './store', './render', './i18n', './log.ts', './bounded.ts'],
    "Watch's core is handed Slack through its ports (src/watch/poster.ts, ports.ts) and imports nothing of it",
  ),
  {
    target: [
      './src/slack/platform.ts',
      './src/slack/grammar.ts',
      './src/slack/retry-policy.ts',
      './src/slack/audit.ts',
      './src/slack/permissions.ts',
      './src/slack/members.ts',
      './src/slack/lookup-cache.ts',
      './src/slack/reply.ts',
      './src/slack/auth-monitor.ts',
      './src/slack/message-lookup.ts',
    ],
    from: ['./src/slack/deps.ts', './src/slack/middleware', ...ABOVE_MIDDLEWARE],
    message: "The Slack layer's base files stand below the middleware and the features (docs/architecture.md).",
  },
  {
    target: ['./src/slack/deps.ts', './src/slack/middleware'],
    from: ABOVE_MIDDLEWARE,
    message: 'The middleware stands below the features and the route table (docs/architecture.md).',
  },
  {
    target: './src/slack',
    from: ['./src/slack/routes.ts', './src/slack/app.ts'],
    except: [],
    message: 'Only src/main.ts wires the app together: nothing in src/slack imports the route table or the Bolt app.',
  },
  {
    target: [
      './src/slack',
      './src/watch',
      './src/render',
      './src/outreach',
      './src/contacts',
      './src/store',
      './src/sim',
      './src/reports',
    ],
    from: './src/main.ts',
    message: 'The composition root is imported by src/index.ts (and tests) only.',
  },
];

/** no-restricted-imports per area (one rule: a later config object would replace an earlier one's options). */
const LISTENERS = {
  group: ['**/listeners.js'],
  message:
    "A feature's listeners.ts is imported by src/slack/routes.ts only: put shared logic beside it in a file of its own.",
};
const restrictedImports = (paths, patterns) => ['error', { paths, patterns: [...patterns, LISTENERS] }];
const SLACK_CLIENTS = ['@slack/bolt', '@slack/web-api'].map((name) => ({
  name,
  message: 'Renderers know Block Kit (@slack/types), nothing of Bolt or the Web API.',
}));

/** What would parse a string as markup in the page: forbidden there, so nothing from outside can become markup. */
const markup = (selector, what) => ({
  selector,
  message: `${what} parses markup: build elements with h() from src/playground/web/dom.ts, text as text nodes.`,
});
const PAGE_MARKUP = [
  markup('MemberExpression[property.name=/^(innerHTML|outerHTML)$/]', 'innerHTML/outerHTML'),
  markup('MemberExpression[computed=true][property.value=/^(innerHTML|outerHTML)$/]', 'innerHTML/outerHTML'),
  markup('MemberExpression[property.name=/^(insertAdjacentHTML|createContextualFragment|setHTMLUnsafe)$/]', 'It'),
  markup("MemberExpression[object.name='document'][property.name=/^(write|writeln)$/]", 'document.write'),
  markup("NewExpression[callee.name='DOMParser']", 'DOMParser'),
  markup(
    "CallExpression[callee.property.name='setAttribute'][arguments.0.value=/^(on|style$|srcdoc$)/i]",
    'An inline handler or style',
  ),
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'vendor/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // Type-aware rules: every TypeScript file is read with the type information of its tsconfig.
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Import boundaries and loops.
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript settings of import-x (which parser reads a .ts import), with the TypeScript resolver (`.js`
      // specifiers name `.ts` files).
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-imports': restrictedImports([], []),
      // A function reads at once: one over 80 lines says why, on an eslint-disable line above it.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  { files: ['src/render/**/*.ts'], rules: { 'no-restricted-imports': restrictedImports(SLACK_CLIENTS, []) } },
  {
    files: ['src/watch/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        [],
        [
          {
            group: ['@slack/*'],
            message: "Watch's core imports nothing of Slack: it is handed ports (src/watch/ports.ts).",
          },
        ],
      ),
    },
  },
  { files: ['src/slack/routes.ts'], rules: { 'no-restricted-imports': 'off' } },
  // The page in the browser: text from outside reaches the DOM only as text, through src/playground/web/dom.ts.
  { files: ['src/playground/web/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...PAGE_MARKUP] } },
);
