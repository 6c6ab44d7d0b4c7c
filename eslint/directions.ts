/**
 * The dependency directions of CONTRIBUTING.md: eslint-plugin-boundaries puts every file in an
 * element (a layer, one feature, one screen) and allows an import from one element to another only
 * where a policy below says so. The arrows cannot form a circle: each layer imports only layers
 * below it, and the features' uses of one another (FEATURE_USES) are checked for a circle when
 * features.ts loads.
 */
import type { ESLint, Linter } from 'eslint';
import boundaries from 'eslint-plugin-boundaries';
import { FEATURE_USES } from './features.ts';

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

/**
 * The plugin's types describe its CommonJS `exports.default`; imported from ESM, the default is
 * module.exports, which is the plugin itself.
 */
const boundariesPlugin = boundaries as unknown as ESLint.Plugin;

/** The boundaries rule over every TypeScript file. */
export const directions: Linter.Config = {
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
          '{{from.element.type}} may not import {{to.element.type}} here: the arrow would point the wrong way (eslint/directions.ts, docs/lint.md)',
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
  },
};
