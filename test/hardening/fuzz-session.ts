import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../support/server.ts';
import { CLOSED_OLLAMA, listTree, tempDir } from './support.ts';

/**
 * The hostile-input test's session: the server on a data folder of its own, the users and the
 * seeded ids requests name, the served document and its operations, and the counts of what was sent.
 */
export interface Operation {
  method: string;
  path: string;
  operationId: string;
  auth: boolean;
  pathParams: string[];
  queryParams: { name: string; required: boolean }[];
  jsonBody: boolean;
  rawBody: boolean;
}

export let t: TestServer;
/** The data folder sits alone in its own folder, so that a file written beside it would show. */
export const outer = tempDir('fuzz');
export let doc: any;
export let ajv: InstanceType<typeof Ajv2020>;
/** The same document, reading query text as the numbers and booleans its parameters document. */
export let queryAjv: InstanceType<typeof Ajv2020>;
export let operations: Operation[] = [];
export const main = { id: '', token: '', email: '' };
export const other = { id: '', token: '' };
/** The account whose sessions the session routes (logout, password change) end: each request gets a fresh one. */
export const sessions = { email: '' };
export const SESSION_ROUTES = new Set(['/api/auth/logout', '/api/auth/password']);
export const seeds: Record<string, string> = {};
let clock = Date.now();
export const stats = { requests: 0, byStatus: {} as Record<string, number>, byOperation: {} as Record<string, number> };
export let dataFilesBefore: string[] = [];
export const prototypeKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

/** Starts and seeds the server before the file's tests; stops it and removes its folder after them. */
export function useFuzzSession(): void {
  beforeAll(async () => {
    // The rate-limit clock jumps an hour per attempt, so that register and login are validated, not limited.
    t = await startTestServer({
      dataDir: path.join(outer, 'data'),
      env: { OLLAMA_HOST: CLOSED_OLLAMA },
      now: () => (clock += 3_600_001),
    });
    ({ id: main.id, token: main.token, email: main.email } = await registerUser(t.api, 'Fuzz Target'));
    ({ id: other.id, token: other.token } = await registerUser(t.api, 'Bystander'));
    ({ email: sessions.email } = await registerUser(t.api, 'Session Owner'));
    const api = t.api;
    const made = async (res: Promise<{ status: number; body: any; text: string }>, status = 201) => {
      const r = await res;
      if (r.status !== status) throw new Error(`seeding failed: ${r.status} ${r.text}`);
      return r.body;
    };
    seeds.bank = (await made(api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, main.token))).id;
    seeds.food = (await made(api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, main.token))).id;
    seeds.spare = (await made(api.post('/api/accounts', { name: 'Spare', type: 'INCOME' }, main.token))).id;
    const spend = (amount: string, memo: string, autoPost: boolean) => ({
      entry_date: '2026-01-05',
      memo,
      auto_post: autoPost,
      lines: [
        { account_id: seeds.food, direction: 'DEBIT', amount },
        { account_id: seeds.bank, direction: 'CREDIT', amount },
      ],
    });
    seeds.posted = (await made(api.post('/api/journal-entries', spend('12.34', 'Market', true), main.token))).id;
    seeds.draft = (await made(api.post('/api/journal-entries', spend('5.00', 'Draft', false), main.token))).id;
    seeds.matched = (await made(api.post('/api/journal-entries', spend('40.00', 'Corner shop', true), main.token))).id;
    const statement = await made(
      api.post(
        '/api/statements',
        {
          account_id: seeds.bank,
          transactions: [
            { date: '2026-01-05', description: 'CARD 4411', amount: '40.00', type: 'debit' },
            { date: '2026-01-09', description: 'Unknown payee', amount: '7.77', type: 'debit' },
          ],
        },
        main.token,
      ),
    );
    seeds.statement = statement.id;
    await made(api.post('/api/reconciliation/run', { statement_id: seeds.statement }, main.token), 200);
    const pending = await made(api.get('/api/reconciliation/pending', main.token), 200);
    seeds.match = pending.items[0].id;
    const txns = await made(api.get(`/api/statements/${seeds.statement}/transactions`, main.token), 200);
    seeds.unmatchedTxn = txns.items.find((x: { description: string }) => x.description === 'Unknown payee').id;
    const chat = await api.post('/api/chat', { message: 'How much did I spend?' }, main.token);
    seeds.chatSession = chat.headers.get('x-session-id')!;
    seeds.otherAccount = (await made(api.post('/api/accounts', { name: 'Other bank', type: 'ASSET' }, other.token))).id;

    doc = (await api.get('/api/openapi.json')).body;
    if (doc.paths['/api/backup']?.post)
      seeds.backup = (await made(api.post('/api/backup', undefined, main.token))).name;
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    ajv.addSchema({ ...doc, $id: 'openapi' });
    queryAjv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, coerceTypes: true });
    queryAjv.addSchema({ ...doc, $id: 'openapi' });
    for (const [p, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (p === '/api/openapi.json') continue;
        operations.push({
          method: method.toUpperCase(),
          path: p,
          operationId: op.operationId,
          auth: op.security.length > 0,
          pathParams: (op.parameters ?? []).filter((x: any) => x.in === 'path').map((x: any) => x.name),
          queryParams: (op.parameters ?? [])
            .filter((x: any) => x.in === 'query')
            .map((x: any) => ({ name: x.name, required: x.required })),
          jsonBody: op.requestBody?.content?.['application/json'] !== undefined,
          rawBody: op.requestBody !== undefined && op.requestBody.content['application/json'] === undefined,
        });
      }
    }
    dataFilesBefore = listTree(t.dataDir);
  });

  afterAll(async () => {
    await t?.stop();
    fs.rmSync(outer, { recursive: true, force: true });
  });
}
