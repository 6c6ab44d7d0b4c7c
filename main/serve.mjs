// @ts-check
/**
 * `npm run serve`: the headless server (server/cli.ts) from its compiled build, in this process.
 * A checkout built at set-up starts at once; after the sources changed it compiles them first, into a
 * new build folder, so that a server already running from this checkout goes on undisturbed.
 */
import { pathToFileURL } from 'node:url';
import { ensureBuild, markInUse, serverEntry } from './app-build.mjs';

let dir;
try {
  dir = ensureBuild().dir;
} catch (error) {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
markInUse(dir);
await import(pathToFileURL(serverEntry(dir)).href);
