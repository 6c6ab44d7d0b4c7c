import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const DEFAULT_PORT = 4599;
const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const DEFAULT_OLLAMA_MODEL = 'qwen2.5:3b';
const MIN_SECRET_BYTES = 32;

const APP_DATA_FOLDER = 'personal-ledger';

export type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * The data folder: `LEDGER_DATA_DIR` when set (resolved against the current directory), otherwise the OS
 * application-data folder + `personal-ledger`:
 * - Linux and other Unixes: `$XDG_CONFIG_HOME` (when set, as Chromium/Electron read it) or `~/.config`
 * - macOS: `~/Library/Application Support`
 * - Windows: `%APPDATA%` or `~\AppData\Roaming`
 */
export function defaultDataDir(
  platform: NodeJS.Platform,
  env: Env,
  homedir: string,
  cwd: string = process.cwd(),
): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const override = nonEmpty(env.LEDGER_DATA_DIR);
  if (override !== undefined) return p.isAbsolute(override) ? p.normalize(override) : p.join(cwd, override);
  switch (platform) {
    case 'win32': {
      const appData = nonEmpty(env.APPDATA);
      return p.join(appData ?? p.join(homedir, 'AppData', 'Roaming'), APP_DATA_FOLDER);
    }
    case 'darwin':
      return p.join(homedir, 'Library', 'Application Support', APP_DATA_FOLDER);
    default: {
      const base = nonEmpty(env.XDG_CONFIG_HOME) ?? p.join(homedir, '.config');
      return p.isAbsolute(base) ? p.join(base, APP_DATA_FOLDER) : p.join(cwd, base, APP_DATA_FOLDER);
    }
  }
}

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  }
  return Number(raw);
}

export interface Settings {
  port: number;
  dataDir: string;
  tokenExpireMinutes: number;
  trustProxy: boolean;
  autoAcceptThreshold: number;
  reviewThreshold: number;
  ollamaHost: string;
  ollamaModel: string;
}

/** Reads the environment of CONTRACT §1; anything malformed is refused with a clear message. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const autoAcceptThreshold = intSetting(env, 'RECONCILIATION_AUTO_ACCEPT_THRESHOLD', 85, 0, 100);
  const reviewThreshold = intSetting(env, 'RECONCILIATION_REVIEW_THRESHOLD', 60, 0, 100);
  if (reviewThreshold > autoAcceptThreshold) {
    throw new ConfigError('RECONCILIATION_REVIEW_THRESHOLD must not be above RECONCILIATION_AUTO_ACCEPT_THRESHOLD');
  }
  return {
    port: intSetting(env, 'PORT', DEFAULT_PORT, 0, 65535),
    dataDir: defaultDataDir(process.platform, env, os.homedir()),
    tokenExpireMinutes: intSetting(env, 'ACCESS_TOKEN_EXPIRE_MINUTES', 1440, 1, 525_600),
    trustProxy: ['true', '1'].includes((env.TRUST_PROXY ?? '').trim().toLowerCase()),
    autoAcceptThreshold,
    reviewThreshold,
    ollamaHost: env.OLLAMA_HOST || DEFAULT_OLLAMA_HOST,
    ollamaModel: env.OLLAMA_MODEL || DEFAULT_OLLAMA_MODEL,
  };
}

/** Refuses a SECRET_KEY shorter than 32 bytes, before anything is created on disk. */
export function checkGivenSecretKey(given: string | undefined): void {
  if (given !== undefined && given !== '' && Buffer.byteLength(given, 'utf8') < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `SECRET_KEY must be at least ${MIN_SECRET_BYTES} bytes; generate one with: openssl rand -base64 48`,
    );
  }
}

/** The owner-only modes of the data folder's folders and files. */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/**
 * Makes the data folder safe on every start: created 0700 when missing; when it exists, refused
 * unless it belongs to the user running the app (POSIX), and tightened to 0700 with its folders
 * (`ledgers`, `backups` and each user's backup folder) 0700 and their files 0600, whatever an
 * earlier version, a copy or a loose umask left. Symbolic links inside are left alone (never
 * followed). Answers what it tightened, for the log. Windows keeps its own ACLs.
 */
export function secureDataDir(dataDir: string): string[] {
  fs.mkdirSync(dataDir, { recursive: true, mode: FOLDER_MODE });
  const stat = fs.statSync(dataDir);
  if (!stat.isDirectory()) throw new ConfigError(`the data folder ${dataDir} is not a folder`);
  if (process.platform === 'win32') return [];
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new ConfigError(
      `the data folder ${dataDir} belongs to another user (uid ${stat.uid}); run the app as that user or set LEDGER_DATA_DIR to a folder of your own`,
    );
  }
  const tightened: string[] = [];
  const tighten = (file: string, mode: number, current: number) => {
    if ((current & 0o777 & ~mode) === 0) return;
    fs.chmodSync(file, mode);
    tightened.push(`${file} (${modeText(current)} -> ${modeText(mode)})`);
  };
  tighten(dataDir, FOLDER_MODE, stat.mode);
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        tighten(file, FOLDER_MODE, fs.lstatSync(file).mode);
        // the data folder, ledgers/ and backups/, backups/<user>/: nothing of ours is deeper
        if (depth < 2) walk(file, depth + 1);
      } else if (entry.isFile()) tighten(file, FILE_MODE, fs.lstatSync(file).mode);
    }
  };
  walk(dataDir, 0);
  return tightened;
}

/** What a key this app generates holds: 48 random bytes as base64url (64 characters; 43 carry 256 bits). */
const KEY_FILE_PATTERN = /^[A-Za-z0-9_-]{43,}$/;

/**
 * The JWT secret: SECRET_KEY when given (at least 32 bytes), otherwise one generated once with a
 * CSPRNG and kept in the data folder, readable by the owner only. An existing key file is refused
 * (with what to do) when others could read it (anyone could have copied it and signed tokens),
 * when it belongs to another user, or when it holds less than a key this app makes: it is never
 * quietly used or replaced.
 */
export function resolveSecretKey(given: string | undefined, dataDir: string): string {
  checkGivenSecretKey(given);
  if (given !== undefined && given !== '') return given;
  const file = path.join(dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: FILE_MODE, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const renew = 'delete it to have a new one generated (everyone then signs in again; no data is lost)';
  if (process.platform !== 'win32') {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) throw new ConfigError(`${file} is not a plain file; ${renew}`);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid)
      throw new ConfigError(`${file} belongs to another user (uid ${stat.uid}); ${renew}`);
    if ((stat.mode & 0o077) !== 0) {
      throw new ConfigError(
        `${file} is readable by other users (mode ${modeText(stat.mode)}), so anyone on this computer could have copied it and signed in as anyone; ${renew}`,
      );
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw new ConfigError(`${file} holds a secret shorter than ${MIN_SECRET_BYTES} bytes; ${renew}`);
  }
  if (!KEY_FILE_PATTERN.test(secret)) {
    throw new ConfigError(
      `${file} does not hold a key as this app makes them (at least 43 base64url characters: 256 random bits); ${renew}`,
    );
  }
  return secret;
}
