import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's folder (migrations/, renderer/dist/): the nearest folder above this module that holds
 * package.json. From the sources that is the one above server/; compiled (dist/server/, as the
 * desktop app and `npm run serve` run it), the one above dist/.
 */
export function appRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
