/**
 * Turns `main/preload.ts` into `preload.cjs`: Node's own type stripping (no bundler), then a check that
 * the result is a classic script, as a sandboxed preload must be.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';

export const PRELOAD_SOURCE = 'preload.ts';
export const PRELOAD_OUTPUT = 'preload.cjs';

/** JavaScript for the sandboxed preload; throws if the source uses module syntax a sandbox cannot run. */
export function compilePreloadSource(source: string): string {
  // Looked up at call time: the packaged app never compiles, so a runtime without it must still start.
  const strip = (nodeModule as Partial<typeof nodeModule>).stripTypeScriptTypes;
  if (strip === undefined)
    throw new Error('This Node/Electron cannot strip TypeScript types; run `npm run build` first.');
  const code = strip(source, { mode: 'strip' });
  if (/^\s*(import|export)\b(?!\s*\()/m.test(code)) {
    throw new Error('The preload must not use import/export statements: sandboxed preloads are classic scripts.');
  }
  return code;
}

export function compilePreloadFile(sourceFile: string, outputFile: string): string {
  mkdirSync(path.dirname(outputFile), { recursive: true });
  writeFileSync(outputFile, compilePreloadSource(readFileSync(sourceFile, 'utf8')), 'utf8');
  return outputFile;
}

/**
 * The preload for the main process living in `mainDir`: the built `preload.cjs` next to it (packaged app,
 * `dist/main/`), or, when running from source (`main/index.ts`), one compiled now into `devOutputDir`.
 */
export function ensurePreload(mainDir: string, devOutputDir: string): string {
  const built = path.join(mainDir, PRELOAD_OUTPUT);
  if (existsSync(built)) return built;
  const source = path.join(mainDir, PRELOAD_SOURCE);
  if (!existsSync(source)) throw new Error(`No preload found: neither ${built} nor ${source} exists.`);
  return compilePreloadFile(source, path.join(devOutputDir, PRELOAD_OUTPUT));
}
