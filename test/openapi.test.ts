import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer } from './support/server.ts';
import {
  NOT_PRODUCIBLE,
  observed,
  oversized,
  pathOf,
  PUBLIC_UNAVAILABLE,
  requestBody,
  requiredQuery,
  send,
  t,
  useOpenApiSession,
  validator,
  withQuery,
  type Json,
  type Send,
} from './support/openapi-session.ts';
import { BOOKS_SCENARIOS } from './openapi/books-scenarios.ts';
import { PRICES_SCENARIOS } from './openapi/prices-scenarios.ts';
import { BANK_SCENARIOS } from './openapi/bank-scenarios.ts';
import { FILES_SCENARIOS } from './openapi/files-scenarios.ts';
import { stopRelays, SYNC_SCENARIOS } from './openapi/sync-scenarios.ts';

/**
 * The OpenAPI document is the product for scripts, so it is checked with tools nobody here wrote:
 * Redocly's recommended rules, and every documented answer of every operation in the served
 * document (success and each error it lists) produced by a real request and checked against the
 * document with ajv (test/support/openapi.ts). The general answers (401, 403, 400, 404, 413, 415,
 * 503) are produced for every operation from the document alone; the rest come from each
 * operation's scenario (test/openapi/*-scenarios.ts). An operation added to the document without a
 * scenario for each status it lists fails the last test, which names what is missing.
 */
useOpenApiSession();
afterAll(() => stopRelays());

// ---------------------------------------------------------------------------------------------

describe('the document, read by Redocly', () => {
  it("when Redocly's recommended rules read the served document, then they find no error and no warning", async () => {
    const source = await (await fetch(`${t.server.url}/api/openapi.json`)).text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual(
      [],
    );
  });

  it('when the document names ids, then each is a UUID: every path id and every id field of every schema', () => {
    const loose: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const object = node as Json;
      if (object.properties && typeof object.properties === 'object') {
        for (const [name, property] of Object.entries<Json>(object.properties)) {
          if (!/(^|_)id$/.test(name) || name === 'external_id') continue;
          // "given" in a oneOf/anyOf branch (not null) constrains a property the object declares
          if (Object.keys(property).join() === 'not') continue;
          const types = property.anyOf ? property.anyOf.filter((p: Json) => p.type !== 'null') : [property];
          if (!types.every((p: Json) => p.format === 'uuid')) loose.push(`${where}/properties/${name}`);
        }
      }
      for (const [key, value] of Object.entries(object)) walk(value, `${where}/${key}`);
    };
    walk(validator.doc, '#');
    for (const op of validator.operations)
      for (const p of (op.operation.parameters ?? []) as Json[])
        if (p.in === 'path' && p.name === 'id' && p.schema.format !== 'uuid') loose.push(`${op.key} path ${p.name}`);
    expect(loose).toEqual([]);
  });
});

describe('the general answers of every operation, produced from the document alone', () => {
  it('when an operation is called without a token, with a bad one, from a foreign origin, with an unknown query field, with the wrong body type, with a body over the limit, or with an id that names nothing, then each answer is as the document says', async () => {
    for (const op of validator.operations) {
      const method = op.method.toUpperCase();
      const urlPath = pathOf(op);
      const query = requiredQuery(op);
      const secured = (op.operation.security as unknown[]).length > 0;
      if (secured) {
        expect((await send(method, withQuery(urlPath, query), { token: null })).status, op.key).toBe(401);
        expect((await send(method, withQuery(urlPath, query), { token: 'not.a.token' })).status, op.key).toBe(401);
      }
      const foreign = await send(method, withQuery(urlPath, query), { headers: { origin: 'http://evil.example' } });
      expect(foreign.status, op.key).toBe(403);
      const unknown = await send(method, withQuery(urlPath, query, 'no_such_field=1'));
      expect([unknown.status, unknown.body.code], op.key).toEqual([400, 'VALIDATION_ERROR']);
      const body = requestBody(op);
      if (body?.content?.['application/json']) {
        const wrongType = await send(method, withQuery(urlPath, query), { raw: 'x', contentType: 'text/plain' });
        expect([wrongType.status, wrongType.body.code], op.key).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      } else if (body) {
        // a file in a media type the operation does not list
        const wrongType = await send(method, withQuery(urlPath, query), {
          raw: 'x',
          contentType: 'application/x-unlisted',
        });
        expect([wrongType.status, wrongType.body.code], op.key).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      }
      if (body) {
        const type = body.content['application/json'] ? 'application/json' : 'application/octet-stream';
        const tooLarge = await oversized(op, withQuery(urlPath, query), type);
        expect([tooLarge.status, tooLarge.body.code], op.key).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      }
      if ('404' in op.operation.responses && op.template.includes('{') && !body?.required) {
        const nothing = await send(
          method,
          withQuery(
            pathOf(op, () => crypto.randomUUID()),
            query,
          ),
        );
        expect([nothing.status, nothing.body.code], op.key).toEqual([404, 'NOT_FOUND']);
      }
    }
  });

  it('when the ledger cannot be opened by this app (a newer one wrote it), then every operation with a token is 503 LEDGER_UNAVAILABLE', async () => {
    const s = await startTestServer();
    const other = await registerUser(s.api);
    await s.server.close();
    const db = new Database(ledgerFile(s.dataDir, other.id));
    db.prepare(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'future', 'x', 'now')",
    ).run();
    db.close();
    const again = await startTestServer({ dataDir: s.dataDir });
    try {
      for (const op of validator.operations) {
        if ((op.operation.security as unknown[]).length === 0) continue;
        const urlPath = withQuery(pathOf(op), requiredQuery(op));
        const res = await send(op.method.toUpperCase(), urlPath, { token: other.token, base: again.server.url });
        expect([res.status, res.body.code], op.key).toEqual([503, 'LEDGER_UNAVAILABLE']);
      }
    } finally {
      await again.stop();
    }
  });
});

