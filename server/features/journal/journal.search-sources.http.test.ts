import { beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

/**
 * The search beyond the memo (CONTRACT §15): the description the bank gave a bank line matched to
 * an entry (its payee with it), and the name or full path of an account the entry has a line in,
 * in English and Chinese.
 */

const ids: Record<string, string> = {};

async function account(name: string, type: string, parent?: string) {
  const res = await api.post('/api/accounts', { name, type, ...(parent ? { parent_id: ids[parent] } : {}) }, token);
  expect(res.status).toBe(201);
  ids[name] = res.body.id;
}

async function entry(date: string, memo: string, to: string, amount: string) {
  const res = await api.post(
    '/api/journal-entries',
    {
      entry_date: date,
      memo,
      auto_post: true,
      lines: [
        { account_id: ids[to], direction: 'DEBIT', amount },
        { account_id: ids.Checking, direction: 'CREDIT', amount },
      ],
    },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The memos a search finds, newest first. */
async function found(q: string, extra = ''): Promise<string[]> {
  const res = await api.get(`/api/journal-entries?per_page=100&q=${encodeURIComponent(q)}${extra}`, token);
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.items.map((e: { memo: string | null }) => e.memo);
}

/** Books a bank line of the statement to an account with a memo of its own; answers the match's id. */
async function book(description: string, to: string, memo: string): Promise<string> {
  const unmatched = await api.get('/api/reconciliation/unmatched?type=bank_transaction&per_page=100', token);
  const line = unmatched.body.items.find(
    (i: { transaction: { description: string } }) => i.transaction.description === description,
  );
  const res = await api.post(
    `/api/reconciliation/unmatched/${line.transaction.id}/create-entry`,
    { account_id: ids[to], memo },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.match.id;
}

let pretMatch: string;

useAppServer();

beforeAll(async () => {
  await account('Checking', 'ASSET');
  await account('Bills', 'EXPENSE');
  await account('Utilities', 'EXPENSE', 'Bills');
  await account('Groceries', 'EXPENSE');
  await account('餐饮', 'EXPENSE');
  await account('Salary', 'INCOME');
  await entry('2026-05-01', 'Electric bill', 'Utilities', '60.00');
  await entry('2026-05-02', 'Water', 'Utilities', '20.00');
  await entry('2026-05-03', '午饭', '餐饮', '35.00');
  await entry('2026-05-04', 'Weekly market', 'Groceries', '41.00');
  await entry('2026-05-12', 'Lunch at desk', 'Groceries', '8.50');
  const statement = await api.post(
    '/api/statements',
    {
      account_id: ids.Checking,
      name: 'May',
      transactions: [
        { date: '2026-05-10', description: 'CARD PAYMENT TO TESCO STORES 3297', amount: '12.34', type: 'debit' },
        { date: '2026-05-11', description: '支付宝 星巴克咖啡', amount: '30.00', type: 'debit' },
        { date: '2026-05-12', description: 'PRET A MANGER 8821', amount: '8.50', type: 'debit' },
      ],
    },
    token,
  );
  expect(statement.status).toBe(201);
  await book('CARD PAYMENT TO TESCO STORES 3297', 'Groceries', 'Weekly shop');
  await book('支付宝 星巴克咖啡', '餐饮', '咖啡');
  // the run pairs the Pret line with the entry already booked by hand
  expect((await api.post('/api/reconciliation/run', { statement_id: statement.body.id }, token)).status).toBe(200);
  const matches = [];
  for (const status of ['auto_accepted', 'pending_review'])
    matches.push(
      ...(await api.get(`/api/reconciliation/matches?status=${status}&statement_id=${statement.body.id}`, token)).body
        .items,
    );
  const pret = matches.filter(
    (m: { bank_transaction: { description: string } }) => m.bank_transaction.description === 'PRET A MANGER 8821',
  );
  expect(pret).toHaveLength(1);
  pretMatch = pret[0].id;
});

describe('GET /api/journal-entries?q= beyond the memo (CONTRACT §15)', () => {
  it('when an account name is searched, then the entries with a line in that account come, and in the accounts below it', async () => {
    expect(await found('Utilities')).toEqual(['Water', 'Electric bill']);
    expect(await found('util')).toEqual(['Water', 'Electric bill']);
    // a parent's name finds its sub-accounts' entries; so does the full path, typed whole
    expect(await found('Bills')).toEqual(['Water', 'Electric bill']);
    expect(await found('Expenses:Bills:Utilities')).toEqual(['Water', 'Electric bill']);
    expect(await found('Expenses:Utilities')).toEqual([]);
  });

  it('when an account name and memo words are searched together, then an entry must hold each, in either', async () => {
    expect(await found('utilities electric')).toEqual(['Electric bill']);
    expect(await found('electric water')).toEqual([]);
    expect(await found('groceries weekly')).toEqual(['Weekly shop', 'Weekly market']);
  });

  it('when a payee or a bank description is searched, then the entry booked from that bank line comes, whatever its memo', async () => {
    expect(await found('tesco')).toEqual(['Weekly shop']);
    expect(await found('card payment tesco')).toEqual(['Weekly shop']);
    expect(await found('TESCO 3297')).toEqual(['Weekly shop']);
    expect(await found('tesco', '&start_date=2026-05-11')).toEqual([]);
  });

  it('when Chinese is searched, then a two-character account name, a bank description and a type root are found', async () => {
    expect(await found('餐饮')).toEqual(['咖啡', '午饭']);
    expect(await found('星巴克')).toEqual(['咖啡']);
    expect(await found('支付宝 咖啡')).toEqual(['咖啡']);
    expect(await found('支出:餐饮')).toEqual(['咖啡', '午饭']);
    expect(await found('收入')).toEqual([]);
    expect(await found('饮餐')).toEqual([]);
  });

  it('when an account type root is searched, then the entries of every account of that type come', async () => {
    expect(await found('Expenses', '&end_date=2026-05-03')).toEqual(['午饭', 'Water', 'Electric bill']);
    expect(await found('Assets')).toHaveLength(7);
  });

  it('when an account is renamed or moved, then the search follows at once', async () => {
    expect((await api.put(`/api/accounts/${ids.Bills}`, { name: 'Household' }, token)).status).toBe(200);
    expect(await found('bills')).toEqual([]);
    expect(await found('household utilities')).toEqual(['Water', 'Electric bill']);
    expect((await api.put(`/api/accounts/${ids.Utilities}`, { parent_id: null }, token)).status).toBe(200);
    expect(await found('household')).toEqual([]);
    expect(await found('Expenses:Utilities')).toEqual(['Water', 'Electric bill']);
  });

  it('when a bank line is matched to an entry, then its description finds the entry; when the match is undone, no more', async () => {
    expect(await found('pret manger')).toEqual(['Lunch at desk']);
    const undo = await api.post(`/api/reconciliation/matches/${pretMatch}/reject`, { reason: 'not this' }, token);
    expect(undo.status).toBe(200);
    expect(await found('pret')).toEqual([]);
    expect(await found('lunch desk')).toEqual(['Lunch at desk']);
  });

  it('when the search is refused, then nothing in the ledger changes', async () => {
    const file = ledgerFile(t.dataDir, userId);
    const before = databaseDigest(file);
    for (const q of ['x'.repeat(201), `${'餐'.repeat(201)}`]) {
      const res = await api.get(`/api/journal-entries?q=${encodeURIComponent(q)}`, token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'q' }] });
    }
    // operators and quotes are plain text, in the account index too
    for (const q of ['Expenses OR x', '"Utilities', 'path:x', 'NEAR(a b)', '支出*']) {
      expect((await api.get(`/api/journal-entries?q=${encodeURIComponent(q)}`, token)).status).toBe(200);
    }
    expect(databaseDigest(file)).toBe(before);
  });
});
