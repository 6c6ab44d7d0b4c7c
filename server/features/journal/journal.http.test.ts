import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;
let token: string;
let userId: string;
let acct: Record<string, string>;

async function account(name: string, type: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, ...extra }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}

function entry(lines: [string, 'DEBIT' | 'CREDIT', string][], extra: Record<string, unknown> = {}) {
  return {
    entry_date: '2026-03-10',
    memo: 'Groceries at market',
    lines: lines.map(([account_id, direction, amount]) => ({ account_id, direction, amount })),
    ...extra,
  };
}

async function create(body: unknown) {
  return api.post('/api/journal-entries', body, token);
}

async function balance(id: string, asOf = '2099-12-31'): Promise<string> {
  const res = await api.get(`/api/accounts/${id}/balance?as_of=${asOf}`, token);
  expect(res.status).toBe(200);
  return res.body.balance;
}

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token, id: userId } = await registerUser(api));
  acct = {
    checking: await account('Checking', 'ASSET'),
    card: await account('Credit card', 'LIABILITY'),
    groceries: await account('Groceries', 'EXPENSE'),
    salary: await account('Salary', 'INCOME'),
    yen: await account('Yen wallet', 'ASSET', { currency: 'JPY' }),
    yenFood: await account('Yen food', 'EXPENSE', { currency: 'JPY' }),
    dinar: await account('Dinar', 'ASSET', { currency: 'KWD' }),
    dinarIncome: await account('Dinar income', 'INCOME', { currency: 'KWD' }),
  };
});
afterAll(() => t.stop());

