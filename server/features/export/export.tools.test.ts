import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { LedgerSchema } from '../../db/schema.ts';
import { SqliteDb, openSqliteFile } from '../../db/sqlite.ts';
import { type AccountType } from '../../domain/double-entry.ts';
import { type JournalFormat } from '../../domain/plaintext/index.ts';
import { changeAccount, createAccount } from '../accounts/accounts.service.ts';
import { createEntry, voidEntry } from '../journal/journal.service.ts';
import { savePrice } from '../prices/prices.service.ts';
import { matchedEntryVoidGuard } from '../reconciliation/reconciliation.review.service.ts';
import {
  apiBalances,
  describeTools,
  EXTENSION,
  requireTools,
  run,
  skipReason,
  sorted,
  TOOL_BALANCES,
} from '../../../test/support/plaintext-tools.ts';

/**
 * The exports checked by the real tools of plain-text accounting (Debian's hledger, ledger and
 * beancount, installed by CI): a generated ledger's balances as each tool reports them equal
 * /api/accounts/balances account by account and currency by currency; hledger check and
 * bean-check pass; export -> import -> export gives the same balances and text; real journals
 * written elsewhere import where they use what we support and are refused by name otherwise.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A few thousand entries over four years through the service layer: USD, EUR and JPY accounts,
 * hierarchies five deep, names every format must transliterate (colons, semicolons, accents, a
 * lower-case start), an imported-style `Food:Other` name, postings on parents, split and
 * two-currency entries, exchanges (a line's cost in another currency) and their voids, prices,
 * voids, and a deactivated account.
 */
