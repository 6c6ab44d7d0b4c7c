/**
 * The typed client for scripts: openapi-fetch over the types `npm run build` generates from the
 * server's OpenAPI document (client/generated/openapi.ts). Every path, query, body and answer is
 * typed as the document says, errors included: `const { data, error } = await ledger.GET(...)`.
 * docs/scripting.md shows it at work; docs/examples/ are scripts built on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi.ts';

export type { components, operations, paths };
/** The document's named schemas: `Schemas['JournalEntry']`, `Schemas['Error']`, ... */
export type Schemas = components['schemas'];
export type LedgerClient = Client<paths>;

/** A client of the API at `baseUrl` (`http://127.0.0.1:<port>`), sending `token` on every request when given. */
export function ledgerClient(baseUrl: string, token?: string): LedgerClient {
  return createClient<paths>({
    baseUrl,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
}

/** Logs in with email and password; a client that sends the session's token. */
export async function logIn(baseUrl: string, email: string, password: string): Promise<LedgerClient> {
  const { data, error } = await ledgerClient(baseUrl).POST('/api/auth/login', { body: { email, password } });
  if (error) throw new LedgerError('log in', error);
  return ledgerClient(baseUrl, data.access_token);
}

/**
 * The client a script gets from its environment: `LEDGER_URL` (or the URL in `server.json` of
 * the data folder `LEDGER_DATA_DIR`, which a running server writes), and `LEDGER_TOKEN`, or
 * `LEDGER_EMAIL` and `LEDGER_PASSWORD` to log in.
 */
export async function clientFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<LedgerClient> {
  let baseUrl = env.LEDGER_URL;
  if (!baseUrl && env.LEDGER_DATA_DIR) {
    const file = path.join(env.LEDGER_DATA_DIR, 'server.json');
    baseUrl = (JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string }).url;
  }
  if (!baseUrl) throw new Error('Set LEDGER_URL (http://127.0.0.1:<port>) or LEDGER_DATA_DIR');
  if (env.LEDGER_TOKEN) return ledgerClient(baseUrl, env.LEDGER_TOKEN);
  if (env.LEDGER_EMAIL && env.LEDGER_PASSWORD) return logIn(baseUrl, env.LEDGER_EMAIL, env.LEDGER_PASSWORD);
  throw new Error('Set LEDGER_TOKEN, or LEDGER_EMAIL and LEDGER_PASSWORD');
}

/** Every account of the user by name (each page of GET /api/accounts). */
export async function accountsByName(ledger: LedgerClient): Promise<Map<string, Schemas['Account']>> {
  const byName = new Map<string, Schemas['Account']>();
  for (let page = 1; ; page++) {
    const { data, error } = await ledger.GET('/api/accounts', { params: { query: { page, per_page: 100 } } });
    if (error) throw new LedgerError('list accounts', error);
    for (const account of data.items) byName.set(account.name, account);
    if (page * data.per_page >= data.total) return byName;
  }
}

/** An error answer of the API as an exception: its `detail`, with `code` and the fields `errors` names. */
export class LedgerError extends Error {
  readonly code: string | undefined;
  readonly errors: { field: string; message: string }[];
  constructor(what: string, body: unknown) {
    const error = (typeof body === 'object' && body !== null ? body : { detail: String(body) }) as {
      detail?: string;
      code?: string;
      errors?: { field: string; message: string }[];
    };
    const fields = (error.errors ?? []).map((e) => `\n  ${e.field}: ${e.message}`).join('');
    super(`${what}: ${error.code ? `${error.code}: ` : ''}${error.detail ?? 'failed'}${fields}`);
    this.name = 'LedgerError';
    this.code = error.code;
    this.errors = error.errors ?? [];
  }
}
