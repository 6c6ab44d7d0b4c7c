import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type ApiResponse,
  type TestServer,
} from './server.ts';

/**
 * What the statements HTTP tests (server/features/statements/statements.*.http.test.ts) share: a
 * server with one registered user per test file, and the calls and row counts they check.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/statements/', import.meta.url));

export function fixture(name: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
}

export let t: TestServer;
export let api: Api;
export let token: string;
export let userId: string;

export interface Txn {
  date: string;
  description: string;
  amount: string;
  type: 'debit' | 'credit';
  external_id?: string | null;
}

export async function account(name: string, type: string, currency = 'USD'): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, currency }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}

export function digest(): string {
  return databaseDigest(ledgerFile(t.dataDir, userId));
}

/** Rows of one table of the user's ledger file, read through a separate connection. */
export function count(table: string, where = '1 = 1', ...params: unknown[]): number {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

export function createStatement(body: unknown, as = token) {
  return api.post('/api/statements', body, as);
}

export function importRaw(
  query: string,
  bytes: Uint8Array | string,
  as = token,
  contentType = 'application/octet-stream',
) {
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: bytes,
    token: as,
    headers: { 'content-type': contentType },
  });
}

/** A multipart/form-data upload built by the platform's FormData, sent as bytes. */
export async function importMultipart(
  query: string,
  file: Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
  fileName = 'statement.dat',
  as = token,
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file]), fileName);
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: bytes,
    token: as,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
}

export async function allTransactions(
  statementId: string,
  as = token,
): Promise<(Txn & { id: string; reconciliation_status: string; match_id: string | null; statement_id: string })[]> {
  const res = await api.get(`/api/statements/${statementId}/transactions?per_page=100`, as);
  expect(res.status).toBe(200);
  return res.body.items;
}

export function pick(t: Txn) {
  return { date: t.date, description: t.description, amount: t.amount, type: t.type };
}

/** Starts the server and registers the user before the file's tests, and stops it after them. */
export function useStatementsServer(): void {
  beforeAll(async () => {
    t = await startTestServer();
    api = t.api;
    ({ token, id: userId } = await registerUser(api));
  });
  afterAll(() => t.stop());
}
