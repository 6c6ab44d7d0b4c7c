// @ts-check
/**
 * The built server (bundled by `node main/build.ts --out`) that `npm run serve`, `npm run reset-password`
 * and the benchmark run.
 * Plain JavaScript: it runs before anything is built, and loading no TypeScript keeps Node's type
 * stripper out of the server process (~15 MB).
 *
 * Each build lives in `dist/builds/<id>/`, where the id is a hash of everything the bundle is made of
 * (the server's sources, package.json and the lockfile, tsconfig.json, Vite's version). A build is made once, in a folder of
 * its own that is renamed into place when complete, and never changed afterwards: a server keeps
 * running on its build while another process builds changed sources into a new one, and two
 * processes that build at once both end up on one complete folder. Each server marks the build it
 * runs (`.users/<pid>`); a build is removed only when no live process marks it and it has not been
 * used for an hour, and only by the process that made a newer one.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Unused builds younger than this stay: a process may have chosen one and not yet marked it. */
const KEEP_UNUSED_MS = 60 * 60 * 1000;

/** @param {string} root */
export function buildsDir(root = ROOT) {
  return path.join(root, 'dist', 'builds');
}

/** Every file the bundle is made of but node_modules (which the lockfile stands for), relative to `root`, sorted. @param {string} root */
function buildInputs(root) {
  /** @type {string[]} */
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'main/build.ts'];
  for (const entry of fs.readdirSync(path.join(root, 'server'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      files.push(path.relative(root, path.join(entry.parentPath, entry.name)));
  }
  return files.sort();
}

/** The id of the build the sources in `root` make now. @param {string} root */
export function buildId(root = ROOT) {
  const hash = createHash('sha256');
  const bundler = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'vite', 'package.json'), 'utf8')).version;
  hash.update(`vite ${bundler}\0`);
  for (const file of buildInputs(root)) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A package.json script that is a plain `node` command (`serve`, `reset-password`), as arguments for
 * `process.execPath` run with `root` as the working folder: the benchmark and the tests start the
 * server and its commands exactly as `npm run <name>` does.
 * @param {string} name
 * @param {string} [root]
 * @returns {string[]}
 */
export function scriptArguments(name, root = ROOT) {
  const script = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts[name];
  /** @type {string[]} */
  const [command, ...args] = String(script ?? '')
    .trim()
    .split(/\s+/);
  if (command !== 'node' || args.some((arg) => /["'$&|;<>]/.test(arg)))
    throw new Error(`package.json's ${name} script is not a plain node command: ${script}`);
  return args;
}

/** `npm run serve`'s arguments (see scriptArguments). @param {string} [root] */
export function serveArguments(root = ROOT) {
  return scriptArguments('serve', root);
}

/** The server's entry point in a build folder. @param {string} dir */
export function serverEntry(dir) {
  return path.join(dir, 'server', 'cli.js');
}

/**
 * The build folder for the current sources, building it first when there is none (`log` tells
 * why, on stderr by default). Throws with the bundler's output when the build fails.
 * @param {{ root?: string, log?: (line: string) => void }} [options]
 * @returns {{ dir: string, id: string, built: boolean }}
 */
export function ensureBuild(options = {}) {
  const root = options.root ?? ROOT;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const id = buildId(root);
  const dir = path.join(buildsDir(root), id);
  if (fs.existsSync(serverEntry(dir))) return { dir, id, built: false };

  log(`build: bundling the server into ${path.relative(root, dir)} (no build of these sources yet)`);
  fs.mkdirSync(buildsDir(root), { recursive: true });
  const fresh = fs.mkdtempSync(path.join(buildsDir(root), `.new-${id}-`));
  try {
    const compiled = spawnSync(process.execPath, [path.join(root, 'main', 'build.ts'), '--out', fresh], {
      cwd: root,
      encoding: 'utf8',
    });
    if (compiled.status !== 0) throw new Error(`build: the bundle failed\n${compiled.stdout}${compiled.stderr}`);
    try {
      fs.renameSync(fresh, dir);
    } catch (error) {
      // Another process built the same sources first: its folder is complete and the same as ours.
      if (!fs.existsSync(serverEntry(dir))) throw error;
    }
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  pruneBuilds(root, id);
  return { dir, id, built: true };
}

/**
 * Marks `dir` as run by this process until it exits, so that no other process removes it.
 * @param {string} dir
 */
export function markInUse(dir) {
  const users = path.join(dir, '.users');
  fs.mkdirSync(users, { recursive: true });
  const mark = path.join(users, String(process.pid));
  fs.writeFileSync(mark, '');
  process.once('exit', () => fs.rmSync(mark, { force: true }));
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Removes the builds other than `keep` that no live process marks and that nobody used for an hour,
 * and half-made folders of processes that died while building.
 * @param {string} root
 * @param {string} keep
 */
export function pruneBuilds(root, keep, now = Date.now()) {
  for (const name of fs.readdirSync(buildsDir(root))) {
    if (name === keep) continue;
    const dir = path.join(buildsDir(root), name);
    const users = path.join(dir, '.users');
    const marks = fs.existsSync(users) ? fs.readdirSync(users) : [];
    if (marks.some((pid) => alive(Number(pid)))) continue;
    const lastUse = Math.max(fs.statSync(dir).mtimeMs, fs.existsSync(users) ? fs.statSync(users).mtimeMs : 0);
    if (now - lastUse < KEEP_UNUSED_MS) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