/** Each operation's own answers: success, and the errors that need a state or a body of their own. */
const SCENARIOS: Record<string, () => Promise<void>> = {
  ...BOOKS_SCENARIOS,
  ...PRICES_SCENARIOS,
  ...BANK_SCENARIOS,
  ...FILES_SCENARIOS,
  ...SYNC_SCENARIOS,
};

describe("each operation's own answers", () => {
  it('when each scenario runs, then every answer is as the document says', async () => {
    const failures: string[] = [];
    for (const op of validator.operations) {
      try {
        await SCENARIOS[op.key]?.();
      } catch (error) {
        failures.push(`${op.key}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('when a job runs past its budget, then every operation that runs one answers 422 JOB_BUDGET_EXCEEDED as documented', async () => {
    // a user with an account and a backup, made within the usual budget
    const before = await startTestServer();
    const someone = await registerUser(before.api);
    const bank = (await before.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, someone.token)).body.id;
    const backup = (await before.api.post('/api/backup', undefined, someone.token)).body.name as string;
    const statement = (
      await before.api.post(
        '/api/statements',
        {
          account_id: bank,
          transactions: [{ date: '2026-01-02', description: 'Shop', amount: '1.00', type: 'debit' }],
        },
        someone.token,
      )
    ).body.id as string;
    await before.server.close();
    const s = await startTestServer({ dataDir: before.dataDir, jobBudget: { ms: 1 } });
    try {
      const base = s.server.url;
      // more than a job small enough to run at once on the server's own thread (INLINE_BYTES)
      const rows = Array.from(
        { length: 5000 },
        (_, i) => `2026-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${i + 1}.00`,
      );
      const journal = Array.from(
        { length: 2000 },
        (_, i) => `2026-01-02 Shop ${i}\n    Expenses:Food    ${i + 1}.00 USD\n    Assets:Bank\n`,
      ).join('\n');
      const rates = `date,from,to,rate\n${rows.map((r, i) => `${r.slice(0, 10)},EUR,USD,1.${String(i).padStart(4, '0')}`).join('\n')}\n`;
      const asSomeone = { token: someone.token, base };
      const budgeted: [string, string, Send][] = [
        [
          'POST',
          '/api/statements',
          {
            ...asSomeone,
            json: {
              account_id: bank,
              transactions: rows.map((r, i) => ({
                date: r.slice(0, 10),
                description: `Shop ${i}`,
                amount: `${i + 1}.00`,
                type: 'debit',
              })),
            },
          },
        ],
        [
          'POST',
          `/api/statements/import?account_id=${bank}`,
          { ...asSomeone, raw: `Date,Description,Amount\n${rows.join('\n')}\n`, contentType: 'text/csv' },
        ],
        ['POST', '/api/import/journal?format=hledger', { ...asSomeone, raw: journal, contentType: 'text/plain' }],
        ['POST', '/api/prices/import', { ...asSomeone, raw: rates, contentType: 'text/csv' }],
        ['POST', '/api/reconciliation/run', { ...asSomeone, json: { account_id: bank } }],
        ['POST', '/api/reconciliation/unmatched/create-entries', { ...asSomeone, json: { statement_id: statement } }],
        ['GET', '/api/export?format=ledger', asSomeone],
        ['GET', '/api/export/archive?format=ledger', asSomeone],
        ['POST', '/api/backup', asSomeone],
        ['POST', `/api/backups/${backup}/restore`, asSomeone],
      ];
      for (const [method, urlPath, options] of budgeted) {
        const res = await send(method, urlPath, options);
        expect([res.status, res.body?.code], `${method} ${urlPath}`).toEqual([422, 'JOB_BUDGET_EXCEEDED']);
      }
    } finally {
      await s.stop();
    }
  });

  it('when every test above has run, then each operation of the served document has given every answer it documents', () => {
    const missing: string[] = [];
    for (const op of validator.operations) {
      const seen = observed.get(op.key) ?? new Set<number>();
      for (const status of Object.keys(op.operation.responses).map(Number)) {
        if (seen.has(status) || status in NOT_PRODUCIBLE) continue;
        if (status === 503 && PUBLIC_UNAVAILABLE.has(op.key)) continue;
        missing.push(`${op.key} ${status}${SCENARIOS[op.key] ? '' : ' (no scenario: add one to SCENARIOS)'}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
