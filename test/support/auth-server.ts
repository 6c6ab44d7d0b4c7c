import fs from 'node:fs';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll } from 'vitest';
import type { StartServerOptions } from '../../server/index.ts';
import { TEST_SECRET, startTestServer, type Api, type TestServer } from './server.ts';

/**
 * What the auth HTTP tests (server/features/auth/auth.*.http.test.ts) share: a server per test file
 * whose rate limits run on a clock the tests move, the answers they expect, and fresh emails.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const PASSWORD = 'correct horse battery';
export const BAD_CREDENTIALS = { detail: 'Could not validate credentials' };
export const NOT_AUTHENTICATED = { detail: 'Not authenticated' };
export const INVALID_LOGIN = { detail: 'Invalid email or password' };
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A test server whose rate limits run on a clock the test moves. */
export interface ClockedServer extends TestServer {
  advance(ms: number): void;
}

export async function startClocked(options: Partial<StartServerOptions> = {}): Promise<ClockedServer> {
  let clock = Date.parse('2026-01-15T09:00:00Z');
  const t = await startTestServer({ now: () => clock, ...options });
  return Object.assign(t, { advance: (ms: number) => void (clock += ms) });
}

export function claims(token: string): jwt.JwtPayload {
  return jwt.verify(token, TEST_SECRET, { algorithms: ['HS256'] }) as jwt.JwtPayload;
}

export function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function ledgerNames(dataDir: string): string[] {
  return fs
    .readdirSync(path.join(dataDir, 'ledgers'))
    .filter((f) => f.endsWith('.sqlite'))
    .sort();
}

let uniq = 0;
export const freshEmail = (prefix = 'person') => `${prefix}${++uniq}-${Date.now()}@example.com`;

export let t: ClockedServer;
export let api: Api;

/** Moves past the register and login windows so a test's attempts are not rate limited. */
export function newWindow(): void {
  t.advance(2 * HOUR);
}

/** Starts the clocked server before the file's tests and stops it after them. */
export function useAuthServer(): void {
  beforeAll(async () => {
    t = await startClocked();
    api = t.api;
  });
  afterAll(() => t.stop());
}
