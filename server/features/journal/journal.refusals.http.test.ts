import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { t, userId } from '../../../test/support/app-server.ts';
import { acct, create, entry, shopping, useJournalBooks } from '../../../test/support/journal-books.ts';
import { databaseDigest, ledgerFile } from '../../../test/support/server.ts';

/** Entries the journal refuses over HTTP: each with its status, code and field, and nothing changed. */

useJournalBooks();

describe('creating entries', () => {
  const refusals: [string, () => unknown, number, string, string?][] = [
    ['one line', () => entry([[acct.Groceries!, 'DEBIT', '5.00']]), 400, 'TOO_FEW_LINES'],
    ['no lines', () => entry([]), 400, 'TOO_FEW_LINES'],
    [
      'debits above credits by a cent, posted at once',
      () =>
        entry(
          [
            [acct.Groceries!, 'DEBIT', '5.01'],
            [acct.Checking!, 'CREDIT', '5.00'],
          ],
          { auto_post: true },
        ),
      400,
      'UNBALANCED',
    ],
    [
      'an account that does not exist',
      () =>
        entry([
          [crypto.randomUUID(), 'DEBIT', '5.00'],
          [acct.Checking!, 'CREDIT', '5.00'],
        ]),
      400,
      'INVALID_ACCOUNT',
      'lines.0.account_id',
    ],
    [
      'a currency other than the account’s',
      () => ({
        ...entry([]),
        lines: [
          { account_id: acct.Groceries, direction: 'DEBIT', amount: '5.00', currency: 'EUR' },
          { account_id: acct.Checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'CURRENCY_MISMATCH',
      'lines.0.currency',
    ],
    [
      'an unknown currency code',
      () => ({
        ...entry([]),
        lines: [
          { account_id: acct.Groceries, direction: 'DEBIT', amount: '5.00', currency: 'XYZ' },
          { account_id: acct.Checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.currency',
    ],
    ['more digits than the currency has', () => shopping('5.001'), 400, 'VALIDATION_ERROR', 'lines.0.amount'],
    [
      'a JSON number amount',
      () => ({
        ...entry([]),
        lines: [
          { account_id: acct.Groceries, direction: 'DEBIT', amount: 5 },
          { account_id: acct.Checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    ['a negative amount', () => shopping('-5.00'), 400, 'VALIDATION_ERROR', 'lines.0.amount'],
    ['a zero amount', () => shopping('0.00'), 400, 'VALIDATION_ERROR', 'lines.0.amount'],
    [
      'an exponent amount',
      () =>
        entry([
          [acct.Groceries!, 'DEBIT', '1e2'],
          [acct.Checking!, 'CREDIT', '100'],
        ]),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    [
      'a direction that is not DEBIT or CREDIT',
      () => ({
        ...entry([]),
        lines: [
          { account_id: acct.Groceries, direction: 'debit', amount: '5.00' },
          { account_id: acct.Checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.direction',
    ],
    [
      'a date that is not on the calendar',
      () => shopping('5.00', { entry_date: '2026-02-30' }),
      400,
      'VALIDATION_ERROR',
      'entry_date',
    ],
    [
      'no date',
      () => ({
        lines: shopping('5.00').lines,
      }),
      400,
      'VALIDATION_ERROR',
      'entry_date',
    ],
    ['a memo over 500 characters', () => shopping('5.00', { memo: 'x'.repeat(501) }), 400, 'VALIDATION_ERROR', 'memo'],
    ['an unknown field', () => shopping('5.00', { status: 'posted' }), 400, 'VALIDATION_ERROR', 'status'],
    ['auto_post as a string', () => shopping('5.00', { auto_post: 'yes' }), 400, 'VALIDATION_ERROR', 'auto_post'],
  ];

  for (const [what, body, status, code, field] of refusals) {
    it(`when the entry has ${what}, then it is refused with ${status} ${code} and nothing changes`, async () => {
      const digest = databaseDigest(ledgerFile(t.dataDir, userId));
      const res = await create(body());
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.detail).toEqual(expect.any(String));
      if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(digest);
    });
  }
});
