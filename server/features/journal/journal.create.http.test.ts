import { describe, expect, it } from 'vitest';
import { api, token } from '../../../test/support/app-server.ts';
import { toMinor } from '../../../test/support/plaintext-tools.ts';
import { acct, balance, create, entry, shopping, useJournalBooks } from '../../../test/support/journal-books.ts';

/** A USD balance in cents, exactly. */
const usd = (text: string): bigint => toMinor(text, 'USD');

/** Creating journal entries over HTTP: drafts, posting at once, currencies and their digits. */

useJournalBooks();

describe('creating entries', () => {
  it('when a balanced entry is created, then it is a manual draft with its lines, names and exact amounts, and balances do not move', async () => {
    const res = await create(
      entry([
        [acct.Groceries!, 'DEBIT', '82.5'],
        [acct.Checking!, 'CREDIT', '82.50'],
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      source_type: 'manual',
      entry_date: '2026-03-10',
      memo: 'Groceries at market',
      posted_at: null,
      voided_at: null,
    });
    expect(res.body.lines).toEqual([
      {
        id: expect.any(String),
        account_id: acct.Groceries,
        account_name: 'Groceries',
        direction: 'DEBIT',
        amount: '82.50',
        currency: 'USD',
        cleared: 'uncleared',
        cost: null,
        automatic: false,
      },
      {
        id: expect.any(String),
        account_id: acct.Checking,
        account_name: 'Checking',
        direction: 'CREDIT',
        amount: '82.50',
        currency: 'USD',
        cleared: 'uncleared',
        cost: null,
        automatic: false,
      },
    ]);
    expect(await balance(acct.Groceries!)).toBe('0.00');
    const fetched = await api.get(`/api/journal-entries/${res.body.id}`, token);
    expect(fetched.body).toEqual(res.body);
  });

  it('when auto_post is true, then the entry is posted at once and balances move in each account’s normal direction', async () => {
    const before = [await balance(acct.Checking!), await balance(acct.Salary!)];
    const res = await create(
      entry(
        [
          [acct.Checking!, 'DEBIT', '1000.00'],
          [acct.Salary!, 'CREDIT', '1000.00'],
        ],
        { auto_post: true },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('posted');
    expect(res.body.posted_at).toEqual(expect.any(String));
    expect(usd(await balance(acct.Checking!)) - usd(before[0]!)).toBe(100000n);
    expect(usd(await balance(acct.Salary!)) - usd(before[1]!)).toBe(100000n);
  });

  it('when a line omits its currency, then it takes its account’s currency; JPY has no decimals and KWD three', async () => {
    const yen = await create(
      entry([
        [acct['Yen food']!, 'DEBIT', '1500'],
        [acct['Yen wallet']!, 'CREDIT', '1500'],
      ]),
    );
    expect(yen.status).toBe(201);
    expect(yen.body.lines.map((l: { amount: string; currency: string }) => `${l.amount} ${l.currency}`)).toEqual([
      '1500 JPY',
      '1500 JPY',
    ]);
    const dinar = await create(
      entry(
        [
          [acct.Dinar!, 'DEBIT', '1.234'],
          [acct['Dinar income']!, 'CREDIT', '1.234'],
        ],
        { auto_post: true },
      ),
    );
    expect(dinar.status).toBe(201);
    expect(dinar.body.lines[0].amount).toBe('1.234');
    expect(await balance(acct.Dinar!)).toBe('1.234');
  });

  it('when an entry mixes currencies, then it must balance in each currency separately to be posted', async () => {
    const res = await create(
      entry(
        [
          [acct.Groceries!, 'DEBIT', '10.00'],
          [acct['Yen wallet']!, 'CREDIT', '10'],
        ],
        { auto_post: true },
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNBALANCED');
    expect(res.body.detail).toMatch(/USD .*10\.00.*JPY .*10/);
  });

  it('when an unbalanced entry is saved as a draft, then it is kept as it is, and posting it is refused with the difference', async () => {
    const lines: [string, 'DEBIT' | 'CREDIT', string][] = [
      [acct.Groceries!, 'DEBIT', '12.00'],
      [acct.Checking!, 'CREDIT', '10.00'],
    ];
    const before = await balance(acct.Checking!);
    const draft = await create(entry(lines));
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe('draft');
    expect(draft.body.lines.map((l: { amount: string }) => l.amount)).toEqual(['12.00', '10.00']);
    const post = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('UNBALANCED');
    expect(post.body.detail).toMatch(/USD debits exceed credits by 2\.00/);
    expect((await api.get(`/api/journal-entries/${draft.body.id}`, token)).body).toEqual(draft.body);
    expect(await balance(acct.Checking!)).toBe(before);
    // finished later: balanced, then posted
    const fixed = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        lines: shopping('12.00').lines,
      },
      token,
    );
    expect(fixed.status).toBe(200);
    expect((await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token)).body.status).toBe('posted');
  });
});
