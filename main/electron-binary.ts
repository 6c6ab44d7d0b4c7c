/**
 * Finds the Electron executable without loading the electron package.
 *
 * The electron package's index.js tries to *download* the binary when it is missing (spawning its
 * install script, which needs the network) and throws when that fails. We only want to know whether
 * the binary is there, so we repeat its lookup (`path.txt`, `ELECTRON_OVERRIDE_DIST_PATH`, `dist/`)
 * with injected file access and never download anything.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env } from './server.ts';

export interface BinaryLookup {
  /** Folder of the installed `electron` package, or null when it is not installed at all. */
  electronPackageDir: string | null;
  env: Env;
  /** Reads a text file, or returns null when it cannot. */
  readText(file: string): string | null;
  /** True when `file` exists and is a regular file. */
  isFile(file: string): boolean;
}

/** Absolute path of the Electron executable when it is present on disk, otherwise null. */
export function findElectronBinary(lookup: BinaryLookup): string | null {
  const { electronPackageDir, env } = lookup;
  const executableName =
    electronPackageDir === null ? null : lookup.readText(path.join(electronPackageDir, 'path.txt'))?.trim() || null;
  const overrideDir = env.ELECTRON_OVERRIDE_DIST_PATH?.trim();
  let candidate: string | null = null;
  if (overrideDir) {
    candidate = path.join(overrideDir, executableName ?? 'electron');
  } else if (electronPackageDir !== null && executableName !== null) {
    candidate = path.join(electronPackageDir, 'dist', executableName);
  }
  return candidate !== null && lookup.isFile(candidate) ? candidate : null;
}

/** The real file system and module resolution, for `main/start.ts`. */
export function nodeBinaryLookup(env: Env, fromUrl: string): BinaryLookup {
  let electronPackageDir: string | null = null;
  try {
    electronPackageDir = path.dirname(createRequire(fromUrl).resolve('electron/package.json'));
  } catch {
    electronPackageDir = null;
  }
  return {
    electronPackageDir,
    env,
    readText(file) {
      try {
        return existsSync(file) ? readFileSync(file, 'utf8') : null;
      } catch {
        return null;
      }
    },
    isFile(file) {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    },
  };
}
