import { beforeAll, describe, expect, it } from 'vitest';
import { api, token, useAppServer } from '../../../test/support/app-server.ts';
import { writeBooks, type Books } from '../../../test/support/books.ts';

/** Listing journal entries over HTTP: newest first, filtered, paged. */

useAppServer();

describe('listing entries', () => {
  let books: Books;
  beforeAll(async () => {
    books = await writeBooks(
      api,
      token,
      `
account Bank  ; type: ASSET
account Food  ; type: EXPENSE
account Rent  ; type: EXPENSE

2026-01-15 * January market  ; void: wrong
    Food     10.00
    Bank

2026-02-15 * February rent
    Rent    900.00
    Bank

2026-02-20 ! February market
    Food      5.00
    Bank

2026-03-01 * March market
    Food     20.00
    Bank
`,
    );
  });
  const ids = () => ({
    jan: books.entries['January market']!,
    feb: books.entries['February rent']!,
    febDraft: books.entries['February market']!,
    mar: books.entries['March market']!,
    food: books.accounts.Food!,
    rent: books.accounts.Rent!,
  });

  const list = async (query: string) => (await api.get(`/api/journal-entries${query}`, token)).body;

  it('when listing without filters, then entries come newest first with the page fields', async () => {
    const page = await list('');
    expect(page).toMatchObject({ total: 5, page: 1, per_page: 20 });
    const dates = page.items.map((e: { entry_date: string }) => e.entry_date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('when filtering by status, dates, account and source, then only matching entries come back', async () => {
    const { jan, feb, febDraft, mar, food, rent } = ids();
    expect((await list('?status=draft')).items.map((e: { id: string }) => e.id)).toEqual([febDraft]);
    expect((await list('?status=void')).items.map((e: { id: string }) => e.id)).toEqual([jan]);
    expect((await list('?source_type=system')).items).toHaveLength(1);
    expect((await list('?start_date=2026-02-01&end_date=2026-02-28')).items.map((e: { id: string }) => e.id)).toEqual([
      febDraft,
      feb,
    ]);
    expect((await list(`?account_id=${rent}`)).items.map((e: { id: string }) => e.id)).toEqual([feb]);
    expect((await list(`?account_id=${food}&status=posted`)).items.map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining([mar]),
    );
  });

  it('when paging, then pages split the list, a page past the end is empty with the true total', async () => {
    const first = await list('?per_page=2&page=1');
    const second = await list('?per_page=2&page=2');
    const third = await list('?per_page=2&page=3');
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(2);
    expect(third.items).toHaveLength(1);
    const all = [...first.items, ...second.items, ...third.items].map((e: { id: string }) => e.id);
    expect(new Set(all).size).toBe(5);
    const past = await list('?per_page=2&page=9');
    expect(past).toMatchObject({ items: [], total: 5, page: 9, per_page: 2 });
  });

  it('when a list parameter is invalid, then it is 400 VALIDATION_ERROR naming the parameter', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?per_page=101', 'per_page'],
      ['?per_page=abc', 'per_page'],
      ['?status=open', 'status'],
      ['?source_type=bank', 'source_type'],
      ['?start_date=2026-13-01', 'start_date'],
      ['?start_date=2026-03-01&end_date=2026-01-01', 'start_date'],
      ['?account_id=nope', 'account_id'],
      ['?page=1&page=2', 'page'],
    ]) {
      const res = await api.get(`/api/journal-entries${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});
