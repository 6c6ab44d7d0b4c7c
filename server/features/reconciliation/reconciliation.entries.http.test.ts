import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../../test/support/ledger-user.ts';
import {
  Book,
  byDescription,
  expectIntegerBreakdown,
  type BankTxn,
} from '../../../test/support/reconciliation-book.ts';

const server = useTestServer();

describe('creating an entry for an unmatched bank transaction', () => {
  let book: Book;
  let bank: string;
  let transport: string;
  let interest: string;
  let txns: BankTxn[];

  beforeAll(async () => {
    book = await Book.open(server());
    bank = await book.account('Checking', 'ASSET');
    transport = await book.account('Transport', 'EXPENSE');
    interest = await book.account('Interest', 'INCOME');
    ({ txns } = await book.statement(bank, [
      { date: '2026-03-03', description: 'PARKING METER', amount: '3.00', type: 'debit' },
      { date: '2026-03-31', description: 'INTEREST PAID', amount: '1.25', type: 'credit' },
      { date: '2026-03-15', description: 'TRAIN TICKET', amount: '12.00', type: 'debit' },
    ]));
  });

  it('when an entry is created for a bank debit, then 201 with a posted reconciliation entry crediting the bank, and an accepted match', async () => {
    const parking = byDescription(txns, 'PARKING METER');
    const res = await book.post(`/api/reconciliation/unmatched/${parking.id}/create-entry`, { account_id: transport });
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({
      status: 'posted',
      source_type: 'reconciliation',
      entry_date: '2026-03-03',
      memo: 'PARKING METER',
      posted_at: expect.any(String),
    });
    expect(
      res.body.entry.lines
        .map((l: { account_id: string; direction: string; amount: string }) => [l.account_id, l.direction, l.amount])
        .sort(),
    ).toEqual(
      [
        [transport, 'DEBIT', '3.00'],
        [bank, 'CREDIT', '3.00'],
      ].sort(),
    );
    expect(res.body.match).toMatchObject({
      status: 'accepted',
      accepted_at: expect.any(String),
      bank_transaction: { id: parking.id, amount: '3.00', type: 'debit' },
      journal_entries: [{ id: res.body.entry.id, total_amount: '3.00' }],
    });
    expectIntegerBreakdown(res.body.match.score_breakdown);
    const balance = await book.get(`/api/accounts/${bank}/balance?as_of=2026-12-31`);
    expect(balance.body.balance).toBe('-3.00');
    expect((await book.unmatched('&type=bank_transaction')).map((i) => i.transaction.id)).not.toContain(parking.id);
    expect(
      byDescription(await book.txns((await book.get('/api/statements')).body.items[0].id), 'PARKING METER')
        .reconciliation_status,
    ).toBe('accepted');

    const before = book.digest();
    const again = await book.post(`/api/reconciliation/unmatched/${parking.id}/create-entry`, {
      account_id: transport,
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('ALREADY_PROCESSED');
    expect(book.digest()).toBe(before);
  });

  it('when an entry is created for a bank credit with a memo, then it debits the bank and credits the income account', async () => {
    const paid = byDescription(txns, 'INTEREST PAID');
    const res = await book.post(`/api/reconciliation/unmatched/${paid.id}/create-entry`, {
      account_id: interest,
      memo: 'March interest',
    });
    expect(res.status).toBe(201);
    expect(res.body.entry.memo).toBe('March interest');
    const lines = Object.fromEntries(
      res.body.entry.lines.map((l: { account_id: string; direction: string }) => [l.account_id, l.direction]),
    );
    expect(lines).toEqual({ [bank]: 'DEBIT', [interest]: 'CREDIT' });
  });

  it('when the request is wrong, then it is refused and nothing is stored', async () => {
    const train = byDescription(txns, 'TRAIN TICKET');
    const euros = await book.account('Euro trips', 'EXPENSE', 'EUR');
    const retired = await book.account('Retired', 'EXPENSE');
    expect((await book.api.put(`/api/accounts/${retired}`, { is_active: false }, book.token)).status).toBe(200);
    const before = book.digest();
    const cases: [string, unknown, number, string][] = [
      [crypto.randomUUID(), { account_id: transport }, 404, 'NOT_FOUND'],
      ['not-an-id', { account_id: transport }, 404, 'NOT_FOUND'],
      [train.id, {}, 400, 'VALIDATION_ERROR'],
      [train.id, { account_id: crypto.randomUUID() }, 400, 'INVALID_ACCOUNT'],
      [train.id, { account_id: bank }, 400, 'VALIDATION_ERROR'],
      // an account in another currency needs the rate of the line's date, and there is none
      [train.id, { account_id: euros }, 400, 'MISSING_RATE'],
      [train.id, { account_id: retired }, 400, 'INACTIVE_ACCOUNT'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await book.post(`/api/reconciliation/unmatched/${id}/create-entry`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    expect(book.digest()).toBe(before);
  });
});

describe('voiding entries that take part in matches', () => {
  it('when the entry is in an accepted or auto-accepted match, then voiding it is refused with INVALID_STATUS', async () => {
    const book = await Book.open(server());
    const bank = await book.account('Checking', 'ASSET');
    const spend = await book.account('Spending', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-03-01', description: 'EXACT ONE', amount: '9.00', type: 'debit' },
      { date: '2026-03-01', description: 'LOOSE ONE', amount: '19.00', type: 'debit' },
    ]);
    const exact = await book.entry(bank, spend, '2026-03-01', 'EXACT ONE', '9.00');
    const loose = await book.entry(bank, spend, '2026-03-04', 'Something else', '19.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    expect((await book.accept(m!.id)).status).toBe(200);
    const before = book.digest();
    for (const id of [exact, loose]) {
      const res = await book.post(`/api/journal-entries/${id}/void`, { reason: 'oops' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_STATUS');
      expect(res.body.detail).toMatch(/matched to the bank line|reconciled/);
    }
    expect(book.digest()).toBe(before);
  });

  it('when the entry is only in a pending_review match, then voiding it rejects that match and frees the transaction', async () => {
    const book = await Book.open(server());
    const bank = await book.account('Checking', 'ASSET');
    const spend = await book.account('Spending', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-03-01', description: 'LOOSE TWO', amount: '29.00', type: 'debit' },
    ]);
    const loose = await book.entry(bank, spend, '2026-03-04', 'Something else', '29.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    const res = await book.post(`/api/journal-entries/${loose}/void`, { reason: 'duplicate' });
    expect(res.status).toBe(200);
    expect(book.match(m!.id)).toMatchObject({
      status: 'rejected',
      reject_reason: 'the entry was voided',
      rejected_at: expect.any(String),
      version: 2,
    });
    expect((await book.txns(s.id))[0]).toMatchObject({ reconciliation_status: 'unmatched', match_id: null });
    expect(await book.pending()).toEqual([]);
    const decide = await book.accept(m!.id);
    expect(decide.body.code).toBe('ALREADY_PROCESSED');
    // neither the voided entry nor its reversal is proposed again
    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 1,
      auto_accepted: 0,
      pending_review: 0,
      unmatched: 1,
    });
  });
});
