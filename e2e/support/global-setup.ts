import fs from 'node:fs';
import path from 'node:path';
import { buildRenderer } from '../../main/renderer-build.ts';
import { RENDERER_DIST, ROOT } from './paths.ts';

/**
 * Builds the renderer once before the run, so the suite always drives the current sources
 * (E2E_SKIP_BUILD=1 reuses an existing renderer/dist, e.g. when CI built it in an earlier step).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === '1' && fs.existsSync(path.join(RENDERER_DIST, 'index.html'))) return;
  await buildRenderer(ROOT);
}