describe('creating entries', () => {
  it('when a balanced entry is created, then it is a manual draft with its lines, names and exact amounts, and balances do not move', async () => {
    const res = await create(
      entry([
        [acct.groceries!, 'DEBIT', '82.5'],
        [acct.checking!, 'CREDIT', '82.50'],
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
        account_id: acct.groceries,
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
        account_id: acct.checking,
        account_name: 'Checking',
        direction: 'CREDIT',
        amount: '82.50',
        currency: 'USD',
        cleared: 'uncleared',
        cost: null,
        automatic: false,
      },
    ]);
    expect(await balance(acct.groceries!)).toBe('0.00');
    const fetched = await api.get(`/api/journal-entries/${res.body.id}`, token);
    expect(fetched.body).toEqual(res.body);
  });

  it('when auto_post is true, then the entry is posted at once and balances move in each account’s normal direction', async () => {
    const before = [await balance(acct.checking!), await balance(acct.salary!)];
    const res = await create(
      entry(
        [
          [acct.checking!, 'DEBIT', '1000.00'],
          [acct.salary!, 'CREDIT', '1000.00'],
        ],
        { auto_post: true },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('posted');
    expect(res.body.posted_at).toEqual(expect.any(String));
    expect(Number(await balance(acct.checking!)) - Number(before[0])).toBeCloseTo(1000);
    expect(Number(await balance(acct.salary!)) - Number(before[1])).toBeCloseTo(1000);
  });

  it('when a line omits its currency, then it takes its account’s currency; JPY has no decimals and KWD three', async () => {
    const yen = await create(
      entry([
        [acct.yenFood!, 'DEBIT', '1500'],
        [acct.yen!, 'CREDIT', '1500'],
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
          [acct.dinar!, 'DEBIT', '1.234'],
          [acct.dinarIncome!, 'CREDIT', '1.234'],
        ],
        { auto_post: true },
      ),
    );
    expect(dinar.status).toBe(201);
    expect(dinar.body.lines[0].amount).toBe('1.234');
    expect(await balance(acct.dinar!)).toBe('1.234');
  });

  it('when an entry mixes currencies, then it must balance in each currency separately to be posted', async () => {
    const res = await create(
      entry(
        [
          [acct.groceries!, 'DEBIT', '10.00'],
          [acct.yen!, 'CREDIT', '10'],
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
      [acct.groceries!, 'DEBIT', '12.00'],
      [acct.checking!, 'CREDIT', '10.00'],
    ];
    const before = await balance(acct.checking!);
    const draft = await create(entry(lines));
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe('draft');
    expect(draft.body.lines.map((l: { amount: string }) => l.amount)).toEqual(['12.00', '10.00']);
    const post = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('UNBALANCED');
    expect(post.body.detail).toMatch(/USD debits exceed credits by 2\.00/);
    expect((await api.get(`/api/journal-entries/${draft.body.id}`, token)).body).toEqual(draft.body);
    expect(await balance(acct.checking!)).toBe(before);
    // finished later: balanced, then posted
    const fixed = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        lines: entry([
          [acct.groceries!, 'DEBIT', '12.00'],
          [acct.checking!, 'CREDIT', '12.00'],
        ]).lines,
      },
      token,
    );
    expect(fixed.status).toBe(200);
    expect((await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token)).body.status).toBe('posted');
  });

  const refusals: [string, () => unknown, number, string, string?][] = [
    ['one line', () => entry([[acct.groceries!, 'DEBIT', '5.00']]), 400, 'TOO_FEW_LINES'],
    ['no lines', () => entry([]), 400, 'TOO_FEW_LINES'],
    [
      'debits above credits by a cent, posted at once',
      () =>
        entry(
          [
            [acct.groceries!, 'DEBIT', '5.01'],
            [acct.checking!, 'CREDIT', '5.00'],
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
          [acct.checking!, 'CREDIT', '5.00'],
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
          { account_id: acct.groceries, direction: 'DEBIT', amount: '5.00', currency: 'EUR' },
          { account_id: acct.checking, direction: 'CREDIT', amount: '5.00' },
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
          { account_id: acct.groceries, direction: 'DEBIT', amount: '5.00', currency: 'XYZ' },
          { account_id: acct.checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.currency',
    ],
    [
      'more digits than the currency has',
      () =>
        entry([
          [acct.groceries!, 'DEBIT', '5.001'],
          [acct.checking!, 'CREDIT', '5.001'],
        ]),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    [
      'a JSON number amount',
      () => ({
        ...entry([]),
        lines: [
          { account_id: acct.groceries, direction: 'DEBIT', amount: 5 },
          { account_id: acct.checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    [
      'a negative amount',
      () =>
        entry([
          [acct.groceries!, 'DEBIT', '-5.00'],
          [acct.checking!, 'CREDIT', '-5.00'],
        ]),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    [
      'a zero amount',
      () =>
        entry([
          [acct.groceries!, 'DEBIT', '0.00'],
          [acct.checking!, 'CREDIT', '0.00'],
        ]),
      400,
      'VALIDATION_ERROR',
      'lines.0.amount',
    ],
    [
      'an exponent amount',
      () =>
        entry([
          [acct.groceries!, 'DEBIT', '1e2'],
          [acct.checking!, 'CREDIT', '100'],
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
          { account_id: acct.groceries, direction: 'debit', amount: '5.00' },
          { account_id: acct.checking, direction: 'CREDIT', amount: '5.00' },
        ],
      }),
      400,
      'VALIDATION_ERROR',
      'lines.0.direction',
    ],
    [
      'a date that is not on the calendar',
      () =>
        entry(
          [
            [acct.groceries!, 'DEBIT', '5.00'],
            [acct.checking!, 'CREDIT', '5.00'],
          ],
          { entry_date: '2026-02-30' },
        ),
      400,
      'VALIDATION_ERROR',
      'entry_date',
    ],
    [
      'no date',
      () => ({
        lines: entry([
          [acct.groceries!, 'DEBIT', '5.00'],
          [acct.checking!, 'CREDIT', '5.00'],
        ]).lines,
      }),
      400,
      'VALIDATION_ERROR',
      'entry_date',
    ],
    [
      'a memo over 500 characters',
      () =>
        entry(
          [
            [acct.groceries!, 'DEBIT', '5.00'],
            [acct.checking!, 'CREDIT', '5.00'],
          ],
          { memo: 'x'.repeat(501) },
        ),
      400,
      'VALIDATION_ERROR',
      'memo',
    ],
    [
      'an unknown field',
      () =>
        entry(
          [
            [acct.groceries!, 'DEBIT', '5.00'],
            [acct.checking!, 'CREDIT', '5.00'],
          ],
          { status: 'posted' },
        ),
      400,
      'VALIDATION_ERROR',
      'status',
    ],
    [
      'auto_post as a string',
      () =>
        entry(
          [
            [acct.groceries!, 'DEBIT', '5.00'],
            [acct.checking!, 'CREDIT', '5.00'],
          ],
          { auto_post: 'yes' },
        ),
      400,
      'VALIDATION_ERROR',
      'auto_post',
    ],
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

describe('the entry life cycle (spec §3.1, §3.2)', () => {
  it('when a draft is updated, then its fields change and it stays a draft', async () => {
    const draft = await create(
      entry([
        [acct.groceries!, 'DEBIT', '10.00'],
        [acct.checking!, 'CREDIT', '10.00'],
      ]),
    );
    const res = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        memo: 'Corrected',
        entry_date: '2026-03-11',
        lines: [
          { account_id: acct.groceries, direction: 'DEBIT', amount: '12.00' },
          { account_id: acct.card, direction: 'CREDIT', amount: '12.00' },
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
    const draft = await create(
      entry([
        [acct.groceries!, 'DEBIT', '10.00'],
        [acct.checking!, 'CREDIT', '10.00'],
      ]),
    );
    const res = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        lines: [
          { account_id: acct.groceries, direction: 'DEBIT', amount: '12.00' },
          { account_id: acct.checking, direction: 'CREDIT', amount: '10.00' },
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
    const before = await balance(acct.card!);
    const draft = await create(
      entry([
        [acct.groceries!, 'DEBIT', '40.00'],
        [acct.card!, 'CREDIT', '40.00'],
      ]),
    );
    const res = await api.post(`/api/journal-entries/${draft.body.id}/post`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('posted');
    expect(res.body.posted_at).toEqual(expect.any(String));
    expect(Number(await balance(acct.card!)) - Number(before)).toBeCloseTo(40);
  });

  it('when a posted entry is updated or posted again, then it is refused with INVALID_STATUS', async () => {
    const posted = await create(
      entry(
        [
          [acct.groceries!, 'DEBIT', '1.00'],
          [acct.checking!, 'CREDIT', '1.00'],
        ],
        { auto_post: true },
      ),
    );
    const update = await api.put(`/api/journal-entries/${posted.body.id}`, { memo: 'x' }, token);
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('INVALID_STATUS');
    const again = await api.post(`/api/journal-entries/${posted.body.id}/post`, undefined, token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_STATUS', detail: 'The entry is already posted' });
  });

  it('when a draft is voided, then it is refused as not posted', async () => {
    const draft = await create(
      entry([
        [acct.groceries!, 'DEBIT', '1.00'],
        [acct.checking!, 'CREDIT', '1.00'],
      ]),
    );
    const res = await api.post(`/api/journal-entries/${draft.body.id}/void`, { reason: 'x' }, token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATUS');
    expect(res.body.detail).toMatch(/not posted/);
  });

  it('when a posted entry is voided, then a posted system reversal with swapped lines offsets it and both point at each other', async () => {
    const before = [await balance(acct.groceries!), await balance(acct.checking!)];
    const posted = await create(
      entry(
        [
          [acct.groceries!, 'DEBIT', '25.00'],
          [acct.checking!, 'CREDIT', '25.00'],
        ],
        { auto_post: true, entry_date: '2026-01-05' },
      ),
    );
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
      [acct.groceries, 'CREDIT', '25.00'],
      [acct.checking, 'DEBIT', '25.00'],
    ]);
    // dated the later of today and the original's date: today here
    const today = new Date();
    const localToday = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(reversal.entry_date).toBe(localToday);
    expect([await balance(acct.groceries!), await balance(acct.checking!)]).toEqual(before);
    // the voided entry stays in history between its date and the reversal's
    const between = await api.get(`/api/accounts/${acct.groceries}/balance?as_of=2026-01-05`, token);
    const dayBefore = await api.get(`/api/accounts/${acct.groceries}/balance?as_of=2026-01-04`, token);
    expect(Number(between.body.balance) - Number(dayBefore.body.balance)).toBeCloseTo(25);
  });

  it('when a future-dated entry is voided without a reason, then the reversal takes its date and the memo has no reason', async () => {
    const posted = await create(
      entry(
        [
          [acct.groceries!, 'DEBIT', '3.00'],
          [acct.checking!, 'CREDIT', '3.00'],
        ],
        { auto_post: true, entry_date: '2098-05-01', memo: 'Future' },
      ),
    );
    const res = await api.post(`/api/journal-entries/${posted.body.id}/void`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.reversal_entry).toMatchObject({ entry_date: '2098-05-01', memo: 'Void: Future' });
    expect(res.body.voided_entry.void_reason).toBeNull();
  });

  it('when a void entry is voided or posted again, then it is refused with INVALID_STATUS', async () => {
    const posted = await create(
      entry(
        [
          [acct.groceries!, 'DEBIT', '2.00'],
          [acct.checking!, 'CREDIT', '2.00'],
        ],
        { auto_post: true },
      ),
    );
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
        [acct.checking!, 'CREDIT', '7.00'],
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
        [acct.checking!, 'CREDIT', '7.00'],
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

describe('listing entries', () => {
  let t2: TestServer;
  let tok: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t2 = await startTestServer();
    ({ token: tok } = await registerUser(t2.api));
    const mk = async (name: string, type: string) =>
      (await t2.api.post('/api/accounts', { name, type }, tok)).body.id as string;
    ids.bank = await mk('Bank', 'ASSET');
    ids.food = await mk('Food', 'EXPENSE');
    ids.rent = await mk('Rent', 'EXPENSE');
    const add = async (date: string, account: string, amount: string, autoPost: boolean) =>
      (
        await t2.api.post(
          '/api/journal-entries',
          {
            entry_date: date,
            memo: `${date} ${amount}`,
            auto_post: autoPost,
            lines: [
              { account_id: account, direction: 'DEBIT', amount },
              { account_id: ids.bank, direction: 'CREDIT', amount },
            ],
          },
          tok,
        )
      ).body.id as string;
    ids.jan = await add('2026-01-15', ids.food!, '10.00', true);
    ids.feb = await add('2026-02-15', ids.rent!, '900.00', true);
    ids.febDraft = await add('2026-02-20', ids.food!, '5.00', false);
    ids.mar = await add('2026-03-01', ids.food!, '20.00', true);
    await t2.api.post(`/api/journal-entries/${ids.jan}/void`, { reason: 'wrong' }, tok);
  });
  afterAll(() => t2.stop());

  const list = async (query: string) => (await t2.api.get(`/api/journal-entries${query}`, tok)).body;

  it('when listing without filters, then entries come newest first with the page fields', async () => {
    const page = await list('');
    expect(page).toMatchObject({ total: 5, page: 1, per_page: 20 });
    const dates = page.items.map((e: { entry_date: string }) => e.entry_date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('when filtering by status, dates, account and source, then only matching entries come back', async () => {
    expect((await list('?status=draft')).items.map((e: { id: string }) => e.id)).toEqual([ids.febDraft]);
    expect((await list('?status=void')).items.map((e: { id: string }) => e.id)).toEqual([ids.jan]);
    expect((await list('?source_type=system')).items).toHaveLength(1);
    expect((await list('?start_date=2026-02-01&end_date=2026-02-28')).items.map((e: { id: string }) => e.id)).toEqual([
      ids.febDraft,
      ids.feb,
    ]);
    expect((await list(`?account_id=${ids.rent}`)).items.map((e: { id: string }) => e.id)).toEqual([ids.feb]);
    expect((await list(`?account_id=${ids.food}&status=posted`)).items.map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining([ids.mar]),
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
      const res = await t2.api.get(`/api/journal-entries${query}`, tok);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});
