/**
 * The holdings report over a 10-year portfolio (issue 38): `node bench/investments.ts --size 10k|100k|1m`
 * (or a number of entries: `node bench/investments.ts 250000`).
 *
 * Makes a ledger of `entries` other posted entries over ten years (default 1,000,000, written
 * straight into the file in one transaction, so the triggers keep every maintained total), then a
 * portfolio booked through the investments service: 50 securities bought every month for ten years
 * (6,000 lots) and a part of each sold every half year, first in first out (1,000 sales). It then
 * starts the real server on the file and times GET /api/investments/holdings as of a different date
 * each request (not answered from the response cache: the sums of each holding's trades up to the
 * date), the same report now in-process (the maintained totals), and beside them the raw read of the
 * maintained totals with each holding's latest price, on the same file.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Stores } from '../server/db/stores.ts';
import { createAccount } from '../server/features/accounts/accounts.service.ts';
import { createSecurity, putInvestmentSettings } from '../server/features/investments/investments.service.ts';
import { bookTrade } from '../server/features/investments/investments.trades.ts';
import { holdingsReport } from '../server/features/investments/investments.holdings.ts';
import { SIZES, sizeArg } from './generate.ts';
import { fmt, loadAverages, runInFreshFolder, serve, signUpBenchUser } from './lib/standalone.ts';
import { rawTimed, since, summarize } from './lib/stats.ts';

const { values, positionals } = parseArgs({ options: { size: { type: 'string' } }, allowPositionals: true });
const ENTRIES = values.size !== undefined ? SIZES[sizeArg(values.size)] : Number(positionals[0] ?? 1_000_000);
if (!Number.isSafeInteger(ENTRIES) || ENTRIES < 0) throw new Error('entries: --size 10k|100k|1m or a whole number');
const SECURITIES = 50;
const YEARS = 10;
const REQUESTS = 200;
const month = (i: number) => `${2016 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

runInFreshFolder('investments', async (dataDir) => {
  let server = await serve(dataDir);
  const reg = await signUpBenchUser(server.url);
  await server.close();

  const stores = new Stores(dataDir);
  const db = stores.ledger(reg.id);
  const mk = (name: string, type: 'ASSET' | 'INCOME' | 'EQUITY' | 'EXPENSE') =>
    createAccount(db, { name, type, currency: 'USD' }).id;
  const [broker, checking, gains, opening, food] = [
    mk('Brokerage', 'ASSET'),
    mk('Checking', 'ASSET'),
    mk('Capital gains', 'INCOME'),
    mk('Opening', 'EQUITY'),
    mk('Food', 'EXPENSE'),
  ];
  stores.close();

  // the other entries, written straight into the file
  const file = path.join(dataDir, 'ledgers', `${reg.id}.sqlite`);
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // the other entries are the setup, not the measure: no fsync, a large page cache
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -262144');
  const started = process.hrtime.bigint();
  const entry = raw.prepare(
    "INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES (?, ?, ?, ?, 'posted', 'manual', ?, ?, ?)",
  );
  const line = raw.prepare(
    'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const at = new Date().toISOString();
  const days = YEARS * 365;
  raw.transaction(() => {
    const id = crypto.randomUUID();
    entry.run(id, 1, '2016-01-01', 'Opening', at, at, at);
    line.run(crypto.randomUUID(), id, 1, checking, 'DEBIT', 90_000_000_000, 'USD', '2016-01-01');
    line.run(crypto.randomUUID(), id, 2, opening, 'CREDIT', 90_000_000_000, 'USD', '2016-01-01');
    for (let i = 0; i < ENTRIES; i++) {
      const eid = crypto.randomUUID();
      const date = new Date(Date.UTC(2016, 0, 1) + Math.floor((i * days) / ENTRIES) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const amount = 100 + ((i * 7919) % 20000);
      entry.run(eid, i + 2, date, `Entry ${i}`, at, at, at);
      line.run(crypto.randomUUID(), eid, 1, food, 'DEBIT', amount, 'USD', date);
      line.run(crypto.randomUUID(), eid, 2, checking, 'CREDIT', amount, 'USD', date);
      if ((i + 1) % 100_000 === 0) console.log(`  ${i + 1} entries at ${(since(started) / 1000).toFixed(0)} s`);
    }
  })();
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  console.log(`${ENTRIES} other entries written in ${(since(started) / 1000).toFixed(1)} s`);

  // the portfolio, through the service
  const booking = process.hrtime.bigint();
  const portfolio = new Stores(dataDir);
  const ledger = portfolio.ledger(reg.id);
  putInvestmentSettings(ledger, broker, { booking_method: 'FIFO', short_term_account_id: gains });
  const securities = Array.from(
    { length: SECURITIES },
    (_, s) => createSecurity(ledger, { symbol: `SEC${s}`, name: `Security ${s}`, currency: 'USD' }).id,
  );
  let trades = 0;
  for (let m = 0; m < YEARS * 12; m++) {
    securities.forEach((security, s) => {
      const price = (50 + s + m * 0.5 + ((m * 37 + s * 11) % 13)).toFixed(2);
      const base = { account_id: broker, security_id: security, cash_account_id: checking, price };
      bookTrade(ledger, { kind: 'buy', date: `${month(m)}-05`, units: `${1 + (s % 7)}.125`, ...base });
      trades++;
      if (m % 6 === 5) {
        bookTrade(ledger, { kind: 'sell', date: `${month(m)}-20`, units: `${2 + (s % 5)}`, ...base });
        trades++;
      }
    });
  }
  const inProcess = rawTimed(REQUESTS, () => holdingsReport(ledger, undefined));
  portfolio.close();
  console.log(`${trades} trades booked in ${(since(booking) / 1000).toFixed(1)} s`);

  server = await serve(dataDir);
  const asOf = (i: number) => `${month(60 + (i % 60))}-${String(1 + (i % 28)).padStart(2, '0')}`;
  const call = async (p: string) => {
    const res = await fetch(server.url + p, { headers: { authorization: `Bearer ${reg.access_token}` } });
    const body = (await res.json()) as { items: unknown[] };
    if (res.status !== 200 || body.items.length !== SECURITIES) throw new Error(`${p}: ${res.status}`);
  };
  for (let i = 0; i < 5; i++) await call(`/api/investments/holdings?as_of=${asOf(i + 1000)}`);
  const api: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = process.hrtime.bigint();
    await call(`/api/investments/holdings?as_of=${asOf(i)}`);
    api.push(since(t));
  }
  await server.close();

  const read = new Database(file, { readonly: true });
  const totals = read.prepare(
    `SELECT h.security_id, h.units_atoms, h.basis_minor,
         (SELECT price FROM security_prices p WHERE p.security_id = h.security_id AND p.date <= ? ORDER BY p.date DESC LIMIT 1) AS price
       FROM holdings h JOIN accounts a ON a.id = h.account_id JOIN securities s ON s.id = h.security_id`,
  );
  const rawTotals = rawTimed(REQUESTS, (i) => totals.all(asOf(i)));
  read.close();
  const apiS = summarize(api);
  console.log(`holdings as of a date over HTTP (uncached):  ${fmt(apiS)}`);
  console.log(`holdings now, in-process (maintained totals): ${fmt(inProcess)}`);
  console.log(`raw read of the totals and latest prices:     ${fmt(rawTotals)}`);
  console.log(`load ${loadAverages()}`);
});
