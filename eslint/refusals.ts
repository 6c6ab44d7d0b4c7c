/**
 * What the lint refuses beside the directions: plain mistakes, money through a binary float, a test
 * that does not run, and per folder the packages, Node modules and syntax it must not use, with why.
 */
import type { Linter } from 'eslint';
import { FEATURE_NAMED, FEATURE_WORDS } from './features.ts';

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

/** Every TypeScript file: plain mistakes, no binary float for money, every test runs. */
export const everywhere: Linter.Config = {
  files: ['**/*.{ts,tsx}'],
  rules: {
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
};

/** Each folder's own refusals. */
export const byFolder: Linter.Config[] = [
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
