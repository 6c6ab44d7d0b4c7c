import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { Book, FIXTURES } from '../../../test/support/reconciliation-book.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('end to end: a Lloyds CSV statement reconciled to 100%', () => {
  it('when a real statement is imported, matched, reviewed and completed, then the rate reaches 100 and a re-import changes nothing', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Lloyds current', 'ASSET', 'GBP');
    const groceries = await book.account('Groceries', 'EXPENSE', 'GBP');
    const travel = await book.account('Travel', 'EXPENSE', 'GBP');
    const taxes = await book.account('Taxes', 'EXPENSE', 'GBP');
    const charges = await book.account('Bank charges', 'EXPENSE', 'GBP');
    const consulting = await book.account('Consulting', 'INCOME', 'GBP');
    const file: Uint8Array<ArrayBuffer> = new Uint8Array(
      fs.readFileSync(path.join(FIXTURES, 'csv_lloyds_uk_debit_credit_ddmmyyyy.csv')),
    );

    const form = new FormData();
    form.append('file', new Blob([file]), 'lloyds.csv');
    const encoded = new Response(form);
    const imported = await book.api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: new Uint8Array(await encoded.arrayBuffer()),
      token: book.token,
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      imported_count: 12,
      duplicate_count: 0,
      start_date: '2023-12-01',
      end_date: '2024-01-15',
    });
    const statementId: string = imported.body.id;
    const txn = async (start: string) => (await book.txns(statementId)).find((x) => x.description.startsWith(start))!;

    // exact matches
    await book.entry(bank, groceries, '2024-01-15', 'ACME STORE CD 1417 14JAN24', '8.99');
    await book.entry(
      bank,
      consulting,
      '2023-12-01',
      'CLIENT CO LTD 400000005566778899 306364 10 01DEC23 09:15',
      '500.00',
      false,
    );
    // loose matches: a few days off, in other words
    await book.entry(bank, travel, '2024-01-15', 'Dollars for the US trip', '5975.12');
    await book.entry(bank, consulting, '2023-12-04', 'Invoice 17 settled', '2000.00', false);
    await book.entry(bank, taxes, '2023-11-28', 'Self assessment', '250.00');

    expect(await book.run({ statement_id: statementId })).toEqual({
      total_transactions: 12,
      auto_accepted: 2,
      pending_review: 3,
      unmatched: 7,
    });
    expect((await txn('ACME STORE')).reconciliation_status).toBe('auto_accepted');
    expect((await txn('CLIENT CO')).reconciliation_status).toBe('auto_accepted');
    const queue = await book.pending();
    expect(queue.map((m) => m.bank_transaction.description.split(' ')[0]).sort()).toEqual(['HHHHH', 'HMRC', 'OUiog']);

    const dollars = queue.find((m) => m.bank_transaction.description.startsWith('OUiog'))!;
    const invoice = queue.find((m) => m.bank_transaction.description.startsWith('HHHHH'))!;
    expect((await book.accept(dollars.id)).status).toBe(200);
    expect((await book.reject(invoice.id, { reason: 'a different invoice' })).status).toBe(200);
    const batch = await book.post('/api/reconciliation/batch-accept', { min_score: 60 });
    expect(batch.body).toMatchObject({
      accepted_count: 1,
      match_ids: [queue.find((m) => m.bank_transaction.description.startsWith('HMRC'))!.id],
    });

    const mid = await book.stats(`?account_id=${bank}`);
    expect(mid).toMatchObject({ total_transactions: 12, reconciled: 4, pending_review: 0, unmatched: 8 });

    const open = await book.unmatched('&type=bank_transaction');
    expect(open).toHaveLength(8);
    for (const item of open) {
      const counter =
        item.transaction.type === 'credit'
          ? consulting
          : item.transaction.description.startsWith('HOTEL')
            ? travel
            : charges;
      const res = await book.post(`/api/reconciliation/unmatched/${item.transaction.id}/create-entry`, {
        account_id: counter,
      });
      expect(res.status, item.transaction.description).toBe(201);
    }

    const done = await book.stats();
    expect(done).toMatchObject({
      total_transactions: 12,
      matched: 12,
      pending_review: 0,
      unmatched: 0,
      match_rate: 100,
    });
    expect(done.by_account).toEqual([
      {
        account_id: bank,
        account_name: 'Lloyds current',
        matched: 12,
        reconciled: 12,
        pending: 0,
        unmatched: 0,
        reconciled_through: null,
      },
    ]);
    expect(
      (await book.txns(statementId)).every(
        (x) => x.reconciliation_status === 'accepted' || x.reconciliation_status === 'auto_accepted',
      ),
    ).toBe(true);
    expect(await book.unmatched('&type=bank_transaction')).toEqual([]);
    // the rejected pair's entry is the one entry left without a bank line
    expect((await book.unmatched('&type=journal_entry')).map((i) => i.transaction.description)).toEqual([
      'Invoice 17 settled',
    ]);
    // every bank line is booked the right way round: the statement's net movement (2500.00 in,
    // 6381.99 out) plus the rejected entry's 2000.00 that no bank line confirms
    expect((await book.get(`/api/accounts/${bank}/balance?as_of=2024-12-31`)).body.balance).toBe('-1881.99');

    // re-importing the same file changes nothing at all
    const digestBefore = databaseDigest(book.file());
    const again = await book.api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: file,
      token: book.token,
      headers: { 'content-type': 'text/csv' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: null, imported_count: 0, duplicate_count: 12 });
    expect(databaseDigest(book.file())).toBe(digestBefore);
    expect(await book.stats()).toEqual(done);
    expect(await book.run({ account_id: bank })).toEqual({
      total_transactions: 0,
      auto_accepted: 0,
      pending_review: 0,
      unmatched: 0,
    });
  });
});
