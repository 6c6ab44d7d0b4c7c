/**
 * `npm run build` (part of the set-up) and the builds behind `npm run serve` and the desktop app.
 *
 * - `node main/build.ts`: the server `npm run serve` runs, made only when the sources changed
 *   (dist/builds/<id>/, see app-build.mjs), the typed client's types (client/generated/, from the
 *   OpenAPI document; scripts/generate-client.ts), and the renderer (renderer-build.ts).
 * - `node main/build.ts --out <folder>`: that server bundled into `<folder>/server/`: its entry
 *   point and its job worker with every dependency in a few files (Vite's SSR build), but
 *   better-sqlite3 and its native binary. Loading ~500 modules one by one was most of a start;
 *   two files start in about a third of the time.
 * - `node main/build.ts --desktop`: the layout electron-builder.yml packages: the Electron main
 *   process and the server compiled by tsc (main/tsconfig.build.json) into dist/main and
 *   dist/server, and the preload into dist/main/preload.cjs.
 *
 * It prints one line on stderr: `npm run serve` prints nothing on stdout but the server's ready line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build as viteBuild } from 'vite';
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

/** server/cli.ts, the job worker and the job table bundled into `outDir/server/` (one folder: the runner finds the worker beside it). */
async function bundleServer(outDir: string): Promise<void> {
  await viteBuild({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    ssr: { noExternal: true, external: ['better-sqlite3'] },
    build: {
      ssr: true,
      outDir: path.join(outDir, 'server'),
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      sourcemap: false,
      rollupOptions: {
        input: {
          cli: path.join(ROOT, 'server', 'cli.ts'),
          'job-worker': path.join(ROOT, 'server', 'jobs', 'job-worker.ts'),
          // an entry of its own: the worker imports it by the URL the server's copy reports
          'job-table': path.join(ROOT, 'server', 'job-table.ts'),
        },
        output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
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

/**
 * client/generated/openapi.ts, the typed client's types, from the document a server of these
 * sources serves (scripts/generate-client.ts, in a process of its own); written again only when
 * the server's sources changed (the build id it was made from is kept beside it).
 */
function generateClientTypes(buildIdNow: string): void {
  const stamp = path.join(ROOT, 'client', 'generated', '.build-id');
  const types = path.join(ROOT, 'client', 'generated', 'openapi.ts');
  if (fs.existsSync(types) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === buildIdNow) return;
  const generated = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'generate-client.ts')], {
    stdio: ['ignore', 'inherit', 'inherit'],
    cwd: ROOT,
  });
  if (generated.status !== 0) {
    console.error("build: the client's types could not be generated");
    process.exit(generated.status ?? 1);
  }
  fs.writeFileSync(stamp, buildIdNow);
}

const { values } = parseArgs({ options: { out: { type: 'string' }, desktop: { type: 'boolean', default: false } } });
if (values.out !== undefined) await bundleServer(path.resolve(values.out));
else if (values.desktop) buildDesktop();
else {
  try {
    const build = ensureBuild();
    if (!build.built) console.error(`build: ${path.relative(ROOT, build.dir)} is up to date`);
    generateClientTypes(build.id);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  console.error(`build: ${path.relative(ROOT, await buildRenderer(ROOT))} is ready`);
}
