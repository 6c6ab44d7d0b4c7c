/**
 * `npm run build:desktop` (and the first step of `npm run serve`): compiles the Electron main process
 * and the server to dist/ (ESM .js, the layout electron-builder.yml packages) and the preload to
 * dist/main/preload.cjs. The renderer is built separately into renderer/dist/. Its one line of news
 * goes to stderr: `npm run serve` prints nothing on stdout but the server's ready line.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRELOAD_OUTPUT, PRELOAD_SOURCE, compilePreloadFile } from './preload-build.ts';

const mainDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(mainDir, '..');
const dist = path.join(root, 'dist');

for (const folder of ['main', 'server']) rmSync(path.join(dist, folder), { recursive: true, force: true });

const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(mainDir, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: root,
});
if (compiled.status !== 0) {
  console.error('build: TypeScript reported errors; nothing to package.');
  process.exit(compiled.status ?? 1);
}

const preload = compilePreloadFile(path.join(mainDir, PRELOAD_SOURCE), path.join(dist, 'main', PRELOAD_OUTPUT));
console.error(`build: dist/main, dist/server and ${path.relative(root, preload)} are ready`);
