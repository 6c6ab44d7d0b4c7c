// @ts-check
/**
 * The server's command line (server/cli.ts) from its build (a bundle), in this process: `npm run
 * serve` (the headless server) and `npm run reset-password`. A checkout built at set-up starts at
 * once; after the sources changed it builds them first, into a new build folder, so that a server
 * already running from this checkout goes on undisturbed.
 */
import { enableCompileCache, flushCompileCache } from 'node:module';
import path from 'node:path';
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
// V8's compiled code for every module the server loads (its own and node_modules'), kept beside the
// build: most of a start is compiling modules, and the next start reads them instead.
enableCompileCache(path.join(dir, '.compile-cache'));
await import(pathToFileURL(serverEntry(dir)).href);
flushCompileCache();
