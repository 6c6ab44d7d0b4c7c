import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

/**
 * The exports of a book with securities (docs/investments.md "Interop"), over real HTTP, read by the
 * real tools: each security is declared as a commodity and each of its prices is a `price`
 * directive; a trade's units are written at their lot's cost, so that bean-query gives each
 * security's units and cost basis as the holdings route does and the realised gains as the gains
 * route does, and hledger and ledger give the same units; each export imports back.
 */

const hasTools = ['bean-check', 'bean-query', 'hledger', 'ledger'].every(
  (tool) => spawnSync(tool, ['--version']).status === 0,
);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const skip = !hasTools && !inCi;

async function run(tool: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(tool, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' },
  });
  return stdout;
}

/** bean-query's CSV rows (header dropped), each cell trimmed. */
async function beanRows(file: string, query: string): Promise<string[][]> {
  const text = await run('bean-query', ['-f', 'csv', file, query]);
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(',').map((c) => c.trim()));
}

/** "2545.40 USD" or "  12    VTI" to "2545.40" / "12" (bean-query pads and suffixes its amounts). */
const number = (cell: string) => cell.trim().split(/\s+/)[0]!;
/** Decimal text without trailing zeros, to compare "440.4" with "440.40". */
const plain = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

let t: TestServer;
let api: Api;
let token: string;
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-investments-'));
});

