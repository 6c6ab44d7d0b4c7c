import { beforeAll, describe, expect, it } from 'vitest';
import { api, token, useAppServer } from '../../../test/support/app-server.ts';
import { writeBooks } from '../../../test/support/books.ts';

useAppServer();

describe('export', () => {
  beforeAll(() =>
    writeBooks(
      api,
      token,
      `
account Checking   ; type: ASSET
account Groceries  ; type: EXPENSE

2024-01-10 * January market
    Groceries   10.00
    Checking

2024-02-10 * February market  ; void: typo
    Groceries   20.00
    Checking

2024-03-10 ! March draft
    Groceries   30.00
    Checking
`,
    ),
  );

  it('when there is no token, then the export is 401', async () => {
    expect((await api.get('/api/export?format=csv')).status).toBe(401);
  });

  it('when the format is unknown or the range is reversed, then it is 400 VALIDATION_ERROR naming the field', async () => {
    const bad = await api.get('/api/export?format=qif', token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('format');
    const reversed = await api.get('/api/export?format=csv&start_date=2024-03-01&end_date=2024-01-01', token);
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors[0].field).toBe('start_date');
  });

  it('when exported as CSV, then it is a download with one row per line of posted history: voided entry and reversal, never drafts', async () => {
    const res = await api.get('/api/export?format=csv', token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="personal-ledger.csv"');
    const [header, ...lines] = res.text.trimEnd().split('\r\n');
    expect(header).toBe('date,entry_id,memo,account,debit,credit,currency,status,cost,cost_currency');
    const rows = lines.map((r) => r.split(','));
    const memos = rows.map((r) => `${r[0]} ${r[2]} ${r[3]} ${r[4]}|${r[5]} ${r[7]}`);
    expect(memos.slice(0, 4)).toEqual([
      '2024-01-10 January market Expenses:Groceries 10.00| posted',
      '2024-01-10 January market Assets:Checking |10.00 posted',
      '2024-02-10 February market Expenses:Groceries 20.00| void',
      '2024-02-10 February market Assets:Checking |20.00 void',
    ]);
    expect(memos.slice(4).map((m) => m.split(' ').slice(1).join(' '))).toEqual([
      'Void: February market (typo) Expenses:Groceries |20.00 posted',
      'Void: February market (typo) Assets:Checking 20.00| posted',
    ]);
    expect(res.text).not.toContain('March draft');
  });

  it('when as_of or a date range is given, then only entries dated within it are exported', async () => {
    const asOf = await api.get('/api/export?format=hledger&as_of=2024-01-31', token);
    expect(asOf.status).toBe(200);
    expect(asOf.headers.get('content-disposition')).toBe('attachment; filename="personal-ledger-2024-01-31.journal"');
    expect(asOf.text).toContain('January market');
    expect(asOf.text).not.toContain('February market');
    const range = await api.get('/api/export?format=beancount&start_date=2024-02-01&end_date=2024-02-28', token);
    expect(range.text).not.toContain('January market');
    expect(range.text).toContain('2024-02-10 * "February market"');
    expect(range.text).toContain('2024-02-10 open Assets:Checking USD');
  });
});
