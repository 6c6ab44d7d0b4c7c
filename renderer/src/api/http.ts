import { ApiError, type FieldError } from './api-error.ts';
import { currentToken, sessionEnded } from './token.ts';

/** One page of a server-paginated list. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
}

export type QueryValue = string | number | boolean | undefined | null;

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface RequestOptions {
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** A file sent as the raw body. */
  file?: Blob;
  /** A multipart body (the browser writes its Content-Type with the boundary). */
  form?: FormData;
  signal?: AbortSignal;
  /**
   * false for sign-in and sign-up: no token is sent and a 401 is the answer, not the end of a
   * session. 'keep': the token is sent, and a 401 for a wrong password is an answer, not the end
   * of the session (a password change).
   */
  auth?: boolean | 'keep';
}

/**
 * Sends one request with the token; an error answer becomes a thrown `ApiError`, and a 401 on an
 * authenticated call ends the session (the app returns to the sign-in screen with the reason).
 */
export async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const authenticated = options.auth !== false;
  const token = currentToken();
  if (authenticated && token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.file !== undefined) {
    headers['Content-Type'] = 'application/octet-stream';
    body = options.file;
  } else if (options.form !== undefined) {
    body = options.form;
  }
  let response: Response;
  try {
    response = await fetch(path + queryString(options.query), {
      method,
      headers,
      body,
      signal: options.signal ?? null,
      credentials: 'omit',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(
      0,
      `The ledger server cannot be reached (${error instanceof Error ? error.message : String(error)}).`,
      'NETWORK',
    );
  }
  if (response.ok) return response;

  const failure = await errorOf(response);
  const wrongPassword = options.auth === 'keep' && failure.detail === 'Invalid email or password';
  // Only a refusal of the token still held ends the session: a request sent before a sign-out (or
  // before a newer sign-in) is refused for a token the app has already let go.
  const stillHeld = token !== null && currentToken() === token;
  if (response.status === 401 && authenticated && !wrongPassword && stillHeld) sessionEnded(failure.detail);
  throw failure;
}

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

/** A request whose answer is JSON (or 204, nothing). */
export async function json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Every page of a list, for the small lists a screen needs whole (accounts, statements). */
export async function allPages<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await json<Page<T>>('GET', path, { query: { ...query, page, per_page: 100 } });
    items.push(...result.items);
    if (items.length >= result.total || result.items.length === 0) return items;
  }
}
