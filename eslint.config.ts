/**
 * `npm run lint` (part of `npm test`): the dependency directions of CONTRIBUTING.md, and a few rules that
 * catch plain mistakes. docs/lint.md says how to read and change it.
 *
 * Parser: @babel/eslint-parser, with Babel's own TypeScript (and JSX) syntax plugin and no Babel
 * config or transform. The repository is on TypeScript 7, whose package has no JavaScript compiler
 * API, and typescript-eslint needs TypeScript < 6.1: it would need a second, older TypeScript
 * installed beside the one that checks the code. Babel parses the syntax without one; `tsc` checks
 * the types, so no rule here needs them.
 *
 * Directions: eslint-plugin-boundaries puts every file in an element (a layer, one feature, one
 * screen) and allows an import from one element to another only where a policy below says so.
 * The arrows cannot form a circle: each layer imports only layers below it, and the features'
 * uses of one another (FEATURE_USES) are checked for a circle when this file loads.
 */
import babelParser from '@babel/eslint-parser';
import type { ESLint, Linter } from 'eslint';
import boundaries from 'eslint-plugin-boundaries';

/**
 * Which features a feature may call (their services, queries and models, never their repositories);
 * never the other way round. A feature not listed calls no other feature.
 */
const FEATURE_USES: Record<string, string[]> = {
  totals: [],
  prices: [],
  settings: [],
  accounts: ['prices', 'totals'],
  auth: [],
  backup: ['attachments'],
  rules: ['accounts'],
  statements: ['accounts', 'rules'],
  exchange: ['accounts'],
  journal: ['accounts', 'exchange', 'totals'],
  reports: ['accounts', 'exchange', 'investments', 'prices', 'totals'],
  register: ['accounts', 'totals'],
  reconciliation: ['accounts', 'journal', 'prices', 'rules', 'statements'],
  export: ['accounts', 'attachments', 'investments', 'journal', 'prices', 'totals'],
  'journal-import': ['accounts', 'exchange', 'export', 'investments', 'journal', 'prices', 'totals'],
  schedules: ['accounts', 'journal'],
  budgets: ['accounts', 'totals', 'schedules'],
  investments: ['accounts', 'journal', 'prices'],
  attachments: ['journal', 'statements'],
  sync: ['accounts', 'journal', 'totals'],
  chat: ['accounts', 'budgets', 'investments', 'journal', 'reconciliation', 'reports', 'schedules', 'settings'],
};

