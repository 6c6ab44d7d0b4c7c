/**
 * Builds the renderer (Vite) into `renderer/dist`, the folder the server serves: into a folder of
 * its own first, then moved into place, so that a running server never serves half a build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

export async function buildRenderer(root: string): Promise<string> {
  const rendererDir = path.join(root, 'renderer');
  const target = path.join(rendererDir, 'dist');
  const fresh = fs.mkdtempSync(path.join(rendererDir, '.dist-new-'));
  try {
    await build({
      configFile: path.join(rendererDir, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: fresh, emptyOutDir: true },
    });
    if (!fs.existsSync(path.join(fresh, 'index.html'))) throw new Error(`the renderer build left no index.html`);
    const old = `${fresh}-old`;
    if (fs.existsSync(target)) fs.renameSync(target, old);
    fs.renameSync(fresh, target);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  return target;
}
