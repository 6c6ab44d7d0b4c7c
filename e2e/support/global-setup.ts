import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { RENDERER_DIST, ROOT } from './paths.ts';

/**
 * Builds the renderer once before the run, so the suite always drives the current sources
 * (E2E_SKIP_BUILD=1 reuses an existing renderer/dist, e.g. when CI built it in an earlier step).
 */
export default async function globalSetup(): Promise<void> {
  const index = path.join(RENDERER_DIST, 'index.html');
  if (process.env.E2E_SKIP_BUILD === '1' && fs.existsSync(index)) return;
  await build({ configFile: path.join(ROOT, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  if (!fs.existsSync(index)) throw new Error(`the renderer build left no ${index}`);
}
