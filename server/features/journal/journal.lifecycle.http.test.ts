import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, token } from '../../../test/support/app-server.ts';
import { toMinor } from '../../../test/support/plaintext-tools.ts';
import {
  account,
  acct,
  balance,
  create,
  entry,
  shopping,
  useJournalBooks,
} from '../../../test/support/journal-books.ts';

/** A USD balance in cents, exactly. */
const usd = (text: string): bigint => toMinor(text, 'USD');

/** An entry's life over HTTP: a draft updated and posted, a posted entry voided by its reversal. */

useJournalBooks();

describe('the entry life cycle (spec §3.1, §3.2)', () => {
  it('when a draft is updated, then its fields change and it stays a draft', async () => {
    const draft = await create(shopping('10.00'));
    const res = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        memo: 'Corrected',
        entry_date: '2026-03-11',
        lines: [
          { account_id: acct.Groceries, direction: 'DEBIT', amount: '12.00' },
          { account_id: acct['Credit card'], direction: 'CREDIT', amount: '12.00' },
        ],
      },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: draft.body.id, status: 'draft', memo: 'Corrected', entry_date: '2026-03-11' });
    expect(
      res.body.lines.map((l: { account_name: string; amount: string }) => `${l.account_name} ${l.amount}`),
    ).toEqual(['Groceries 12.00', 'Credit card 12.00']);
    const memoOnly = await api.put(`/api/journal-entries/${draft.body.id}`, { memo: 'Just the memo' }, token);
    expect(memoOnly.body).toMatchObject({ memo: 'Just the memo', entry_date: '2026-03-11' });
    expect(memoOnly.body.lines).toHaveLength(2);
  });

  it('when a draft is changed to unbalanced lines, then the change is kept as a draft that cannot be posted yet', async () => {
    const draft = await create(shopping('10.00'));
    const res = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        lines: [
          { account_id: acct.Groceries, direction: 'DEBIT', amount: '12.00' },
          { account_id: acct.Checking, direction: 'CREDIT', amount: '10.00' },
        ],
      },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('draft');
    expect(res.body.lines.map((l: { amount: string }) => l.amount)).toEqual(['12.00', '10.00']);
    const post = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('UNBALANCED');
  });

  it('when a draft is posted, then it is posted with posted_at and balances are affected', async () => {
    const before = await balance(acct['Credit card']!);
    const draft = await create(
      entry([
        [acct.Groceries!, 'DEBIT', '40.00'],
        [acct['Credit card']!, 'CREDIT', '40.00'],
      ]),
    );
    const res = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('posted');
    expect(res.body.posted_at).toEqual(expect.any(String));
    expect(usd(await balance(acct['Credit card']!)) - usd(before)).toBe(4000n);
  });

  it('when a posted entry is updated or posted again, then it is refused with INVALID_STATUS', async () => {
    const posted = await create(shopping('1.00', { auto_post: true }));
    const update = await api.put(`/api/journal-entries/${posted.body.id}`, { memo: 'x' }, token);
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('INVALID_STATUS');
    const again = await api.post(`/api/journal-entries/${posted.body.id}/post`, undefined, token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_STATUS', detail: 'The entry is already posted' });
  });

  it('when a draft is voided, then it is refused as not posted', async () => {
    const draft = await create(shopping('1.00'));
    const res = await api.post(`/api/journal-entries/${draft.body.id}/void`, { reason: 'x' }, token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATUS');
    expect(res.body.detail).toMatch(/not posted/);
  });

  it('when a posted entry is voided, then a posted system reversal with swapped lines offsets it and both point at each other', async () => {
    const before = [await balance(acct.Groceries!), await balance(acct.Checking!)];
    const posted = await create(shopping('25.00', { auto_post: true, entry_date: '2026-01-05' }));
    const res = await api.post(`/api/journal-entries/${posted.body.id}/void`, { reason: 'duplicate' }, token);
    expect(res.status).toBe(200);
    const { voided_entry: voided, reversal_entry: reversal } = res.body;
    expect(voided).toMatchObject({
      id: posted.body.id,
      status: 'void',
      void_reason: 'duplicate',
      reversal_entry_id: reversal.id,
    });
    expect(voided.voided_at).toEqual(expect.any(String));
    expect(reversal).toMatchObject({
      status: 'posted',
      source_type: 'system',
      memo: 'Void: Groceries at market (duplicate)',
      reverses_entry_id: posted.body.id,
    });
    expect(
      reversal.lines.map((l: { account_id: string; direction: string; amount: string }) => [
        l.account_id,
        l.direction,
        l.amount,
      ]),
    ).toEqual([
      [acct.Groceries, 'CREDIT', '25.00'],
      [acct.Checking, 'DEBIT', '25.00'],
    ]);
    // dated the later of today and the original's date: today here
    const today = new Date();
    const localToday = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(reversal.entry_date).toBe(localToday);
    expect([await balance(acct.Groceries!), await balance(acct.Checking!)]).toEqual(before);
    // the voided entry stays in history between its date and the reversal's
    const between = await api.get(`/api/accounts/${acct.Groceries}/balance?as_of=2026-01-05`, token);
    const dayBefore = await api.get(`/api/accounts/${acct.Groceries}/balance?as_of=2026-01-04`, token);
    expect(usd(between.body.balance) - usd(dayBefore.body.balance)).toBe(2500n);
  });

  it('when a future-dated entry is voided without a reason, then the reversal takes its date and the memo has no reason', async () => {
    const posted = await create(shopping('3.00', { auto_post: true, entry_date: '2098-05-01', memo: 'Future' }));
    const res = await api.post(`/api/journal-entries/${posted.body.id}/void`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.reversal_entry).toMatchObject({ entry_date: '2098-05-01', memo: 'Void: Future' });
    expect(res.body.voided_entry.void_reason).toBeNull();
  });

  it('when a void entry is voided or posted again, then it is refused with INVALID_STATUS', async () => {
    const posted = await create(shopping('2.00', { auto_post: true }));
    await api.post(`/api/journal-entries/${posted.body.id}/void`, { reason: 'once' }, token);
    const again = await api.post(`/api/journal-entries/${posted.body.id}/void`, { reason: 'twice' }, token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_STATUS', detail: 'The entry is already void' });
    const post = await api.post(`/api/journal-entries/${posted.body.id}/post`, undefined, token);
    expect(post.status).toBe(400);
    expect(post.body).toMatchObject({ code: 'INVALID_STATUS', detail: 'The entry is void' });
    const update = await api.put(`/api/journal-entries/${posted.body.id}`, { memo: 'x' }, token);
    expect(update.body.code).toBe('INVALID_STATUS');
  });

  it('when an account is deactivated, then drafts on it cannot be posted or created, and reactivating allows posting again', async () => {
    const spare = await account('Spare expense', 'EXPENSE');
    const draft = await create(
      entry([
        [spare, 'DEBIT', '7.00'],
        [acct.Checking!, 'CREDIT', '7.00'],
      ]),
    );
    const off = await api.put(`/api/accounts/${spare}`, { is_active: false }, token);
    expect(off.body.is_active).toBe(false);
    const post = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('INACTIVE_ACCOUNT');
    const created = await create(
      entry([
        [spare, 'DEBIT', '7.00'],
        [acct.Checking!, 'CREDIT', '7.00'],
      ]),
    );
    expect(created.body.code).toBe('INACTIVE_ACCOUNT');
    const on = await api.put(`/api/accounts/${spare}`, { is_active: true }, token);
    expect(on.body.is_active).toBe(true);
    const retry = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(retry.status).toBe(200);
  });

  it('when an entry id does not exist or is malformed, then every operation answers 404', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid', '..%2F..%2Fidentity']) {
      expect((await api.get(`/api/journal-entries/${id}`, token)).status).toBe(404);
      expect((await api.put(`/api/journal-entries/${id}`, { memo: 'x' }, token)).status).toBe(404);
      expect((await api.post(`/api/journal-entries/${id}/post`, undefined, token)).body.code).toBe('NOT_FOUND');
      expect((await api.post(`/api/journal-entries/${id}/void`, {}, token)).body.code).toBe('NOT_FOUND');
    }
  });
});
