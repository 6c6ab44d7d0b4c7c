/**
 * The renderer's one client of the ledger API: openapi-fetch over the `paths` that `npm run build`
 * generates from the server's OpenAPI document (client/generated/openapi.ts), the same types the
 * scripts' client (client/index.ts) uses. A renamed route, parameter or field breaks the renderer
 * at compile time. Its middleware does for every call what the session needs:
 *
 * - sends the kept token (`token.ts`) and asks for JSON; never sends cookies;
 * - turns an error answer (`{ detail, code?, errors? }`, a 429's Retry-After) into a thrown
 *   `ApiError`, and a failure to reach the server into one of status 0, code NETWORK (an abort
 *   stays an AbortError);
 * - ends the session on a 401 for the token still held (the app returns to the sign-in screen
 *   with the reason). A 401 for a wrong password is an answer, not the end of a session.
 *
 * This module is the renderer's only caller of `fetch` (the lint refuses it elsewhere).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../client/generated/openapi.ts';
import { ApiError, type FieldError } from './api-error.ts';
import { currentToken, sessionEnded } from './token.ts';

export type { paths };
/** The document's named schemas: `Schemas['JournalEntry']`, `Schemas['Account']`, ... */
export type Schemas = components['schemas'];

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = M extends keyof paths[P] ? paths[P][M] : never;
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type SuccessOf<O> = O extends { responses: infer R } ? JsonOf<R[keyof R & (200 | 201)]> : never;

/** The JSON a route answers on success: `Answer<'/api/accounts/balances', 'get'>`. */
export type Answer<P extends keyof paths, M extends Method> = SuccessOf<Operation<P, M>>;
/** The JSON body a route takes. */
export type Body<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The query parameters a route takes. */
export type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** One page of a server-paginated list. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
}

/** The detail of a 401 for a wrong email or password (login, password change): no session ended. */
const WRONG_PASSWORD = 'Invalid email or password';

async function errorOf(response: Response): Promise<ApiError> {
  let parsed: unknown;
  const text = await response.text().catch(() => '');
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const retryAfter = Number(response.headers.get('Retry-After') ?? '');
  const wait = Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  if (parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string') {
    const body = parsed as { detail: string; code?: string; errors?: FieldError[] };
    return new ApiError(response.status, body.detail, body.code, Array.isArray(body.errors) ? body.errors : [], wait);
  }
  return new ApiError(response.status, `The server answered ${response.status} ${response.statusText}`.trim());
}

/** Error answers and unreachable servers as `ApiError`s; with `session`, the token and the 401 rule. */
function answers(session: boolean): Middleware {
  return {
    onRequest({ request }) {
      const token = currentToken();
      if (session && token && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${token}`);
      }
      return undefined;
    },
    async onResponse({ request, response }) {
      if (response.ok) return undefined;
      const failure = await errorOf(response);
      // Only a refusal of the token still held ends the session: a request sent before a sign-out
      // (or before a newer sign-in) is refused for a token the app has already let go.
      const sent = request.headers.get('Authorization');
      const token = currentToken();
      const stillHeld = token !== null && sent === `Bearer ${token}`;
      if (session && response.status === 401 && failure.detail !== WRONG_PASSWORD && stillHeld) {
        sessionEnded(failure.detail);
      }
      throw failure;
    },
    onError({ error }) {
      if (error instanceof DOMException && error.name === 'AbortError') return undefined; // thrown as it is
      return new ApiError(
        0,
        `The ledger server cannot be reached (${error instanceof Error ? error.message : String(error)}).`,
        'NETWORK',
      );
    },
  };
}

/** Leaves out empty parameters (undefined, null, ''): an empty filter field is no filter. */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value as string | number | boolean));
  }
  return params.toString();
}

/**
 * A client of the API at `baseUrl` (the page's own origin when empty); with `session`, it sends the
 * kept token and ends the session on its refusal.
 */
export function ledgerClient(session: boolean, baseUrl = ''): Client<paths> {
  const client = createClient<paths>({
    baseUrl,
    headers: { Accept: 'application/json' },
    credentials: 'omit',
    querySerializer: queryString,
    // looked up on each call, so that the page's fetch is the one in place when the call is made
    fetch: (request: Request) => fetch(request),
  });
  client.use(answers(session));
  return client;
}

/** The client of a signed-in session: every call carries the token. */
export const api = ledgerClient(true);
/** The client of the calls made without a session (sign-in, sign-up, the sign-out of a dropped token). */
export const publicApi = ledgerClient(false);

/**
 * The body of a call's answer. Error answers are thrown by the middleware, so what arrives here
 * is a success (undefined for a 204).
 */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  return (await call).data as T;
}

/**
 * A file sent as the raw body of an upload. The document types a binary body as a string
 * (openapi-typescript 6); fetch sends the Blob's bytes as they are.
 */
export function fileBody(file: Blob): {
  body: string;
  bodySerializer: (body: unknown) => Blob;
  headers: { 'Content-Type': string };
} {
  return {
    body: file as unknown as string,
    bodySerializer: () => file,
    headers: { 'Content-Type': 'application/octet-stream' },
  };
}

/** A file sent as the `file` part of a multipart body (the browser writes the boundary; typed as `fileBody`). */
export function multipartFile(file: File): { body: { file: string }; bodySerializer: (body: unknown) => FormData } {
  return {
    body: { file: file as unknown as string },
    bodySerializer: () => {
      const form = new FormData();
      form.set('file', file, file.name);
      return form;
    },
  };
}

/** Every page of a list, for the small lists a screen needs whole (accounts, rules, schedules). */
export async function allPages<T>(page: (page: number, perPage: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let number = 1; ; number++) {
    const result = await page(number, 100);
    items.push(...result.items);
    if (items.length >= result.total || result.items.length === 0) return items;
  }
}
