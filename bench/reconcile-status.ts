/**
 * reconcile-status on an account with a million lines (issue 19): `node bench/reconcile-status.ts [lines]`.
 *
 * Makes a ledger whose bank account has `lines` posted lines over six years (default 1,000,000;
 * written straight into the file in one transaction, so the triggers keep every maintained count
 * and total as the API's writes do), two in three of them cleared, starts the real server on it,
 * and times GET /api/accounts/{id}/reconcile over HTTP beside the raw recount from the lines that
 * the cleared day totals replace, and the raw read of those totals.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fmt, loadAverages, runInFreshFolder, serve, signUpBenchUser } from './lib/standalone.ts';
import { rawTimed, since, summarize } from './lib/stats.ts';

const LINES = Number(process.argv[2] ?? 1_000_000);
const REQUESTS = 200;
async function call(url: string, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function days(): string[] {
  const out: string[] = [];
  for (let t = Date.UTC(2020, 0, 1); t <= Date.UTC(2025, 11, 31); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

runInFreshFolder('reconcile', async (dataDir) => {
  let server = await serve(dataDir);
  const reg = await signUpBenchUser(server.url);
  const bank = (await call(server.url, reg.access_token, 'POST', '/api/accounts', { name: 'Checking', type: 'ASSET' }))
    .id;
  const food = (await call(server.url, reg.access_token, 'POST', '/api/accounts', { name: 'Food', type: 'EXPENSE' }))
    .id;
  await server.close();

  const file = path.join(dataDir, 'ledgers', `${reg.id}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const calendar = days();
  const started = process.hrtime.bigint();
  const entry = db.prepare(
    "INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES (?, ?, ?, ?, 'posted', 'manual', ?, ?, ?)",
  );
  const line = db.prepare(
    'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date, cleared) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const at = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < LINES; i++) {
      const id = crypto.randomUUID();
      const date = calendar[Math.floor((i * calendar.length) / LINES)]!;
      const amount = 100 + ((i * 7919) % 20000);
      const out = i % 5 !== 0;
      entry.run(id, i + 1, date, `Entry ${i}`, at, at, at);
      line.run(crypto.randomUUID(), id, 1, food, out ? 'DEBIT' : 'CREDIT', amount, 'USD', date, 'uncleared');
      line.run(
        crypto.randomUUID(),
        id,
        2,
        bank,
        out ? 'CREDIT' : 'DEBIT',
        amount,
        'USD',
        date,
        i % 3 === 0 ? 'uncleared' : 'cleared',
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  console.log(`${LINES} lines on the bank account written in ${(since(started) / 1000).toFixed(1)} s`);

  server = await serve(dataDir);
  const calendarPick = (i: number) => calendar[(i * 7877) % calendar.length]!;
  for (let i = 0; i < 5; i++)
    await call(
      server.url,
      reg.access_token,
      'GET',
      `/api/accounts/${bank}/reconcile?statement_date=${calendarPick(i)}&statement_balance=-${i}.00`,
    );
  const api: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = process.hrtime.bigint();
    await call(
      server.url,
      reg.access_token,
      'GET',
      `/api/accounts/${bank}/reconcile?statement_date=${calendarPick(i + 5)}&statement_balance=${i}.00`,
    );
    api.push(since(t));
  }
  await server.close();

  const raw = new Database(file, { readonly: true });
  const recount = raw.prepare(
    `SELECT SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net, SUM(l.cleared = 'uncleared') AS u
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ? AND l.entry_date <= ? AND l.cleared <> 'uncleared' AND e.status = 'posted' AND e.reverses_entry_id IS NULL`,
  );
  const totals = raw.prepare(
    'SELECT SUM(cleared_debit_minor) AS d, SUM(cleared_credit_minor) AS c, SUM(uncleared_lines) AS u FROM account_cleared_day_totals WHERE account_id = ? AND day <= ?',
  );
  const rawTotals = rawTimed(REQUESTS, (i) => totals.get(bank, calendarPick(i)), 0);
  const rawRecount = rawTimed(10, (i) => recount.get(bank, calendarPick(i)), 0);
  raw.close();
  const apiS = summarize(api);
  console.log(`reconcile-status over HTTP (cleared day totals): ${fmt(apiS)}`);
  console.log(`raw read of the cleared day totals:              ${fmt(rawTotals)}`);
  console.log(`raw recount from the lines:                      ${fmt(rawRecount)}`);
  console.log(
    `the API answers ${(rawRecount.p50 / apiS.p50).toFixed(0)}× faster than the recount; load ${loadAverages()}`,
  );
});
