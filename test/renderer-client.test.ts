import net from 'node:net';
import type { Client } from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../renderer/src/api/api-error.ts';
import { ledgerClient, type paths } from '../renderer/src/api/client.ts';
import { currentToken, dropToken, hasToken, keepToken, onSessionEnded } from '../renderer/src/api/token.ts';
import { registerUser, startTestServer, type TestServer } from './support/server.ts';

/**
 * The renderer's client (renderer/src/api/client.ts) against the real server on loopback: what its
 * middleware does for every call of every screen. In Node the token lives in memory (no storage).
 */

let server: TestServer;
let token: string;
let email: string;
let api: Client<paths>;

beforeAll(async () => {
  server = await startTestServer();
  ({ token, email } = await registerUser(server.api));
  api = ledgerClient(true, server.server.url);
});
afterAll(async () => server.stop());
afterEach(() => dropToken());

/** The reasons the app is told a session ended, while `run` runs. */
async function endedDuring(run: () => Promise<unknown>): Promise<string[]> {
  const reasons: string[] = [];
  const stop = onSessionEnded((reason) => reasons.push(reason));
  try {
    await run().catch(() => undefined);
  } finally {
    stop();
  }
  return reasons;
}

async function refusal(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => 'answered',
    (error: unknown) => error,
  );
}

describe("the renderer's client", () => {
  it('when a call is made in a session, then it carries the kept token and answers the body', async () => {
    keepToken(token, false);
    const { data } = await api.GET('/api/auth/me');
    expect(data?.email).toBe(email);
  });

  it('when the server refuses a call, then it throws an ApiError with the detail, code and fields of the answer, and the session stays', async () => {
    keepToken(token, false);
    const error = await refusal(api.POST('/api/accounts', { body: { name: ' ', type: 'ASSET', currency: 'USD' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'name', message: 'must not be blank' }],
    });
    expect(hasToken()).toBe(true);
  });

  it('when the server refuses the token the app holds, then the session ends with the server’s reason', async () => {
    keepToken('not-a-token', false);
    let error: unknown;
    const reasons = await endedDuring(async () => {
      error = await refusal(api.GET('/api/accounts'));
    });
    expect(error).toMatchObject({ status: 401 });
    expect(reasons).toEqual([(error as ApiError).detail]);
    expect(hasToken()).toBe(false);
  });

  it('when a 401 answers a token the app has let go, then the session it holds now goes on', async () => {
    keepToken(token, false);
    const reasons = await endedDuring(() =>
      api.GET('/api/accounts', { headers: { Authorization: 'Bearer a-token-of-before' } }),
    );
    expect(reasons).toEqual([]);
    expect(currentToken()).toBe(token);
  });

  it('when the current password given is wrong, then the change is refused with 401 and the session goes on', async () => {
    keepToken(token, false);
    let error: unknown;
    const reasons = await endedDuring(async () => {
      error = await refusal(
        api.POST('/api/auth/password', {
          body: { current_password: 'not the password', new_password: 'another good password' },
        }),
      );
    });
    expect(error).toMatchObject({ status: 401, detail: 'Invalid email or password' });
    expect(reasons).toEqual([]);
    expect(currentToken()).toBe(token);
  });

  it('when a client without a session signs in, then it sends no token and a wrong password ends nothing', async () => {
    keepToken(token, false);
    const signIn = ledgerClient(false, server.server.url);
    const reasons = await endedDuring(() =>
      signIn.POST('/api/auth/login', { body: { email, password: 'not the password' } }),
    );
    expect(reasons).toEqual([]);
    // with no token sent, a call that needs one is refused, and the session held is not ended by it
    const error = await refusal(signIn.GET('/api/accounts'));
    expect(error).toMatchObject({ status: 401 });
    expect(currentToken()).toBe(token);
  });

  it('when a query field is empty, then it is left out (an empty filter is no filter)', async () => {
    keepToken(token, false);
    const { data } = await api.GET('/api/journal-entries', {
      params: { query: { account_id: '', q: '', page: 1, per_page: 5 } },
    });
    expect(data).toMatchObject({ items: [], total: 0, page: 1, per_page: 5 });
  });

  it('when the server cannot be reached, then the call throws an ApiError of code NETWORK', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await refusal(ledgerClient(true, `http://127.0.0.1:${closed}`).GET('/api/accounts'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('when the caller aborts a call, then it throws the AbortError, not an ApiError', async () => {
    keepToken(token, false);
    const error = await refusal(api.GET('/api/accounts', { signal: AbortSignal.abort() }));
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

/**
 * Checked by the compiler, not run (`npm run typecheck`): a route the document does not have, or
 * a parameter in the wrong place, does not compile, so a renamed route breaks the renderer's build.
 */
export function routesTheDocumentLacks(client: Client<paths>): void {
  // @ts-expect-error no such route in the document
  void client.GET('/api/journal');
  // @ts-expect-error the id is a path parameter, not a query one
  void client.GET('/api/accounts/{id}', { params: { query: { id: 'x' } } });
}
