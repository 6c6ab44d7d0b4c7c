import { beforeAll, describe, expect, it } from 'vitest';
import { api, token, useAppServer } from '../../../test/support/app-server.ts';
import { writeBooks } from '../../../test/support/books.ts';

useAppServer();

let ids: Record<string, string>;
beforeAll(async () => {
  ({ accounts: ids } = await writeBooks(
    api,
    token,
    `
account Checking    ; type: ASSET
account Food        ; type: EXPENSE
account Rent        ; type: EXPENSE
account Yen wallet  ; type: ASSET, currency: JPY
account Yen food    ; type: EXPENSE, currency: JPY

2026-03-01 * Coffee
    Food          4.20
    Checking

2026-03-02 * Groceries
    Food         49.99
    Checking

2026-03-03 * Market
    Food         50.00
    Checking

2026-03-04 * Dinner
    Food        120.00
    Checking

2026-03-05 * Rent March
    Rent       1500.00
    Checking

2026-03-06 * Ramen
    Yen food        80
    Yen wallet

2026-03-07 ! Market draft
    Food         60.00
    Checking
`,
  ));
});

/** The memos a listing finds, newest first. */
async function found(query: string): Promise<string[]> {
  const res = await api.get(`/api/journal-entries?per_page=100&${query}`, token);
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.items.map((e: { memo: string | null }) => e.memo);
}

describe('GET /api/journal-entries?amount_min=&amount_max=', () => {
  it('when a range is given, then entries with a line inside it come, bounds included, in any currency', async () => {
    expect(await found('amount_min=50&amount_max=120.00')).toEqual(['Market draft', 'Ramen', 'Dinner', 'Market']);
    expect(await found('amount_min=49.99&amount_max=50')).toEqual(['Market', 'Groceries']);
  });

  it('when only one bound is given, then the range is open on the other side', async () => {
    expect(await found('amount_min=1000')).toEqual(['Rent March']);
    expect(await found('amount_max=5')).toEqual(['Coffee']);
  });

  it('when a bound has more decimals than a currency, then that currency keeps only its amounts inside the range', async () => {
    // 49.995 to 50.001: 50.00 USD only; no whole yen lies between them
    expect(await found('amount_min=49.995&amount_max=50.001')).toEqual(['Market']);
    expect(await found('amount_min=79.5&amount_max=80.5')).toEqual(['Ramen']);
  });

  it('when a range is combined with words, status and an account, then every condition holds', async () => {
    expect(await found('amount_min=40&amount_max=100&q=market')).toEqual(['Market draft', 'Market']);
    expect(await found('amount_min=40&amount_max=100&status=posted&q=market')).toEqual(['Market']);
    expect(await found(`amount_min=100&account_id=${ids.Rent}`)).toEqual(['Rent March']);
    expect(await found('amount_min=4&amount_max=5&q=4.20')).toEqual(['Coffee']);
    expect(await found('amount_min=100&start_date=2026-03-05&end_date=2026-03-05')).toEqual(['Rent March']);
  });

  it('when nothing lies in the range, then the page is empty', async () => {
    expect(await found('amount_min=200&amount_max=1000')).toEqual([]);
  });

  it('when a bound is not a plain decimal, is too long or the range is upside down, then it is refused and nothing changes', async () => {
    const before = await api.get('/api/journal-entries?per_page=100', token);
    for (const query of [
      'amount_min=-5',
      'amount_min=abc',
      'amount_max=1e3',
      'amount_max=1,000',
      'amount_min=',
      `amount_max=${'9'.repeat(33)}`,
      'amount_min=10&amount_max=9.99',
      'amount_min=5&amount_min=6',
      // one bound no amount beside one that is: the order of the two is not compared
      'amount_min=abc&amount_max=1.5',
      'amount_min=2&amount_max=file%3A%2F%2F%2Fetc%2Fpasswd',
    ]) {
      const res = await api.get(`/api/journal-entries?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('VALIDATION_ERROR');
      expect(typeof res.body.detail).toBe('string');
    }
    const after = await api.get('/api/journal-entries?per_page=100', token);
    expect(after.body).toEqual(before.body);
  });
});