async function generateLedger(db: LedgerDb, entries: number): Promise<void> {
  const r = random(20240607);
  const acct = (name: string, type: AccountType, currency: string, parent?: string) =>
    createAccount(db, { name, type, currency, parent_id: parent ?? null }).id;
  const bank = acct('Bank', 'ASSET', 'USD');
  const checking = acct('Checking: main', 'ASSET', 'USD', bank);
  const bills = acct('Bills', 'ASSET', 'USD', checking);
  const utilities = acct('Utilities', 'ASSET', 'USD', bills);
  const power = acct('Power & light', 'ASSET', 'USD', utilities);
  const savings = acct('Savings', 'ASSET', 'USD', bank);
  const euro = acct('Euro account', 'ASSET', 'EUR');
  const spending = acct('Spending', 'ASSET', 'EUR', euro);
  const yen = acct('Yen wallet', 'ASSET', 'JPY');
  const card = acct('Credit card', 'LIABILITY', 'USD');
  const visa = acct('Visa; old', 'LIABILITY', 'USD', card);
  const openUsd = acct('Opening balances', 'EQUITY', 'USD');
  const openEur = acct('Opening EUR', 'EQUITY', 'EUR', openUsd);
  const openJpy = acct('Opening JPY', 'EQUITY', 'JPY');
  const salary = acct('Salary', 'INCOME', 'USD');
  const bonus = acct('Bonus', 'INCOME', 'USD', salary);
  const freelance = acct('freelance', 'INCOME', 'EUR');
  const gifts = acct('Gifts', 'INCOME', 'JPY');
  const food = acct('Food', 'EXPENSE', 'USD');
  const groceries = acct('Groceries', 'EXPENSE', 'USD', food);
  const organic = acct('Organic', 'EXPENSE', 'USD', groceries);
  const farms = acct('Local farms', 'EXPENSE', 'USD', organic);
  const foodOther = acct('Food:Other', 'EXPENSE', 'USD', food);
  const ramen = acct('Rāmen', 'EXPENSE', 'JPY', food);
  const travel = acct('Travel', 'EXPENSE', 'EUR');
  const cafe = acct('Café & Bar', 'EXPENSE', 'EUR', travel);
  const travelOther = acct('Travel:Other', 'EXPENSE', 'EUR', travel);
  const subscriptions = acct('Old subscriptions', 'EXPENSE', 'USD');
  acct('Never used', 'EXPENSE', 'EUR', travel);

  const memos = [
    'Market',
    'Rent; June',
    'Dinner "La Vie"',
    'Two\nlines',
    '(42) cheque',
    'Ünïcödé 😀',
    '',
    'Power bill',
    'Salary',
    'Refund',
  ];
  const usdExpenses = [food, groceries, organic, farms, foodOther, subscriptions];
  const post = (date: string, lines: [string, 'DEBIT' | 'CREDIT', string][], memo: string | null) =>
    createEntry(db, {
      entry_date: date,
      memo,
      auto_post: true,
      lines: lines.map(([account_id, direction, amount]) => ({ account_id, direction, amount })),
    }).id;
  const cents = (lo: number, hi: number) => {
    const v = r.int(lo, hi);
    return `${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')}`;
  };

  post(
    '2021-01-01',
    [
      [checking, 'DEBIT', '5000.00'],
      [savings, 'DEBIT', '12000.00'],
      [openUsd, 'CREDIT', '17000.00'],
    ],
    'Opening balances',
  );
  post(
    '2021-01-01',
    [
      [euro, 'DEBIT', '2500.00'],
      [openEur, 'CREDIT', '2500.00'],
    ],
    'Opening EUR',
  );
  post(
    '2021-01-01',
    [
      [yen, 'DEBIT', '150000'],
      [openJpy, 'CREDIT', '150000'],
    ],
    'Opening JPY',
  );
  let date = '2021-01-02';
  for (let i = 0; i < entries; i++) {
    // The server runs in this process: let it serve its keep-alive timers now and then.
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    if (r.next() < 0.6) date = addDays(date, 1);
    if (i % 40 === 0) {
      savePrice(db, { date, from: 'EUR', to: 'USD', rate: `1.${r.int(0, 2999).toString().padStart(4, '0')}` });
      savePrice(db, { date, from: 'USD', to: 'JPY', rate: `1${r.int(10, 59)}.${r.int(0, 99)}` });
    }
    const memo = r.next() < 0.05 ? null : r.pick(memos);
    const kind = r.int(0, 9);
    let id: string;
    if (kind === 0)
      id = post(
        date,
        [
          [r.pick([checking, savings]), 'DEBIT', cents(200000, 500000)],
          [r.pick([salary, bonus]), 'CREDIT', '0'],
        ].map((l, k, all) => (k === 1 ? [l[0], l[1], all[0]![2]] : l)) as [string, 'DEBIT' | 'CREDIT', string][],
        memo,
      );
    else if (kind <= 4) {
      const expense = date < '2022-01-01' ? r.pick(usdExpenses) : r.pick(usdExpenses.slice(0, 5));
      const amount = cents(100, 25000);
      id = post(
        date,
        [
          [expense, 'DEBIT', amount],
          [r.pick([checking, visa, card, power]), 'CREDIT', amount],
        ],
        memo,
      );
    } else if (kind === 5) {
      const [a, b] = [r.int(100, 9000), r.int(100, 9000)];
      const total = a + b;
      const fmt = (v: number) => `${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')}`;
      id = post(
        date,
        [
          [groceries, 'DEBIT', fmt(a)],
          [farms, 'DEBIT', fmt(b)],
          [checking, 'CREDIT', fmt(total)],
        ],
        memo,
      );
    } else if (kind === 6) {
      const amount = cents(100, 20000);
      id = post(
        date,
        [
          [r.pick([cafe, travelOther, travel]), 'DEBIT', amount],
          [r.pick([spending, euro]), 'CREDIT', amount],
        ],
        memo,
      );
    } else if (kind === 7) {
      const amount = String(r.int(300, 30000));
      const income = r.next() < 0.2;
      id = post(
        date,
        income
          ? [
              [yen, 'DEBIT', amount],
              [gifts, 'CREDIT', amount],
            ]
          : [
              [ramen, 'DEBIT', amount],
              [yen, 'CREDIT', amount],
            ],
        memo,
      );
    } else if (kind === 8 && r.next() < 0.5) {
      const [usd, eur] = [cents(1000, 90000), cents(1000, 90000)];
      id = createEntry(db, {
        entry_date: date,
        memo,
        auto_post: true,
        lines: [
          {
            account_id: r.pick([euro, spending]),
            direction: 'DEBIT',
            amount: eur,
            cost: { amount: usd, currency: 'USD' },
          },
          { account_id: checking, direction: 'CREDIT', amount: usd },
        ],
      }).id;
    } else if (kind === 8) {
      const [usd, eur] = [cents(1000, 90000), cents(1000, 90000)];
      id = post(
        date,
        [
          [card, 'DEBIT', usd],
          [checking, 'CREDIT', usd],
          [euro, 'DEBIT', eur],
          [freelance, 'CREDIT', eur],
        ],
        memo,
      );
    } else {
      const amount = cents(1000, 200000);
      id = post(
        date,
        [
          [savings, 'DEBIT', amount],
          [checking, 'CREDIT', amount],
        ],
        memo,
      );
    }
    if (r.next() < 0.04)
      voidEntry(db, id, r.next() < 0.5 ? 'duplicate' : null, matchedEntryVoidGuard, addDays(date, r.int(0, 20)));
  }
  changeAccount(db, subscriptions, { is_active: false });
}

