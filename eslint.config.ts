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
 * The rules live under eslint/: `features.ts` (which feature may call which), `directions.ts` (the
 * dependency directions, eslint-plugin-boundaries) and `refusals.ts` (plain mistakes, and what each
 * folder must not import or write).
 */
import babelParser from '@babel/eslint-parser';
import type { Linter } from 'eslint';
import { directions } from './eslint/directions.ts';
import { byFolder, everywhere } from './eslint/refusals.ts';

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
  directions,
  everywhere,
  ...byFolder,
];

export default config;
