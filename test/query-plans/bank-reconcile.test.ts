import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of reconciling to the bank', () => {
  it('when lines are ticked, an account reconciled, bank lines booked and a statement booked by rules, a transfer proposed and booked, a line split and an entry corrected, then no query scans the lines, entries or bank transactions whole', async () => {
    const { t, token, bank, food, statementId } = books;
    const status = await t.api.get(
      `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      token,
    );
    const lines = await t.api.get(
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-03-31&per_page=1`,
      token,
    );
    const open = await t.api.get(`/api/reconciliation/unmatched?type=bank_transaction&per_page=1`, token);
    const { caught, stop } = catchPrepared(books.file);
    try {
      expect(
        (
          await t.api.post(
            `/api/accounts/${bank}/cleared`,
            { line_ids: [lines.body.items[0].line_id], cleared: true },
            token,
          )
        ).status,
      ).toBe(200);
      const after = await t.api.get(
        `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
        token,
      );
      expect(after.body.cleared_balance).not.toBe(status.body.cleared_balance);
      const done = await t.api.post(
        `/api/accounts/${bank}/reconcile`,
        { statement_date: '2026-03-31', statement_balance: after.body.cleared_balance },
        token,
      );
      expect(done.status).toBe(201);
      expect(done.body.line_count).toBeGreaterThan(0);
      const booked = await t.api.post(
        '/api/reconciliation/unmatched/create-entries',
        { items: [{ bank_transaction_id: open.body.items[0].transaction.id, account_id: food }] },
        token,
      );
      expect(booked.status).toBe(201);
      expect(
        (await t.api.post('/api/reconciliation/unmatched/create-entries', { statement_id: statementId }, token)).status,
      ).toBe(201);
      // a transfer proposed and booked, a line split, an entry corrected
      const savings = (await t.api.post('/api/accounts', { name: 'Savings', type: 'ASSET' }, token)).body.id;
      const out = { date: '2026-03-20', description: 'To savings', amount: '77.77', type: 'debit' };
      const split = { date: '2026-03-20', description: 'SPLIT ME', amount: '10.00', type: 'debit' };
      const into = { date: '2026-03-21', description: 'From checking', amount: '77.77', type: 'credit' };
      expect(
        (await t.api.post('/api/statements', { account_id: bank, transactions: [out, split] }, token)).status,
      ).toBe(201);
      expect((await t.api.post('/api/statements', { account_id: savings, transactions: [into] }, token)).status).toBe(
        201,
      );
      const proposed = await t.api.get('/api/reconciliation/unmatched?type=bank_transaction&per_page=100', token);
      const byText = (d: string) =>
        proposed.body.items.find((i: { transaction: { description: string } }) => i.transaction.description === d);
      expect(byText('To savings').transfer.transaction.description).toBe('From checking');
      const transfer = {
        from_transaction_id: byText('To savings').transaction.id,
        to_transaction_id: byText('From checking').transaction.id,
      };
      expect((await t.api.post('/api/reconciliation/transfers', transfer, token)).status).toBe(201);
      const splits = [
        { account_id: food, amount: '4.00' },
        { account_id: savings, amount: '6.00' },
      ];
      expect(
        (
          await t.api.post(
            `/api/reconciliation/unmatched/${byText('SPLIT ME').transaction.id}/create-entry`,
            { splits },
            token,
          )
        ).status,
      ).toBe(201);
      const typo = await t.api.post(
        '/api/journal-entries',
        {
          entry_date: '2026-03-25',
          auto_post: true,
          lines: splits.map((l, i) => ({
            account_id: l.account_id,
            direction: i === 0 ? 'DEBIT' : 'CREDIT',
            amount: '1.00',
          })),
        },
        token,
      );
      const corrected = await t.api.post(
        `/api/journal-entries/${typo.body.id}/correct`,
        {
          entry_date: '2026-03-25',
          lines: typo.body.lines.map((l: { account_id: string; direction: string }) => ({
            account_id: l.account_id,
            direction: l.direction,
            amount: '1.10',
          })),
        },
        token,
      );
      expect(corrected.status).toBe(201);
      // the first reconciliation's opening balance and an adjustment for a difference
      const equity = (await t.api.post('/api/accounts', { name: 'Opening balances', type: 'EQUITY' }, token)).body.id;
      const opening = { entry_date: '2025-12-31', amount: '10.00', offset_account_id: equity };
      expect((await t.api.post(`/api/accounts/${bank}/opening-balance`, opening, token)).status).toBe(201);
      const adjustment = { entry_date: '2026-03-31', amount: '0.01', offset_account_id: food };
      expect((await t.api.post(`/api/accounts/${bank}/reconcile-adjustment`, adjustment, token)).status).toBe(201);
    } finally {
      stop();
    }
    const writes = [...caught].filter((sql) => /journal_lines|bank_transactions/.test(sql) && !/^\s*INSERT/i.test(sql));
    expect(writes.some((sql) => /SET cleared = 'reconciled'/.test(sql))).toBe(true);
    expect(writes.some((sql) => /a\.type = 'EQUITY'/.test(sql))).toBe(true);
    expect(writes.some((sql) => /ORDER BY l\.entry_date LIMIT 1/.test(sql))).toBe(true);
    readOnly(books.file, (db) => expect(offenders(db, writes)).toEqual([]));
  });
});