describeTools(`exports checked by hledger, ledger and beancount${skipReason}`, () => {
  let t: TestServer;
  let token: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-export-'));
  const exported = {} as Record<JournalFormat, string>;
  const timings: string[] = [];

  beforeAll(async () => {
    requireTools();
    t = await startTestServer();
    const u = await registerUser(t.api);
    token = u.token;
    await t.api.get('/api/accounts', token);
    const db = new SqliteDb<LedgerSchema>(openSqliteFile(ledgerFile(t.dataDir, u.id)));
    try {
      await generateLedger(db, 3000);
    } finally {
      db.close();
    }
    for (const format of ['hledger', 'ledger', 'beancount'] as const) {
      const started = performance.now();
      const res = await t.api.get(`/api/export?format=${format}`, token);
      timings.push(`${format} ${(performance.now() - started).toFixed(0)} ms`);
      expect(res.status).toBe(200);
      exported[format] = res.text;
      fs.writeFileSync(path.join(dir, `export.${EXTENSION[format]}`), res.text);
    }
    console.info(
      `export of the generated ledger (${exported.hledger.split('\n').length} lines): ${timings.join(', ')}`,
    );
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const format of ['hledger', 'ledger', 'beancount'] as const) {
    it(`when the books are exported for ${format}, then ${format} reports exactly the balances the API reports, account by account and currency by currency`, async () => {
      const expected = await apiBalances(t.api, token, format);
      expect(expected.size).toBeGreaterThan(20);
      expect(new Set([...expected.keys()].map((k) => k.split('|')[1]))).toEqual(new Set(['USD', 'EUR', 'JPY']));
      expect([...expected.keys()].some((k) => k.includes('Currency'))).toBe(true);
      expect(sorted(await TOOL_BALANCES[format](path.join(dir, `export.${EXTENSION[format]}`)))).toEqual(
        sorted(expected),
      );
    });
  }

  it('when the exports are checked, then hledger check (strict, ordered dates), ledger --pedantic and bean-check find nothing', async () => {
    expect(await run('hledger', ['-f', path.join(dir, 'export.journal'), 'check', '--strict', 'ordereddates'])).toBe(
      '',
    );
    await run('ledger', ['--args-only', '--pedantic', '-f', path.join(dir, 'export.ledger'), 'balance']);
    expect(await run('bean-check', [path.join(dir, 'export.beancount')])).toBe('');
  });

  it('when the generated ledger is exported, then it has deep paths, transliterated names with name metadata, voids and a closed account', () => {
    expect(exported.hledger).toContain('account Assets:Bank:Checking- main:Bills:Utilities:Power & light\n');
    expect(exported.hledger).toContain('    ; name: "Checking: main"');
    expect(exported.beancount).toContain(
      ' open Assets:Bank:Checking-main:Bills:Utilities:Power-light USD\n  name: "Power & light"\n',
    );
    expect(exported.beancount).toContain(' open Expenses:Food:Other USD\n');
    expect(exported.beancount).toMatch(/ close Expenses:Old-subscriptions\n/);
    expect(exported.hledger).toMatch(/; voided-by: /);
    expect(exported.hledger).toMatch(/^P \d{4}-\d{2}-\d{2} EUR 1\.\d+ USD$/m);
    expect(exported.beancount).toMatch(/^\d{4}-\d{2}-\d{2} price USD 1\d\d\.\d+ JPY$/m);
    expect(exported.ledger).toMatch(/ EUR @@ \d+\.\d\d USD$/m);
    expect(exported.ledger).toMatch(/ EUR @@ \d+\.\d\d USD  ; automatic: trading$/m);
    expect(exported.beancount).toMatch(/ EUR @@ \d+\.\d\d USD\n    automatic: "trading"\n/);
  });

  for (const format of ['hledger', 'ledger', 'beancount'] as const) {
    it(`when a ${format} export is imported into a fresh user and exported again, then the balances and the text are the same (but for ids)`, async () => {
      const other = await registerUser(t.api);
      const res = await t.api.request('POST', `/api/import/journal?format=${format}`, {
        rawBody: exported[format],
        token: other.token,
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(201);
      expect(res.body.entries_imported).toBe(exported[format].match(/^\d{4}-\d{2}-\d{2} \*/gm)!.length);
      expect(sorted(await apiBalances(t.api, other.token, format))).toEqual(
        sorted(await apiBalances(t.api, token, format)),
      );
      const again = await t.api.get(`/api/export?format=${format}`, other.token);
      expect(again.text.replace(UUID, 'ID')).toBe(exported[format].replace(UUID, 'ID'));
      const voided = await t.api.get('/api/journal-entries?status=void&per_page=1', other.token);
      expect(voided.body.total).toBeGreaterThan(50);
    });
  }
});
