import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_TABLES, catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of attachments', () => {
  it('when files are attached, listed, counted, downloaded and deleted, then every read of attachments, entries or bank lines is an index lookup', async () => {
    const { t, token, statementId } = books;
    const png = new Uint8Array(fs.readFileSync(new URL('../fixtures/attachments/receipt.png', import.meta.url)));
    const entry = (await t.api.get('/api/journal-entries?per_page=1', token)).body.items[0].id as string;
    const line = (await t.api.get(`/api/statements/${statementId}/transactions?per_page=1`, token)).body.items[0]
      .id as string;
    const attach = async (target: string, bytes: Uint8Array<ArrayBuffer>) => {
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'receipt.png');
      const encoded = new Response(form);
      const res = await t.api.request('POST', `${target}/attachments`, {
        rawBody: new Uint8Array(await encoded.arrayBuffer()),
        token,
        headers: { 'content-type': encoded.headers.get('content-type')! },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const { caught, stop } = catchPrepared(books.file);
    try {
      const first = await attach(`/api/entries/${entry}`, png);
      await attach(`/api/bank-transactions/${line}`, new Uint8Array([...png, 1]));
      for (const read of [
        `/api/entries/${entry}/attachments`,
        `/api/bank-transactions/${line}/attachments`,
        `/api/attachments/counts?entry_ids=${entry}&bank_transaction_ids=${line}`,
        '/api/attachments/usage',
      ])
        expect((await t.api.get(read, token)).status, read).toBe(200);
      expect(
        (await fetch(`${t.api.baseUrl}/api/attachments/${first}`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);
      expect((await t.api.delete(`/api/attachments/${first}`, token)).status).toBe(204);
    } finally {
      stop();
    }
    const tables = [...BIG_TABLES, 'attachments', 'attachment_files', 'a', 'f', 't'];
    // the trigger that lets a file go once nothing names it
    const statements = [...caught, 'SELECT 1 FROM attachments WHERE sha256 = ?'];
    expect(statements.filter((sql) => sql.includes('attachments')).length).toBeGreaterThan(5);
    readOnly(books.file, (db) => expect(offenders(db, statements, tables)).toEqual([]));
  });
});
