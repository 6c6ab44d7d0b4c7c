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

export const DEFAULT_PORT = 4599;
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_OLLAMA_MODEL = 'qwen2.5:3b';
const MIN_SECRET_BYTES = 32;

export const APP_DATA_FOLDER = 'personal-ledger';

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

/**
 * The JWT secret: SECRET_KEY when given (at least 32 bytes), otherwise one generated once with a
 * CSPRNG and kept in the data folder, readable by the owner only.
 */
export function resolveSecretKey(given: string | undefined, dataDir: string): string {
  checkGivenSecretKey(given);
  if (given !== undefined && given !== '') return given;
  const file = path.join(dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${file} holds a secret shorter than ${MIN_SECRET_BYTES} bytes; delete it to have a new one generated`,
    );
  }
  return secret;
}
