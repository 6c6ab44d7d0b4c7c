import { afterAll, beforeAll } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from './server.ts';

/**
 * A server with a registered user per test file, for HTTP tests that speak as one user throughout
 * (server/http/app.*.http.test.ts, the accounts and prices tests). Requests with any Host header and
 * the error shape: raw-http.ts.
 */

export let t: TestServer;
export let api: Api;
export let port: number;
export let token: string;
export let userId: string;

/** Starts the server and registers the user before the file's tests, and stops it after them. */
export function useAppServer(): void {
  beforeAll(async () => {
    t = await startTestServer();
    api = t.api;
    port = t.server.port;
    ({ token, id: userId } = await registerUser(api));
  });
  afterAll(() => t.stop());
}
