import { describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile, registerUser } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

useAppServer();

const create = (body: unknown) => api.post('/api/accounts', body, token);

describe('creating accounts', () => {
  it('when an account is created, then it is active, USD by default, with timestamps', async () => {
    const res = await create({ name: '  Checking  ', type: 'ASSET', description: 'Main bank' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Checking',
      type: 'ASSET',
      currency: 'USD',
      description: 'Main bank',
      is_active: true,
      parent_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.get(`/api/accounts/${res.body.id}`, token)).body).toEqual(res.body);
  });

  it('when the name exists in any letter case, then it is 400 DUPLICATE_NAME and nothing is stored', async () => {
    await create({ name: 'Savings', type: 'ASSET' });
    const digest = databaseDigest(ledgerFile(t.dataDir, userId));
    const res = await create({ name: 'SAVINGS', type: 'ASSET' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DUPLICATE_NAME');
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(digest);
  });

  it('when the type is unknown, then it is 400 INVALID_TYPE', async () => {
    const res = await create({ name: 'Odd', type: 'REVENUE' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_TYPE');
  });

  it('when the fields are wrong, then it is 400 VALIDATION_ERROR naming each field', async () => {
    for (const [body, field] of [
      [{ type: 'ASSET' }, 'name'],
      [{ name: '', type: 'ASSET' }, 'name'],
      [{ name: '   ', type: 'ASSET' }, 'name'],
      [{ name: 'x'.repeat(101), type: 'ASSET' }, 'name'],
      [{ name: 'Euro', type: 'ASSET', currency: 'EURO' }, 'currency'],
      [{ name: 'Euro', type: 'ASSET', currency: 'eur' }, 'currency'],
      [{ name: 'Euro', type: 'ASSET', parent_id: 'abc' }, 'parent_id'],
      [{ name: 'Euro', type: 'ASSET', colour: 'red' }, 'colour'],
      [{ name: 42, type: 'ASSET' }, 'name'],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('when a parent is given, then it must be an existing account of the same type', async () => {
    const assets = (await create({ name: 'Bank accounts', type: 'ASSET' })).body.id;
    const child = await create({ name: 'Bank A', type: 'ASSET', parent_id: assets });
    expect(child.status).toBe(201);
    expect(child.body.parent_id).toBe(assets);
    const wrongType = await create({ name: 'Loan', type: 'LIABILITY', parent_id: assets });
    expect(wrongType.body.code).toBe('INVALID_PARENT');
    const missing = await create({ name: 'Ghost child', type: 'ASSET', parent_id: crypto.randomUUID() });
    expect(missing.body.code).toBe('INVALID_PARENT');
  });
});

describe('listing accounts', () => {
  it('when listing, then accounts come by name with filters and pages', async () => {
    const other = await registerUser(api);
    const mk = (name: string, type: string) => api.post('/api/accounts', { name, type }, other.token);
    await mk('zeta', 'EXPENSE');
    await mk('Alpha', 'ASSET');
    await mk('beta', 'ASSET');
    const gamma = (await mk('Gamma', 'INCOME')).body.id;
    await api.put(`/api/accounts/${gamma}`, { is_active: false }, other.token);
    const all = (await api.get('/api/accounts', other.token)).body;
    expect(all.items.map((a: { name: string }) => a.name)).toEqual(['Alpha', 'beta', 'Gamma', 'zeta']);
    expect(all).toMatchObject({ total: 4, page: 1, per_page: 20 });
    expect(
      (await api.get('/api/accounts?type=ASSET', other.token)).body.items.map((a: { name: string }) => a.name),
    ).toEqual(['Alpha', 'beta']);
    expect(
      (await api.get('/api/accounts?is_active=false', other.token)).body.items.map((a: { name: string }) => a.name),
    ).toEqual(['Gamma']);
    expect((await api.get('/api/accounts?is_active=true&per_page=2&page=2', other.token)).body).toMatchObject({
      total: 3,
      items: [{ name: 'zeta' }],
    });
    for (const query of ['?type=asset', '?is_active=yes', '?per_page=0', '?page=-1']) {
      const res = await api.get(`/api/accounts${query}`, other.token);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('updating and deleting accounts', () => {
  it('when an account is renamed, described, moved or deactivated, then PUT returns the updated account', async () => {
    const parent = (await create({ name: 'Cards', type: 'LIABILITY' })).body.id;
    const card = (await create({ name: 'Visa', type: 'LIABILITY' })).body;
    const res = await api.put(
      `/api/accounts/${card.id}`,
      { name: 'Visa Gold', description: null, is_active: false, parent_id: parent },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: card.id,
      name: 'Visa Gold',
      description: null,
      is_active: false,
      parent_id: parent,
      type: 'LIABILITY',
      created_at: card.created_at,
    });
    const cycle = await api.put(`/api/accounts/${parent}`, { parent_id: card.id }, token);
    expect(cycle.body.code).toBe('INVALID_PARENT');
    const self = await api.put(`/api/accounts/${parent}`, { parent_id: parent }, token);
    expect(self.body.code).toBe('INVALID_PARENT');
  });

  it('when an account would be the 17th level of its tree, then it is 400 INVALID_PARENT naming the 16-level limit, and nothing is stored', async () => {
    let parent: string | null = null;
    for (let level = 1; level <= 16; level++) {
      const res = await create({ name: `Depth ${level}`, type: 'EQUITY', parent_id: parent });
      expect(res.status).toBe(201);
      parent = res.body.id;
    }
    const digest = databaseDigest(ledgerFile(t.dataDir, userId));
    const res = await create({ name: 'Depth 17', type: 'EQUITY', parent_id: parent });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: expect.stringContaining('at most 16 levels'),
      code: 'INVALID_PARENT',
      errors: [{ field: 'parent_id', message: 'would make the tree deeper than 16 levels' }],
    });
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(digest);
  });

  it('when a move would take an account’s sub-accounts past 16 levels, then it is 400 INVALID_PARENT and nothing changes; a move that fits is made', async () => {
    const chain = async (prefix: string, levels: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let level = 1; level <= levels; level++) {
        const res = await create({ name: `${prefix} ${level}`, type: 'INCOME', parent_id: ids.at(-1) ?? null });
        ids.push(res.body.id);
      }
      return ids;
    };
    const deep = await chain('Deep', 10);
    const branch = await chain('Branch', 7); // a branch of 7 levels under level 10 would reach 17
    const digest = databaseDigest(ledgerFile(t.dataDir, userId));
    const refused = await api.put(`/api/accounts/${branch[0]}`, { parent_id: deep[9] }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_PARENT');
    expect(refused.body.detail).toContain('at most 16 levels');
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(digest);
    const fits = await api.put(`/api/accounts/${branch[0]}`, { parent_id: deep[8] }, token);
    expect(fits.status).toBe(200);
    expect(fits.body.parent_id).toBe(deep[8]);
  });

  it('when a PUT tries to change the type or currency, then it is 400 VALIDATION_ERROR and nothing changes', async () => {
    const acc = (await create({ name: 'Wallet', type: 'ASSET' })).body;
    for (const body of [{ type: 'EXPENSE' }, { currency: 'EUR' }, { name: 'Purse', type: 'ASSET' }]) {
      const res = await api.put(`/api/accounts/${acc.id}`, body, token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await api.get(`/api/accounts/${acc.id}`, token)).body).toEqual(acc);
  });

  it('when a rename takes another account’s name, then it is DUPLICATE_NAME; renaming to its own name in another case is fine', async () => {
    const a = (await create({ name: 'Rent', type: 'EXPENSE' })).body.id;
    await create({ name: 'Utilities', type: 'EXPENSE' });
    expect((await api.put(`/api/accounts/${a}`, { name: 'utilities' }, token)).body.code).toBe('DUPLICATE_NAME');
    expect((await api.put(`/api/accounts/${a}`, { name: 'RENT' }, token)).body.name).toBe('RENT');
  });

  it('when an account has entries or sub-accounts, then DELETE is 409; otherwise 204 and it is gone', async () => {
    const bank = (await create({ name: 'Delete bank', type: 'ASSET' })).body.id;
    const food = (await create({ name: 'Delete food', type: 'EXPENSE' })).body.id;
    const parent = (await create({ name: 'Delete parent', type: 'EXPENSE' })).body.id;
    await create({ name: 'Delete child', type: 'EXPENSE', parent_id: parent });
    await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-01-01',
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '1.00' },
          { account_id: bank, direction: 'CREDIT', amount: '1.00' },
        ],
      },
      token,
    );
    const withEntries = await api.delete(`/api/accounts/${food}`, token);
    expect(withEntries.status).toBe(409);
    expect(withEntries.body.code).toBe('HAS_ENTRIES');
    const withChildren = await api.delete(`/api/accounts/${parent}`, token);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.code).toBe('HAS_CHILDREN');
    const lonely = (await create({ name: 'Delete me', type: 'EXPENSE' })).body.id;
    const res = await api.delete(`/api/accounts/${lonely}`, token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/api/accounts/${lonely}`, token)).status).toBe(404);
    expect((await api.delete(`/api/accounts/${lonely}`, token)).status).toBe(404);
  });
});

describe('balances', () => {
  it('when entries are posted over time, then /balance and /balances answer as of any date in the normal direction', async () => {
    const u = await registerUser(api);
    const mk = async (name: string, type: string, currency = 'USD') =>
      (await api.post('/api/accounts', { name, type, currency }, u.token)).body.id as string;
    const bank = await mk('Bank', 'ASSET');
    const card = await mk('Card', 'LIABILITY');
    const pay = await mk('Pay', 'INCOME');
    const food = await mk('Food', 'EXPENSE');
    const euro = await mk('Euro cash', 'ASSET', 'EUR');
    const post = (date: string, debit: string, credit: string, amount: string) =>
      api.post(
        '/api/journal-entries',
        {
          entry_date: date,
          auto_post: true,
          lines: [
            { account_id: debit, direction: 'DEBIT', amount },
            { account_id: credit, direction: 'CREDIT', amount },
          ],
        },
        u.token,
      );
    await post('2025-12-31', bank, pay, '2500.00');
    await post('2026-01-10', food, card, '120.35');
    await post('2026-02-01', card, bank, '120.35');
    await post('2026-02-03', food, bank, '0.10');
    await post('2026-02-03', food, bank, '0.20');
    const draft = await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-01-01',
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '999.00' },
          { account_id: bank, direction: 'CREDIT', amount: '999.00' },
        ],
      },
      u.token,
    );
    expect(draft.body.status).toBe('draft');

    const at = async (id: string, asOf: string) =>
      (await api.get(`/api/accounts/${id}/balance?as_of=${asOf}`, u.token)).body;
    expect(await at(bank, '2025-12-30')).toEqual({
      account_id: bank,
      balance: '0.00',
      currency: 'USD',
      as_of: '2025-12-30',
    });
    expect((await at(bank, '2025-12-31')).balance).toBe('2500.00');
    expect((await at(card, '2026-01-31')).balance).toBe('120.35');
    expect((await at(card, '2026-02-01')).balance).toBe('0.00');
    expect((await at(bank, '2026-02-03')).balance).toBe('2379.35');
    expect((await at(food, '2026-12-31')).balance).toBe('120.65');
    expect(await at(euro, '2026-12-31')).toMatchObject({ balance: '0.00', currency: 'EUR' });
    const today = await api.get(`/api/accounts/${bank}/balance`, u.token);
    expect(today.body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const all = (await api.get('/api/accounts/balances?as_of=2026-01-31', u.token)).body;
    expect(all.as_of).toBe('2026-01-31');
    expect(Object.fromEntries(all.balances.map((b: { name: string; balance: string }) => [b.name, b.balance]))).toEqual(
      {
        Bank: '2500.00',
        Card: '120.35',
        'Euro cash': '0.00',
        Food: '120.35',
        Pay: '2500.00',
      },
    );
    expect(all.balances[0]).toEqual({
      account_id: bank,
      name: 'Bank',
      type: 'ASSET',
      balance: '2500.00',
      currency: 'USD',
      parent_id: null,
      is_active: true,
    });
    expect((await api.get('/api/accounts/balances?as_of=2026-02-30', u.token)).body.code).toBe('VALIDATION_ERROR');
    expect((await api.get(`/api/accounts/${crypto.randomUUID()}/balance`, u.token)).status).toBe(404);
  });
});

describe('user isolation', () => {
  it('when user B uses any of user A’s ids, then every operation is 404 and A’s data is untouched', async () => {
    const a = await registerUser(api);
    const b = await registerUser(api);
    const bank = (await api.post('/api/accounts', { name: 'A bank', type: 'ASSET' }, a.token)).body.id;
    const food = (await api.post('/api/accounts', { name: 'A food', type: 'EXPENSE' }, a.token)).body.id;
    const entry = (
      await api.post(
        '/api/journal-entries',
        {
          entry_date: '2026-01-01',
          auto_post: true,
          lines: [
            { account_id: food, direction: 'DEBIT', amount: '5.00' },
            { account_id: bank, direction: 'CREDIT', amount: '5.00' },
          ],
        },
        a.token,
      )
    ).body.id;
    const digest = databaseDigest(ledgerFile(t.dataDir, a.id));
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/accounts/${bank}`],
      ['PUT', `/api/accounts/${bank}`, { name: 'stolen' }],
      ['DELETE', `/api/accounts/${bank}`],
      ['GET', `/api/accounts/${bank}/balance`],
      ['GET', `/api/journal-entries/${entry}`],
      ['PUT', `/api/journal-entries/${entry}`, { memo: 'stolen' }],
      ['POST', `/api/journal-entries/${entry}/post`],
      ['POST', `/api/journal-entries/${entry}/void`, { reason: 'stolen' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api.request(method, path, { body, token: b.token, headers: { 'X-User-Id': a.id } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const useAccount = await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-01-01',
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '5.00' },
          { account_id: bank, direction: 'CREDIT', amount: '5.00' },
        ],
      },
      b.token,
    );
    expect(useAccount.body.code).toBe('INVALID_ACCOUNT');
    const child = await api.post('/api/accounts', { name: 'B child', type: 'ASSET', parent_id: bank }, b.token);
    expect(child.body.code).toBe('INVALID_PARENT');
    expect((await api.get('/api/accounts', b.token)).body.total).toBe(0);
    expect((await api.get(`/api/journal-entries?account_id=${bank}`, b.token)).body.total).toBe(0);
    expect(databaseDigest(ledgerFile(t.dataDir, a.id))).toBe(digest);
  });
});
