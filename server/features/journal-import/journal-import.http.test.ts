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

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
});
afterAll(() => t.stop());

async function user() {
  const u = await registerUser(api);
  await api.get('/api/accounts', u.token); // opens (creates) the ledger file
  return u;
}

async function account(
  token: string,
  name: string,
  type: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, ...extra }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}

function importJournal(token: string, format: string, text: string | Uint8Array, contentType = 'text/plain') {
  return api.request('POST', `/api/import/journal?format=${format}`, {
    rawBody: text,
    token,
    headers: { 'content-type': contentType },
  });
}

describe('import', () => {
  const journal = [
    '; a small hledger journal',
    'account Assets:Bank:Checking',
    '',
    '2024-01-01 * Opening',
    '    Assets:Bank:Checking    1000.00 USD',
    '    Equity:Opening',
    '',
    '2024-01-05 Market',
    '    Expenses:Food:Groceries    82.50 USD',
    '    Assets:Bank:Checking',
    '',
  ].join('\n');

  it('when a journal is imported, then its accounts are created by root and its transactions posted as import entries', async () => {
    const { token } = await user();
    const res = await importJournal(token, 'hledger', journal);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      format: 'hledger',
      accounts_created: 5,
      entries_imported: 2,
      lines_imported: 4,
      accounts_closed: 0,
      prices_imported: 0,
      first_date: '2024-01-01',
      last_date: '2024-01-05',
    });
    const balances = (await api.get('/api/accounts/balances?as_of=2024-12-31', token)).body.balances;
    const byName = Object.fromEntries(
      balances.map((b: { name: string; type: string; balance: string }) => [b.name, `${b.type} ${b.balance}`]),
    );
    expect(byName).toEqual({
      Bank: 'ASSET 0.00',
      Checking: 'ASSET 917.50',
      Opening: 'EQUITY 1000.00',
      Food: 'EXPENSE 0.00',
      Groceries: 'EXPENSE 82.50',
    });
    const entries = (await api.get('/api/journal-entries', token)).body.items;
    expect(
      entries.map(
        (e: { source_type: string; status: string; memo: string }) => `${e.source_type} ${e.status} ${e.memo}`,
      ),
    ).toEqual(['import posted Market', 'import posted Opening']);
  });

  it('when the journal comes as multipart field "file", then it is imported the same way', async () => {
    const { token } = await user();
    const form = new FormData();
    form.append('file', new Blob([journal], { type: 'text/plain' }), 'books.journal');
    const res = await fetch(`${t.server.url}/api/import/journal?format=ledger`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { entries_imported: number }).entries_imported).toBe(2);
  });

  it('when a leaf name is taken elsewhere in the tree, then the new account is named by its path without the root, and exports back to the same path', async () => {
    const { token } = await user();
    await account(token, 'Other', 'EXPENSE');
    const res = await importJournal(
      token,
      'hledger',
      '2024-01-01 x\n    Expenses:Food:Other  1 USD\n    Assets:Cash\n',
    );
    expect(res.status).toBe(201);
    const names = (await api.get('/api/accounts?per_page=100', token)).body.items.map((a: { name: string }) => a.name);
    expect(names).toContain('Food:Other');
    const text = (await api.get('/api/export?format=hledger', token)).text;
    expect(text).toContain('account Expenses:Food:Other\n');
    expect(text).toContain('account Expenses:Other\n');
  });

  it('when an hledger journal writes its roots in lower case or as revenues, then they read as our roots, and existing accounts are found', async () => {
    const { token } = await user();
    await account(token, 'Checking', 'ASSET');
    const res = await importJournal(
      token,
      'hledger',
      '2024-01-01 pay\n    assets:Checking  10 USD\n    revenues:salary\n',
    );
    expect(res.status).toBe(201);
    expect(res.body.accounts_created).toBe(1);
    const rows = (await api.get('/api/accounts/balances?as_of=2024-12-31', token)).body.balances;
    expect(
      rows.map((b: { name: string; type: string; balance: string }) => `${b.name} ${b.type} ${b.balance}`).sort(),
    ).toEqual(['Checking ASSET 10.00', 'salary INCOME 10.00']);
  });

  it('when a journal closes an account (beancount close), then the account is deactivated after the import', async () => {
    const { token } = await user();
    const res = await importJournal(
      token,
      'beancount',
      '2024-01-01 * "x"\n  Assets:Old  1 USD\n  Income:Gift\n2024-02-01 close Assets:Old\n',
    );
    expect(res.status).toBe(201);
    expect(res.body.accounts_closed).toBe(1);
    const old = (await api.get('/api/accounts?per_page=100', token)).body.items.find(
      (a: { name: string }) => a.name === 'Old',
    );
    expect(old.is_active).toBe(false);
  });

  const refusals: [string, string, string, string, RegExp][] = [
    [
      'an unbalanced transaction',
      'hledger',
      '2024-01-01 ok\n  Assets:A  1 USD\n  Income:B\n\n2024-01-02 bad\n  Assets:A  5.00 USD\n  Income:B  -4.99 USD\n',
      'UNBALANCED',
      /^line 5: Debits do not equal credits: USD debits exceed credits by 0\.01/,
    ],
    [
      'an unsupported directive',
      'ledger',
      '2024-01-01 ok\n  Assets:A  1 USD\n  Income:B\n\nY 2024\n',
      'UNSUPPORTED_DIRECTIVE',
      /^line 5: a default year \(Y\)/,
    ],
    [
      'an unknown root',
      'hledger',
      '2024-01-01 ok\n  Assets:A  1 USD\n  Capital:B\n',
      'INVALID_JOURNAL',
      /^line 3: the account "Capital:B" does not start with Assets/,
    ],
    [
      'a stock commodity',
      'beancount',
      '2024-01-01 * "buy"\n  Assets:Broker  10 AAPL\n  Assets:Cash  -10 USD\n',
      'UNSUPPORTED_COMMODITY',
      /^line 2: commodity "AAPL"/,
    ],
    [
      'more decimals than the currency has',
      'hledger',
      '2024-01-01 x\n  Assets:A  1 USD\n  Income:B\n2024-01-02 y\n  Assets:A  100.5 JPY\n  Income:Yen\n',
      'VALIDATION_ERROR',
      /^line 5: amount "100\.5" has more decimal places than JPY allows/,
    ],
    [
      'one account in two currencies',
      'hledger',
      '2024-01-01 x\n  Assets:A  1 USD\n  Income:B\n2024-01-02 y\n  Assets:A  1 EUR\n  Income:C\n',
      'CURRENCY_MISMATCH',
      /^line 5: the account A is in USD, not EUR/,
    ],
    [
      'a transaction with one posting',
      'hledger',
      '2024-01-01 x\n  Assets:A  0 USD\n  Income:B\n',
      'TOO_FEW_LINES',
      /^line 1: /,
    ],
    [
      'a sale of a lot the account does not hold',
      'beancount',
      '2024-01-01 * "buy"\n  Assets:Broker  10 VTI {200 USD}\n  Assets:Cash  -2000 USD\n\n2024-02-01 * "sell"\n  Assets:Broker  -4 VTI {200 USD, 2024-01-02} @ 250 USD\n  Assets:Cash  1000 USD\n  Income:Gains  -200 USD\n',
      'INSUFFICIENT_UNITS',
      /^line 6: the open lots of VTI at 200 USD, bought 2024-01-02 in the account hold fewer than the 4 units sold/,
    ],
    [
      'a sale at a cost other than its lot’s',
      'hledger',
      '2024-01-01 buy\n  Assets:Broker  10 VTI @ 200 USD\n  Assets:Cash  -2000 USD\n\n2024-02-01 sell\n  Assets:Broker  -4 VTI @ 250 USD\n  Assets:Cash  1000 USD\n',
      'INSUFFICIENT_UNITS',
      /^line 6: the open lots of VTI at 250 USD in the account hold fewer than the 4 units sold/,
    ],
    [
      'a purchase and a sale in one transaction',
      'hledger',
      '2024-01-01 buy\n  Assets:Broker  10 VTI @ 200 USD\n  Assets:Broker  -1 VTI @ 200 USD\n  Assets:Cash  -1800 USD\n',
      'INVALID_JOURNAL',
      /^line 2: a transaction either buys or sells VTI, not both/,
    ],
    [
      'units held in an income account',
      'hledger',
      '2024-01-01 buy\n  Income:Broker  10 VTI @ 200 USD\n  Assets:Cash  -2000 USD\n',
      'INVALID_JOURNAL',
      /^line 2: VTI is held in an ASSET account/,
    ],
  ];
  for (const [what, format, text, code, detail] of refusals) {
    it(`when the journal has ${what}, then it is 400 ${code} naming the line and nothing is imported`, async () => {
      const { token, id } = await user();
      const digest = databaseDigest(ledgerFile(t.dataDir, id));
      const res = await importJournal(token, format, text);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.errors[0].field).toMatch(/^line\.\d+$/);
      expect(databaseDigest(ledgerFile(t.dataDir, id))).toBe(digest);
    });
  }

  it('when a journal posts to an existing account of another currency or a deactivated one, then it is refused naming the line', async () => {
    const { token } = await user();
    const euro = await account(token, 'Wallet', 'ASSET', { currency: 'EUR' });
    const mismatch = await importJournal(token, 'hledger', '2024-01-01 x\n  Assets:Wallet  1 USD\n  Income:B\n');
    expect(mismatch.body).toMatchObject({
      code: 'CURRENCY_MISMATCH',
      detail: expect.stringMatching(/^line 2: the account Wallet is in EUR/),
    });
    await api.put(`/api/accounts/${euro}`, { is_active: false }, token);
    const inactive = await importJournal(token, 'hledger', '2024-01-01 x\n  Assets:Wallet  1 EUR\n  Income:B\n');
    expect(inactive.body).toMatchObject({
      code: 'INACTIVE_ACCOUNT',
      detail: expect.stringMatching(/^line 1: The account Wallet is deactivated/),
    });
  });

  it('when the file is not UTF-8, the format is missing, or the file is over 20 MiB, then it is refused and nothing changes', async () => {
    const { token, id } = await user();
    const digest = databaseDigest(ledgerFile(t.dataDir, id));
    const latin1 = await importJournal(token, 'ledger', new Uint8Array([0x32, 0x30, 0xe9, 0xff, 0x0a]));
    expect(latin1.body).toMatchObject({ code: 'INVALID_JOURNAL' });
    const noFormat = await api.request('POST', '/api/import/journal', {
      rawBody: journal,
      token,
      headers: { 'content-type': 'text/plain' },
    });
    expect(noFormat.status).toBe(400);
    expect(noFormat.body.errors[0].field).toBe('format');
    const huge = await importJournal(token, 'ledger', `; ${'x'.repeat(21 * 1024 * 1024)}\n`);
    expect(huge.status).toBe(413);
    expect(databaseDigest(ledgerFile(t.dataDir, id))).toBe(digest);
  });
});
