/**
 * `npm run build` (part of the set-up): compiles the Electron main process and the server to
 * JavaScript (ESM .js, main/tsconfig.build.json) and the preload to `main/preload.cjs`, and builds
 * the renderer (renderer-build.ts).
 *
 * - `node main/build.ts`: the build `npm run serve` runs, made only when the sources changed
 *   (dist/builds/<id>/, see app-build.mjs), and the renderer.
 * - `node main/build.ts --desktop`: the layout electron-builder.yml packages (dist/main, dist/server).
 * - `node main/build.ts --out <folder>`: one compile into an empty folder (what the two above use).
 *
 * It prints one line on stderr: `npm run serve` prints nothing on stdout but the server's ready line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuild, ROOT } from './app-build.mjs';
import { PRELOAD_OUTPUT, PRELOAD_SOURCE, compilePreloadFile } from './preload-build.ts';
import { buildRenderer } from './renderer-build.ts';

const mainDir = path.join(ROOT, 'main');

/** One compile of main/ and server/ into `outDir`, with the preload beside the main process. */
function compileInto(outDir: string): void {
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const compiled = spawnSync(
    process.execPath,
    [tsc, '-p', path.join(mainDir, 'tsconfig.build.json'), '--outDir', outDir],
    { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT },
  );
  if (compiled.status !== 0) {
    console.error('build: TypeScript reported errors; nothing was built.');
    process.exit(compiled.status ?? 1);
  }
  compilePreloadFile(path.join(mainDir, PRELOAD_SOURCE), path.join(outDir, 'main', PRELOAD_OUTPUT));
}

/** dist/main and dist/server for the packager, compiled beside them and then moved into place. */
function buildDesktop(): void {
  const dist = path.join(ROOT, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  const staging = fs.mkdtempSync(path.join(dist, '.desktop-'));
  try {
    compileInto(staging);
    for (const part of ['main', 'server']) {
      const target = path.join(dist, part);
      const old = `${staging}-old-${part}`;
      if (fs.existsSync(target)) fs.renameSync(target, old);
      fs.renameSync(path.join(staging, part), target);
      fs.rmSync(old, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  console.error(`build: dist/main, dist/server and dist/main/${PRELOAD_OUTPUT} are ready`);
}

const { values } = parseArgs({ options: { out: { type: 'string' }, desktop: { type: 'boolean', default: false } } });
if (values.out !== undefined) compileInto(path.resolve(values.out));
else if (values.desktop) buildDesktop();
else {
  try {
    const build = ensureBuild();
    if (!build.built) console.error(`build: ${path.relative(ROOT, build.dir)} is up to date`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  console.error(`build: ${path.relative(ROOT, await buildRenderer(ROOT))} is ready`);
}