afterAll(async () => {
  await t.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A USD account of each type named, and the first (the brokerage) funded from the second on 2024-01-02. */
async function fundedBooks(as: string, amount: string, accounts: [string, string][]): Promise<string[]> {
  const ids: string[] = [];
  for (const [name, type] of accounts)
    ids.push((await api.post('/api/accounts', { name, type, currency: 'USD' }, as)).body.id as string);
  const funded = await api.post(
    '/api/journal-entries',
    {
      entry_date: '2024-01-02',
      auto_post: true,
      lines: [
        { account_id: ids[0], direction: 'DEBIT', amount },
        { account_id: ids[1], direction: 'CREDIT', amount },
      ],
    },
    as,
  );
  expect(funded.status).toBe(201);
  return ids;
}

describe.skipIf(skip)(
  `export of securities${skip ? ' (skipped: bean-check, bean-query, hledger or ledger not installed)' : ''}`,
  () => {
    it('when securities have trades and prices, then the exports declare them and write their prices: bean-check, hledger check --strict and ledger --pedantic pass, bean-query and hledger read each price back, and each export imports back', async () => {
      const [broker] = await fundedBooks(token, '10000.00', [
        ['Brokerage', 'ASSET'],
        ['Opening', 'EQUITY'],
      ]);
      const vti = await api.post('/api/securities', { symbol: 'VTI', name: 'Total market', currency: 'USD' }, token);
      const bnd = await api.post('/api/securities', { symbol: 'VXUS', name: 'World', currency: 'USD' }, token);
      expect([vti.status, bnd.status]).toEqual([201, 201]);
      const bought = await api.post(
        '/api/investments/trades',
        { kind: 'buy', date: '2024-01-05', account_id: broker, security_id: vti.body.id, units: '10', price: '210.50' },
        token,
      );
      expect(bought.status).toBe(201);
      const prices = await api.request('POST', '/api/securities/prices/import', {
        token,
        rawBody: 'date,symbol,price\n2024-02-01,VTI,250.00\n2024-02-01,VXUS,72.125\n2024-03-01,VTI,260\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(prices.status).toBe(201);

      const all = await api.get('/api/export?format=beancount', token);
      expect(all.status).toBe(200);
      expect(all.text).toContain('2024-01-02 commodity VTI\n2024-01-02 commodity VXUS\n');
      const file = path.join(dir, 'books.beancount');
      fs.writeFileSync(file, all.text);
      expect(await run('bean-check', [file])).toBe('');
      const price = async (symbol: string, date: string) =>
        (
          await run('bean-query', ['-f', 'csv', file, `SELECT getprice('${symbol}', 'USD', ${date}) AS p LIMIT 1`])
        ).split(/\r?\n/)[1];
      expect(await price('VTI', '2024-02-15')).toBe('250');
      expect(await price('VXUS', '2024-02-15')).toBe('72.125');
      expect(await price('VTI', '2024-03-02')).toBe('260');

      // a dated export writes only the prices up to its date
      const upTo = await api.get('/api/export?format=beancount&as_of=2024-02-15', token);
      expect(upTo.text).toContain('2024-02-01 price VTI 250 USD');
      expect(upTo.text).not.toContain('price VTI 260');

      // hledger: the same prices as P directives, the securities declared (check --strict passes)
      const journal = path.join(dir, 'books.journal');
      fs.writeFileSync(journal, (await api.get('/api/export?format=hledger', token)).text);
      await run('hledger', ['-f', journal, 'check', '--strict']);
      const listed = (await run('hledger', ['-f', journal, 'prices']))
        .split(/\r?\n/)
        .filter((l) => / (VTI|VXUS) /.test(l));
      // the buy's own price is a price of the security too
      expect(listed).toEqual([
        'P 2024-01-05 VTI 210.5 USD',
        'P 2024-02-01 VTI 250 USD',
        'P 2024-02-01 VXUS 72.125 USD',
        'P 2024-03-01 VTI 260 USD',
      ]);
      // ledger: the same directives, read without complaint (ledger lists only prices of held commodities)
      const ledgerText = (await api.get('/api/export?format=ledger', token)).text;
      expect(ledgerText).toContain('commodity VXUS\n');
      expect(ledgerText).toContain('P 2024-02-01 VXUS 72.125 USD\n');
      const ledgerFile = path.join(dir, 'books.ledger');
      fs.writeFileSync(ledgerFile, ledgerText);
      await run('ledger', ['--args-only', '--pedantic', '-f', ledgerFile, 'balance']);

      // each export imports back into empty books: the trades as entries at cost, the securities'
      // prices read and not imported (the investments screen imports those)
      for (const [format, text] of [
        ['beancount', all.text],
        ['hledger', fs.readFileSync(journal, 'utf8')],
        ['ledger', ledgerText],
      ] as const) {
        const other = (await registerUser(api)).token;
        const back = await api.request('POST', `/api/import/journal?format=${format}`, {
          rawBody: text,
          token: other,
          headers: { 'content-type': 'text/plain' },
        });
        expect(back.status, format).toBe(201);
        expect([back.body.entries_imported, back.body.prices_imported], format).toEqual([2, 0]);
      }
    });
  },
);

/** Two securities, three buys (one with a fee in its basis), a FIFO sale over two lots, a named-lot sale, a long-term sale, prices. */
async function bookPortfolio(as: string) {
  const [broker, , shortGains, longGains] = await fundedBooks(as, '20000.00', [
    ['Brokerage', 'ASSET'],
    ['Opening', 'EQUITY'],
    ['Short gains', 'INCOME'],
    ['Long gains', 'INCOME'],
  ]);
  const settings = await api.put(
    `/api/investments/accounts/${broker}`,
    { booking_method: 'FIFO', short_term_account_id: shortGains, long_term_account_id: longGains },
    as,
  );
  expect(settings.status).toBe(200);
  const security = async (symbol: string) =>
    (await api.post('/api/securities', { symbol, name: symbol, currency: 'USD' }, as)).body.id as string;
  const vti = await security('VTI');
  const vxus = await security('VXUS');
  const trade = async (body: Record<string, unknown>) => {
    const r = await api.post('/api/investments/trades', { account_id: broker, ...body }, as);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  await trade({ kind: 'buy', date: '2024-01-05', security_id: vti, units: '10', price: '210.50' });
  await trade({ kind: 'buy', date: '2024-01-10', security_id: vxus, units: '20', price: '55.10' });
  await trade({ kind: 'buy', date: '2024-02-05', security_id: vti, units: '5', price: '220', fees: '1.00' });
  // FIFO: the whole first lot and 2 of the second
  await trade({ kind: 'sell', date: '2024-03-01', security_id: vti, units: '12', price: '250' });
  await trade({ kind: 'buy', date: '2024-03-10', security_id: vti, units: '4', price: '230' });
  const lots = (await api.get(`/api/investments/holdings/${broker}/${vti}/lots`, as)).body.items as {
    id: string;
    bought_on: string;
  }[];
  const newest = lots.find((l) => l.bought_on === '2024-03-10')!;
  // a named lot: the newest, not the oldest FIFO would take
  await trade({
    kind: 'sell',
    date: '2024-04-01',
    security_id: vti,
    units: '2',
    price: '240.75',
    lots: [{ lot_id: newest.id, units: '2' }],
  });
  // held more than a year: long term
  await trade({ kind: 'sell', date: '2025-02-03', security_id: vxus, units: '5', price: '61' });
  const prices = await api.request('POST', '/api/securities/prices/import', {
    token: as,
    rawBody: 'date,symbol,price\n2025-03-01,VTI,280.25\n2025-03-01,VXUS,62.5\n',
    headers: { 'content-type': 'text/csv' },
  });
  expect(prices.status).toBe(201);
  return { broker };
}

describe.skipIf(skip)(
  `export of lots${skip ? ' (skipped: bean-check, bean-query, hledger or ledger not installed)' : ''}`,
  () => {
    it('when securities are bought, sold FIFO and from a named lot, then the beancount export passes bean-check and bean-query gives the units, cost basis and realised gains of the holdings and gains routes; hledger and ledger give the same units', async () => {
      const { token: owner } = await registerUser(api);
      await bookPortfolio(owner);
      const holdings = (await api.get('/api/investments/holdings', owner)).body.items as {
        symbol: string;
        units: string;
        cost_basis: string;
        realized_gain: string;
      }[];
      expect(holdings.map((h) => [h.symbol, h.units, h.cost_basis])).toEqual([
        ['VTI', '5', '1120.60'],
        ['VXUS', '15', '826.50'],
      ]);
      const gains = (await api.get('/api/investments/gains?from=2024-01-01&to=2025-12-31', owner)).body.items as {
        symbol: string;
        short_term_gain: string;
        long_term_gain: string;
      }[];

      const bean = await api.get('/api/export?format=beancount', owner);
      expect(bean.status).toBe(200);
      expect(bean.text).toMatch(/Assets:Brokerage +10 VTI \{210\.5 USD\}\n/);
      expect(bean.text).toMatch(/Assets:Brokerage +-10 VTI \{210\.5 USD, 2024-01-05\} @ 250 USD/);
      expect(bean.text).toMatch(/Assets:Brokerage +-2 VTI \{220\.2 USD, 2024-02-05\} @ 250 USD/);
      const file = path.join(dir, 'lots.beancount');
      fs.writeFileSync(file, bean.text);
      expect(await run('bean-check', [file])).toBe('');

      const held = await beanRows(
        file,
        "SELECT currency, sum(units(position)) AS units, sum(cost(position)) AS cost WHERE account ~ '^Assets:Brokerage' AND currency != 'USD' GROUP BY currency ORDER BY currency",
      );
      expect(held.map(([currency, units, cost]) => [currency, plain(number(units!)), plain(number(cost!))])).toEqual(
        holdings.map((h) => [h.symbol, plain(h.units), plain(h.cost_basis)]),
      );
      // the gains accounts' totals are the gains route's, short and long term
      const income = await beanRows(
        file,
        "SELECT account, sum(number) AS total WHERE account ~ '^Income:' GROUP BY account ORDER BY account",
      );
      const short = gains.reduce((s, g) => s + Number(g.short_term_gain) * 100, 0);
      const long = gains.reduce((s, g) => s + Number(g.long_term_gain) * 100, 0);
      expect(income.map(([account, total]) => [account, Math.round(-Number(total) * 100)])).toEqual([
        ['Income:Long-gains', long],
        ['Income:Short-gains', short],
      ]);
      expect([short, long]).toEqual([45460 + 2150, 2950]);

      // hledger and ledger: the same units per security in the brokerage account
      const unitsIn = (report: string) =>
        report
          .split(/\r?\n/)
          .map((l) => /^\s*(-?[\d.,]+) (VTI|VXUS)\b/.exec(l))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => [m[2], plain(m[1]!)]);
      const hledgerFile = path.join(dir, 'lots.journal');
      fs.writeFileSync(hledgerFile, (await api.get('/api/export?format=hledger', owner)).text);
      await run('hledger', ['-f', hledgerFile, 'check', '--strict']);
      const expected = holdings.map((h) => [h.symbol, h.units]);
      expect(unitsIn(await run('hledger', ['-f', hledgerFile, 'balance', '-N', 'Assets:Brokerage']))).toEqual(expected);
      const ledgerFile = path.join(dir, 'lots.ledger');
      fs.writeFileSync(ledgerFile, (await api.get('/api/export?format=ledger', owner)).text);
      expect(
        unitsIn(await run('ledger', ['--args-only', '--pedantic', '-f', ledgerFile, 'balance', 'Assets:Brokerage'])),
      ).toEqual(expected);
      // both weigh the units at cost: the brokerage's balance is its ledger balance (cash plus cost basis)
      const ledgerBalance = '20505.60';
      const usd = (report: string) => /(-?[\d,]+\.\d\d) USD/.exec(report)?.[1]?.replace(/,/g, '');
      expect(usd(await run('hledger', ['-f', hledgerFile, 'balance', '-N', '--cost', 'Assets:Brokerage']))).toBe(
        ledgerBalance,
      );
      expect(usd(await run('ledger', ['--args-only', '-f', ledgerFile, 'balance', '-B', 'Assets:Brokerage']))).toBe(
        ledgerBalance,
      );
      const trial = (await api.get('/api/reports/trial-balance', owner)).body;
      expect(JSON.stringify(trial)).toContain(ledgerBalance);
    });

    it('when the exports with lots are imported into empty books, then the trades, lots and gains come back: every account balance, holding, open lot, realised gain and gains account is the same, and bean-query reads the same holdings from the export of the imported books', async () => {
      const { token: owner } = await registerUser(api);
      await bookPortfolio(owner);
      /** what the investments routes say, without ids */
      const investments = async (as: string) => {
        const holdings = (await api.get('/api/investments/holdings?as_of=2025-12-31', as)).body.items as {
          account_id: string;
          security_id: string;
        }[];
        const lots = [];
        for (const h of holdings) {
          const open = (await api.get(`/api/investments/holdings/${h.account_id}/${h.security_id}/lots`, as)).body
            .items as Record<string, string>[];
          lots.push(open.map(({ id: _id, ...lot }) => lot));
        }
        const gains = (await api.get('/api/investments/gains?from=2024-01-01&to=2025-12-31', as)).body.items;
        const settings = (await api.get(`/api/investments/accounts/${holdings[0]!.account_id}`, as)).body;
        const names = new Map(
          ((await api.get('/api/accounts', as)).body.items as { id: string; name: string }[]).map((a) => [
            a.id,
            a.name,
          ]),
        );
        return {
          holdings: holdings.map(({ account_id: _a, security_id: _s, ...h }) => h),
          lots,
          gains: (gains as Record<string, string>[]).map(({ security_id: _s, ...g }) => g),
          gainsAccounts: [names.get(settings.short_term_account_id), names.get(settings.long_term_account_id)],
          method: settings.booking_method,
        };
      };
      const theirs = await investments(owner);
      expect(theirs.lots.flat()).toHaveLength(3);
      expect(theirs.gainsAccounts).toEqual(['Short gains', 'Long gains']);
      /** bean-query's units and cost per security in the brokerage, from a beancount export */
      const beanHoldings = async (as: string, name: string) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, (await api.get('/api/export?format=beancount', as)).text);
        expect(await run('bean-check', [file])).toBe('');
        return beanRows(
          file,
          "SELECT currency, sum(units(position)) AS units, sum(cost(position)) AS cost WHERE account ~ '^Assets:Brokerage' AND currency != 'USD' GROUP BY currency ORDER BY currency",
        );
      };
      const beanBefore = await beanHoldings(owner, 'round-trip-before.beancount');
      expect(beanBefore).toHaveLength(2);
      type Trial = { currencies: { rows: { name: string; debit: string; credit: string }[] }[] };
      const balances = async (as: string) =>
        ((await api.get('/api/reports/trial-balance?as_of=2025-12-31', as)).body as Trial).currencies
          .flatMap((c) => c.rows)
          .map((r) => [r.name, r.debit, r.credit])
          .sort();
      const before = await balances(owner);
      expect(before).toContainEqual(['Brokerage', '20505.60', '0.00']);
      // the funding, four buys and three sales
      const entries = 8;
      for (const format of ['beancount', 'hledger', 'ledger'] as const) {
        const text = (await api.get(`/api/export?format=${format}`, owner)).text;
        expect(text, format).toMatch(/ VTI [{@]/);
        const other = (await registerUser(api)).token;
        const back = await api.request('POST', `/api/import/journal?format=${format}`, {
          rawBody: text,
          token: other,
          headers: { 'content-type': 'text/plain' },
        });
        expect(back.status, `${format}: ${JSON.stringify(back.body)}`).toBe(201);
        expect(back.body.entries_imported, format).toBe(entries);
        expect(await balances(other), format).toEqual(before);
        expect(await investments(other), format).toEqual(theirs);
        expect(await beanHoldings(other, `round-trip-${format}.beancount`), format).toEqual(beanBefore);
      }
    });

    it('when a lot cost per unit has no exact decimal, then beancount still checks, its sale balances within a cent and the import takes the cents the app booked', async () => {
      const { token: owner } = await registerUser(api);
      const [broker, , gains] = await fundedBooks(owner, '1000.00', [
        ['Brokerage', 'ASSET'],
        ['Opening', 'EQUITY'],
        ['Gains', 'INCOME'],
      ]);
      await api.put(
        `/api/investments/accounts/${broker}`,
        { booking_method: 'FIFO', short_term_account_id: gains },
        owner,
      );
      const vti = (await api.post('/api/securities', { symbol: 'VTI', name: 'VTI', currency: 'USD' }, owner)).body.id;
      const trade = async (body: Record<string, unknown>) =>
        expect(
          (await api.post('/api/investments/trades', { account_id: broker, security_id: vti, ...body }, owner)).status,
        ).toBe(201);
      // 3 units for 100.00: 33.333… a unit
      await trade({ kind: 'buy', date: '2024-01-05', units: '3', price: '33.33', fees: '0.01' });
      await trade({ kind: 'sell', date: '2024-02-05', units: '1', price: '40' });
      await trade({ kind: 'sell', date: '2024-03-05', units: '2', price: '41' });
      const bean = (await api.get('/api/export?format=beancount', owner)).text;
      expect(bean).toContain('3 VTI {33.3333333333 USD}');
      const file = path.join(dir, 'inexact.beancount');
      fs.writeFileSync(file, bean);
      expect(await run('bean-check', [file])).toBe('');
      const ledgerText = (await api.get('/api/export?format=ledger', owner)).text;
      expect(ledgerText).toContain('-2 VTI {{66.67 USD}} [2024-01-05] @ 41 USD');
      const ledgerFile = path.join(dir, 'inexact.ledger');
      fs.writeFileSync(ledgerFile, ledgerText);
      await run('ledger', ['--args-only', '--pedantic', '-f', ledgerFile, 'balance']);
      const hledgerFile = path.join(dir, 'inexact.journal');
      fs.writeFileSync(hledgerFile, (await api.get('/api/export?format=hledger', owner)).text);
      await run('hledger', ['-f', hledgerFile, 'check', '--strict']);
      for (const [format, text] of [
        ['beancount', bean],
        ['ledger', ledgerText],
        ['hledger', fs.readFileSync(hledgerFile, 'utf8')],
      ] as const) {
        const other = (await registerUser(api)).token;
        const back = await api.request('POST', `/api/import/journal?format=${format}`, {
          rawBody: text,
          token: other,
          headers: { 'content-type': 'text/plain' },
        });
        expect(back.status, `${format}: ${JSON.stringify(back.body)}`).toBe(201);
        const gainsRow = (
          (await api.get('/api/reports/trial-balance', other)).body as {
            currencies: { rows: { name: string; credit: string }[] }[];
          }
        ).currencies[0]!.rows.find((r) => r.name === 'Gains');
        // 40 - 33.33 and 82 - 66.67
        expect(gainsRow?.credit, format).toBe('22.00');
      }
    });
  },
);