/** Refuses to load when the features' uses form a circle, naming it. */
export function assertNoCircle(uses: Readonly<Record<string, readonly string[]>>): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open')
      throw new Error(`eslint.config.ts: features call each other in a circle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'open');
    for (const used of uses[name] ?? []) visit(used, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of Object.keys(uses)) visit(name, []);
}
assertNoCircle(FEATURE_USES);

/**
 * The elements, each a folder. A file belongs to the first one listed that holds it, so deeper
 * folders come first. A test file belongs to its folder's element; its file category sets it apart.
 */
const ELEMENTS = [
  // the server
  { type: 'domain-module', pattern: 'server/domain/*', capture: ['module'] },
  { type: 'domain', pattern: 'server/domain' },
  { type: 'contract', pattern: 'server/contract' },
  { type: 'db', pattern: 'server/db' },
  { type: 'http', pattern: 'server/http' },
  { type: 'llm', pattern: 'server/llm' },
  { type: 'jobs', pattern: 'server/jobs' },
  { type: 'sync', pattern: 'server/sync' },
  { type: 'relay', pattern: 'server/relay' },
  { type: 'feature', pattern: 'server/features/*', capture: ['feature'] },
  { type: 'features', pattern: 'server/features' },
  { type: 'server', pattern: 'server' },
  // the desktop shell
  { type: 'main', pattern: 'main' },
  // the renderer
  { type: 'screen', pattern: 'renderer/src/screens/*', capture: ['screen'] },
  { type: 'components', pattern: 'renderer/src/components' },
  { type: 'hooks', pattern: 'renderer/src/hooks' },
  { type: 'renderer', pattern: 'renderer/src' },
  { type: 'renderer-build', pattern: 'renderer' },
  // around the app
  { type: 'e2e-pages', pattern: 'e2e/pages' },
  { type: 'e2e-support', pattern: 'e2e/support' },
  { type: 'e2e', pattern: 'e2e' },
  { type: 'test-support', pattern: 'test/support' },
  { type: 'test', pattern: 'test' },
  { type: 'bench', pattern: 'bench' },
  // the typed client for scripts and the worked examples built on it: none of the app's code
  { type: 'client', pattern: 'client' },
  { type: 'examples', pattern: 'docs/examples' },
  { type: 'scripts', pattern: 'scripts' },
].map((descriptor) => ({ ...descriptor, partialMatch: false }));

/** Files set apart inside their element. */
const FILES = [
  { category: 'test', pattern: ['**/*.test.ts', '**/*.test.tsx'] },
  { category: 'router', pattern: 'server/features/*/*.router.ts' },
  { category: 'repository', pattern: 'server/features/*/*.repository.ts' },
  // server/: the entry points that put the server together, and the plain settings under everything
  {
    category: 'server-entry',
    pattern: ['server/index.ts', 'server/cli.ts', 'server/job-table.ts', 'server/reset-password.ts'],
  },
  { category: 'server-settings', pattern: ['server/config.ts', 'server/app-root.ts', 'server/heap.ts'] },
  // main/: the shell's one door to the server
  { category: 'server-door', pattern: 'main/server.ts' },
  // e2e/support/: the browser the end-to-end tests drive, which the benchmark's screens drive too
  { category: 'browser', pattern: 'e2e/support/browser.ts' },
  // the types generated from the OpenAPI document, and the renderer's one client over them
  { category: 'client-types', pattern: 'client/generated/*.ts' },
  { category: 'renderer-client', pattern: 'renderer/src/api/client.ts' },
  // renderer/src/: the shell that puts the screens together, above them
  {
    category: 'renderer-shell',
    pattern: [
      'renderer/src/main.tsx',
      'renderer/src/app.tsx',
      'renderer/src/app-shell.tsx',
      'renderer/src/top-bar.tsx',
    ],
  },
];

const from = (type: string | string[], more = {}) => ({ element: { type }, ...more });
const to = (type: string | string[], more = {}) => ({ to: { element: { type }, ...more } });
const inCategory = (categories: string | string[]) => ({ file: { categories } });

const SERVER_LAYERS = [
  'domain',
  'domain-module',
  'contract',
  'db',
  'http',
  'llm',
  'jobs',
  'sync',
  'relay',
  'features',
  'feature',
  'server',
];
const APP = [...SERVER_LAYERS, 'main', 'renderer', 'screen', 'components', 'hooks'];

/** [the importing files, what they may import]; anything else between elements is refused. */
const POLICIES = [
  // the server, bottom-up: each layer imports only layers before it here, and the plain settings
  // (config, app root, heap), which import nothing of the server
  [from('domain-module'), [to('domain')]],
  [from('contract'), [to('domain'), to('domain-module')]],
  // the write path logs each change with the sync protocol's clock (server/db/change-log.ts)
  [from('db'), [to('domain'), to('sync'), to('server', inCategory('server-settings'))]],
  [from('http'), [to('domain'), to('contract')]],
  [from('llm'), [to('domain')]],
  [from('jobs'), [to('domain'), to('domain-module'), to('contract'), to('db')]],
  // the sync protocol (clock, crypto, messages, the client loop, the relay's contract): no feature, no storage
  [from('sync'), [to('domain'), to('contract')]],
  // the relay: a server of its own over the sync protocol and the HTTP layer; it knows no feature
  [
    from('relay'),
    [to('domain'), to('contract'), to('db'), to('http'), to('sync'), to('server', inCategory('server-settings'))],
  ],
  [from('features'), [to('db'), to('http')]],
  [
    from('feature'),
    [
      to('domain'),
      to('domain-module'),
      to('contract'),
      to('db'),
      to('http'),
      to('llm'),
      to('jobs'),
      to('sync'),
      to('features'),
    ],
  ],
  ...Object.entries(FEATURE_USES)
    .filter(([, uses]) => uses.length > 0)
    .map(([name, uses]) => [
      { element: { type: 'feature', captured: { feature: name } } },
      [{ to: { element: { type: 'feature', captured: { feature: uses } } } }],
    ]),
  [from('server', inCategory('server-entry')), [to(SERVER_LAYERS)]],
  // main reaches the server only through main/server.ts, and there only its entry point and settings
  [from('main', inCategory('server-door')), [to('server', inCategory(['server-entry', 'server-settings']))]],
  // the renderer: its shell above the screens, the screens above the components and hooks, all of
  // them above renderer/src's own modules (api, i18n, money, router, dates); of the server, only its
  // contract; its one client (api/client.ts) takes its types from the OpenAPI document
  [from('renderer'), [to('contract')]],
  [from('renderer', inCategory('renderer-client')), [to('client', inCategory('client-types'))]],
  [from('hooks'), [to('renderer'), to('contract')]],
  [from('components'), [to('renderer'), to('hooks'), to('contract')]],
  [from('screen'), [to('renderer'), to('hooks'), to('components'), to('contract')]],
  [from('renderer', inCategory('renderer-shell')), [to('screen'), to('components'), to('hooks')]],
  // end-to-end tests: the support (fixtures) makes the page objects, which import nothing of it
  [from('e2e-support'), [to('e2e-pages'), to('test-support'), to('server'), to('main')]],
  [from('e2e'), [to('e2e-pages'), to('e2e-support'), to('test-support'), to('server'), to('main')]],
  // tests, benchmarks and scripts stand above the app and may use any of it; the test support
  // stands below the tests (it runs the server's npm scripts as main/app-build.mjs reads them). The
  // server's own tests stay within the server (and the test support).
  [from(['bench', 'scripts']), [to(APP), to('client')]],
  [from('bench'), [to('e2e-support', inCategory('browser'))]],
  [from('examples'), [to('client')]],
  [from('test-support'), [to(SERVER_LAYERS), to('main')]],
  [from('test'), [to(APP), to('test-support'), to('client'), to('scripts')]],
  [from(SERVER_LAYERS, inCategory('test')), [to(SERVER_LAYERS), to('test-support')]],
];

/** Packages and Node modules a folder must not import, with why. */
const IO_MODULES = ['express', 'kysely', 'better-sqlite3', 'electron', 'ollama', 'busboy', 'jsonwebtoken'];
const NODE_IO = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'worker_threads',
  'dgram',
  'cluster',
];

function restrictedImports(
  paths: string[],
  message: string,
  patterns: { regex: string; message: string }[] = [],
): Linter.RuleEntry {
  return ['error', { paths: paths.map((name) => ({ name, message })), patterns }];
}

/**
 * The plugin's types describe its CommonJS `exports.default`; imported from ESM, the default is
 * module.exports, which is the plugin itself.
 */
const boundariesPlugin = boundaries as unknown as ESLint.Plugin;

/** Babel's parser with its TypeScript syntax plugin (and JSX for .tsx): no Babel config, no transform. */
function typescript(plugins: string[]): Linter.LanguageOptions {
  return {
    parser: babelParser,
    parserOptions: {
      requireConfigFile: false,
      babelOptions: { babelrc: false, configFile: false, parserOpts: { plugins } },
    },
  };
}

/** Globals refused everywhere: money never passes through a binary float. */
const RESTRICTED_GLOBALS = [{ name: 'parseFloat', message: 'Money is exact: domain/money.ts reads amounts.' }];

/** Every test runs: no focused test, no test skipped for good (a skip on a condition of the machine stays). */
const TEST_SYNTAX = [
  {
    selector: "CallExpression > MemberExpression.callee[property.name='only']",
    message: 'No .only: it runs one test and silently leaves out the rest.',
  },
  {
    selector:
      "CallExpression[arguments.0.type=/Literal$/] > MemberExpression.callee[property.name='skip'][object.name=/^(it|test|describe)$/]",
    message: 'No test skipped for good: fix it or delete it.',
  },
];

/**
 * The renderer reaches the API through its one client (renderer/src/api/client.ts): no `fetch`
 * elsewhere, and an API path only as the typed route of a client call (or a type naming it), so
 * that a renamed route fails to compile.
 */
const RENDERER_FETCH = {
  name: 'fetch',
  message: 'The renderer calls the API through renderer/src/api/client.ts (openapi-fetch), not fetch.',
};
const RENDERER_SYNTAX = [
  ...TEST_SYNTAX,
  {
    selector:
      'Literal[value=/^\\/api\\//]:not(CallExpression[callee.property.name=/^(GET|PUT|POST|PATCH|DELETE)$/] > Literal.arguments:first-child, TSLiteralType > Literal)',
    message: "An API path is the typed route of a call of renderer/src/api/client.ts: api.GET('/api/…', …).",
  },
  {
    selector: 'TemplateElement[value.raw=/^\\/api\\//]',
    message: "An API path is the typed route of a call of renderer/src/api/client.ts: api.GET('/api/…', …).",
  },
  {
    selector: "MemberExpression[object.name=/^(window|globalThis|self)$/][property.name='fetch']",
    message: RENDERER_FETCH.message,
  },
];

/** Words of the job worker's own that are also features' names: a job's time and memory budget, a heap's total. */
const JOB_VOCABULARY = new Set(['budget', 'total']);

/**
 * The features' names as words in code (`statements` -> statement, `journal-import` -> journal):
 * server/jobs runs the features' jobs without knowing any of them, so none is named there.
 */
const FEATURE_WORDS = new RegExp(
  [...new Set(Object.keys(FEATURE_USES).map((name) => name.split('-')[0]!.replace(/s$/, '')))]
    .filter((word) => !JOB_VOCABULARY.has(word))
    .join('|'),
  'i',
);
const FEATURE_NAMED = 'server/jobs knows no feature: a job says its own words in its definition (<feature>.jobs.ts).';

const config: Linter.Config[] = [
  {
    ignores: [
      'node_modules/',
      'dist/',
      'renderer/dist/',
      'release/',
      'test-results/',
      'e2e/artifacts/',
      '.tmp/',
      'client/generated/',
    ],
  },
  { files: ['**/*.ts'], languageOptions: typescript(['typescript']) },
  { files: ['**/*.tsx'], languageOptions: typescript(['typescript', 'jsx']) },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries: boundariesPlugin },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // files of one element import each other freely, but not its test files (below)
          checkInternals: true,
          message:
            '{{from.element.type}} may not import {{to.element.type}} here: the arrow would point the wrong way (eslint.config.ts, docs/lint.md)',
          policies: [
            { allow: { dependency: { relationship: { to: 'internal' } } } },
            ...POLICIES.map(([importing, allow]) => ({ from: importing, allow })),
            {
              from: from('feature'),
              disallow: { to: inCategory('repository') },
              message: 'a feature meets another at its service or its queries, never its repository (docs/lint.md)',
            },
            // ...while a feature's own files import its repository freely
            { allow: { dependency: { relationship: { to: 'internal' } } } },
            { disallow: { to: inCategory('test') }, message: 'nothing imports a test file' },
            {
              from: inCategory('router'),
              disallow: { to: inCategory('repository') },
              message: 'a router never imports a repository: row types stay in repositories (CONTRIBUTING.md)',
            },
          ],
        },
      ],
      // plain mistakes
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-async-promise-executor': 'error',
      'no-compare-neg-zero': 'error',
      'no-cond-assign': 'error',
      'no-constant-binary-expression': 'error',
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-loss-of-precision': 'error',
      'no-self-assign': 'error',
      'no-self-compare': 'error',
      'no-sparse-arrays': 'error',
      'no-unreachable': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-negation': 'error',
      'no-useless-catch': 'error',
      'use-isnan': 'error',
      'valid-typeof': 'error',
      // money never passes through a binary float
      'no-restricted-globals': ['error', ...RESTRICTED_GLOBALS],
      // every test runs: no focused test, no test skipped for good (a skip on a condition of the machine stays)
      'no-restricted-syntax': ['error', ...TEST_SYNTAX],
    },
  },
  // Later blocks replace an earlier block's no-restricted-imports for their files: each lists all it refuses.
  {
    // the server runs in Electron's main process, a utility process or plain Node alike
    files: ['server/**'],
    rules: {
      'no-restricted-imports': restrictedImports(['electron'], 'The server never imports Electron (CONTRIBUTING.md).'),
    },
  },
  {
    // the domain is pure: no I/O, no database, no HTTP
    files: ['server/domain/**'],
    rules: {
      'no-restricted-imports': restrictedImports(
        [...IO_MODULES, ...NODE_IO],
        'server/domain is pure TypeScript: no I/O, database or HTTP (CONTRIBUTING.md).',
        [{ regex: '^node:', message: 'server/domain is pure TypeScript: no Node I/O (CONTRIBUTING.md).' }],
      ),
    },
  },
  {
    // the contract is zod schemas over the domain: the renderer imports it
    files: ['server/contract/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictedImports([], '', [
        {
          regex: '^(?!zod$|\\.)',
          message: 'server/contract imports zod and the domain only: the renderer imports it.',
        },
      ]),
    },
  },
  {
    // the HTTP layer holds no SQL: it knows a ledger only as a VersionedLedger
    files: ['server/http/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        ['kysely', 'better-sqlite3', 'electron'],
        'server/http imports no database, and the server no Electron.',
      ),
    },
  },
  {
    // the sync protocol holds no storage and no HTTP server: a ledger and a transport are handed to it
    files: ['server/sync/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        ['express', 'kysely', 'better-sqlite3', 'electron'],
        'server/sync is the protocol: the ledger (SyncStore) and the network (SyncTransport) are handed to it.',
      ),
    },
  },
  {
    // main is a thin shell: no SQL, no business rules
    files: ['main/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(['kysely', 'better-sqlite3'], 'main holds no SQL (CONTRIBUTING.md).'),
    },
  },
  {
    // the job worker runs the features' jobs by the composition's table: it names none of them
    files: ['server/jobs/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...TEST_SYNTAX,
        // (an import of a feature is the boundaries rule's to refuse)
        ...[
          'Identifier[name=',
          ':not(ImportDeclaration, ExportNamedDeclaration) > Literal[value=',
          'TemplateElement[value.raw=',
        ].map((node) => ({ selector: `${node}${FEATURE_WORDS}]`, message: FEATURE_NAMED })),
      ],
    },
  },
  {
    // the renderer runs in the browser: no Node, no Electron
    files: ['renderer/src/**'],
    rules: {
      'no-restricted-imports': restrictedImports(['electron'], 'The renderer talks to the HTTP API only.', [
        { regex: '^node:', message: 'The renderer runs in a browser: no Node modules.' },
      ]),
      'no-restricted-globals': ['error', ...RESTRICTED_GLOBALS, RENDERER_FETCH],
      'no-restricted-syntax': ['error', ...RENDERER_SYNTAX],
    },
  },
  {
    // the renderer's one client: the one place that calls fetch
    files: ['renderer/src/api/client.ts'],
    rules: {
      'no-restricted-globals': ['error', ...RESTRICTED_GLOBALS],
      'no-restricted-syntax': ['error', ...RENDERER_SYNTAX.filter((rule) => !rule.selector.includes("'fetch'"))],
    },
  },
];

export default config;
