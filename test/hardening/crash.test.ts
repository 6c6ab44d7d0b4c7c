import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Stores } from '../../server/db/stores.ts';
import {
  checkLedgerFile,
  killServer,
  prng,
  recordResults,
  send,
  signUpWithAccounts,
  spawnServer,
  tempDir,
  type ChildServer,
} from './support.ts';

/**
 * SIGKILL at random points while a stream of writes is in flight, then restart: the file must be
 * intact and hold every acknowledged write, and nothing half-done. HARDENING_KILLS raises the
 * number of kill points (50 in CI); HARDENING_SEED replays a run; HARDENING_DEBUG prints the time
 * each lifetime spent starting, running and being checked.
 */
const KILLS = Number(process.env.HARDENING_KILLS ?? 50);
const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 2 ** 31);
const WORKERS = 4;

type EntryState = 'draft' | 'posted' | 'void';

interface Acked {
  entries: Map<string, EntryState>;
  statements: Map<string, number>;
  matches: Set<string>;
}

const dirs: string[] = [];
let current: ChildServer | undefined;
afterAll(async () => {
  if (current) await killServer(current);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('crashes: SIGKILL during a stream of writes', () => {
  it(`when the server is killed at ${KILLS} random points while posting, voiding, importing and accepting, then every restart finds an intact ledger with every acknowledged write and nothing half-written`, async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const dataDir = tempDir('crash');
    dirs.push(dataDir);
    const acked: Acked = { entries: new Map(), statements: new Map(), matches: new Set() };
    const unexpected: string[] = [];
    let token = '';
    let userId = '';
    const accounts: Record<string, string> = {};
    let writesAcked = 0;
    let killsWithWritesInFlight = 0;
    let lastPosted: { date: string; amount: string }[] = [];

    const started = Date.now();
    for (let life = 0; life < KILLS; life++) {
      // Every start is `npm run serve`'s own cold start on what the last kill left.
      const t0 = performance.now();
      current = await spawnServer(dataDir);
      const t1 = performance.now();
      const url = current.url;
      let killed = false;
      let inFlight = 0;

      const call = async (method: string, urlPath: string, body?: unknown) => {
        inFlight += 1;
        try {
          return await send(url + urlPath, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        } finally {
          inFlight -= 1;
        }
      };
      /** The answer, or undefined when the server died under the request; anything else is a finding. */
      const expectStatus = (what: string, res: { status: number; text: string }, ok: number[]) => {
        if (ok.includes(res.status)) return true;
        unexpected.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
        return false;
      };

      if (life === 0) {
        const owner = await signUpWithAccounts(url, { email: 'crash@example.com', name: 'Crash' }, [
          ['Bank', 'ASSET'],
          ['Food', 'EXPENSE'],
          ['Salary', 'INCOME'],
          ['Card', 'LIABILITY'],
        ]);
        ({ token, userId } = owner);
        Object.assign(accounts, owner.accounts);
      }

      const amount = () => `${1 + Math.floor(random() * 400)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
      const date = () =>
        `2026-0${1 + Math.floor(random() * 3)}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
      const spend = (a: string, d: string, autoPost: boolean) => ({
        entry_date: d,
        memo: `Groceries ${Math.floor(random() * 1e6)}`,
        auto_post: autoPost,
        lines: [
          { account_id: accounts.Food, direction: 'DEBIT', amount: a },
          { account_id: random() < 0.8 ? accounts.Bank : accounts.Card, direction: 'CREDIT', amount: a },
        ],
      });

      const operations: Record<string, () => Promise<void>> = {
        async postEntry() {
          const [a, d] = [amount(), date()];
          const res = await call('POST', '/api/journal-entries', spend(a, d, true));
          if (expectStatus('post entry', res, [201])) {
            acked.entries.set(res.body.id, 'posted');
            lastPosted = [...lastPosted.slice(-20), { date: d, amount: a }];
            writesAcked += 1;
          }
        },
        async draftThenPost() {
          const res = await call('POST', '/api/journal-entries', spend(amount(), date(), false));
          if (!expectStatus('create draft', res, [201])) return;
          acked.entries.set(res.body.id, 'draft');
          writesAcked += 1;
          const posted = await call('POST', `/api/journal-entries/${res.body.id}/post`);
          if (expectStatus('post draft', posted, [200])) {
            acked.entries.set(res.body.id, 'posted');
            writesAcked += 1;
          }
        },
        async bigEntry() {
          // 200 lines: a long transaction, so that kills land inside it too
          const lines = Array.from({ length: 200 }, (_, i) => ({
            account_id: i % 2 ? accounts.Bank : accounts.Salary,
            direction: i % 2 ? 'DEBIT' : 'CREDIT',
            amount: amount(),
          }));
          for (let i = 0; i < lines.length; i += 2) lines[i]!.amount = lines[i + 1]!.amount;
          const res = await call('POST', '/api/journal-entries', {
            entry_date: date(),
            memo: 'Payroll',
            auto_post: true,
            lines,
          });
          if (expectStatus('post big entry', res, [201])) {
            acked.entries.set(res.body.id, 'posted');
            writesAcked += 1;
          }
        },
        async voidEntry() {
          const posted = [...acked.entries].filter(([, s]) => s === 'posted').map(([id]) => id);
          if (posted.length === 0) return;
          const id = pick(posted);
          const res = await call('POST', `/api/journal-entries/${id}/void`, { reason: 'crash test' });
          // 400: reconciled with a bank transaction, or voided by a write whose answer was lost
          if (expectStatus('void', res, [200, 400])) {
            if (res.status === 200) {
              acked.entries.set(id, 'void');
              acked.entries.set(res.body.reversal_entry.id, 'posted');
              writesAcked += 1;
            } else if (res.body?.code !== 'INVALID_STATUS') unexpected.push(`void: ${res.text}`);
          }
        },
        async importStatement() {
          // Rows mirroring posted spending (same day and amount, another description): review-band matches.
          const mirrored = lastPosted.slice(-3).map((p) => ({
            date: p.date,
            description: `CARD ${Math.floor(random() * 1e9)}`,
            amount: p.amount,
            type: 'debit',
          }));
          const extra = Array.from({ length: random() < 0.3 ? 150 : 2 }, () => ({
            date: date(),
            description: `POS ${Math.floor(random() * 1e9)}`,
            amount: amount(),
            type: random() < 0.5 ? 'debit' : 'credit',
          }));
          const res = await call('POST', '/api/statements', {
            account_id: accounts.Bank,
            transactions: [...mirrored, ...extra],
          });
          if (expectStatus('import', res, [201])) {
            acked.statements.set(res.body.id, res.body.imported_count);
            writesAcked += 1;
          }
        },
        async reconcileAndAccept() {
          const run = await call('POST', '/api/reconciliation/run', { account_id: accounts.Bank });
          if (!expectStatus('run', run, [200])) return;
          const pending = await call('GET', '/api/reconciliation/pending?per_page=3');
          if (!expectStatus('pending', pending, [200])) return;
          for (const m of pending.body.items as { id: string; version: number }[]) {
            const res = await call('POST', `/api/reconciliation/matches/${m.id}/accept`, { version: m.version });
            // 400/409: another worker decided it first
            if (expectStatus('accept', res, [200, 400, 409]) && res.status === 200) {
              acked.matches.add(m.id);
              writesAcked += 1;
            }
          }
        },
      };
      const weighted = [
        ...Array(6).fill('postEntry'),
        ...Array(2).fill('draftThenPost'),
        'bigEntry',
        ...Array(2).fill('voidEntry'),
        ...Array(3).fill('importStatement'),
        ...Array(2).fill('reconcileAndAccept'),
      ] as string[];

      const worker = async () => {
        while (!killed) {
          try {
            await operations[pick(weighted)]!();
          } catch (error) {
            if (!killed) unexpected.push(`request failed while the server was up: ${(error as Error).message}`);
            return;
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, worker);
      // A random point in the stream; the first lifetime runs longer to build up data to void and match.
      await new Promise((r) => setTimeout(r, life === 0 ? 1500 : random() * 250));
      if (inFlight > 0) killsWithWritesInFlight += 1;
      killed = true;
      const exit = await killServer(current);
      expect(exit.signal).toBe('SIGKILL');
      await Promise.all(workers);
      current = undefined;
      const t2 = performance.now();

      // The server is dead: read its file as it left it.
      const file = path.join(dataDir, 'ledgers', `${userId}.sqlite`);
      const check = checkLedgerFile(file);
      expect(check.problems, `after kill ${life + 1} (seed ${SEED})`).toEqual([]);
      const db = new Database(file, { readonly: true });
      try {
        const status = db.prepare('SELECT status FROM journal_entries WHERE id = ?').pluck();
        const allowed: Record<EntryState, string[]> = {
          draft: ['draft', 'posted', 'void'],
          posted: ['posted', 'void'],
          void: ['void'],
        };
        for (const [id, state] of acked.entries) {
          const now = status.get(id) as string | undefined;
          expect(
            allowed[state],
            `acknowledged ${state} entry ${id} is ${now ?? 'missing'} after kill ${life + 1} (seed ${SEED})`,
          ).toContain(now);
          // What the next lifetime works from: the file's truth (a write may have committed unanswered).
          acked.entries.set(id, now as EntryState);
        }
        const rows = db.prepare('SELECT COUNT(*) FROM bank_transactions WHERE statement_id = ?').pluck();
        for (const [id, count] of acked.statements)
          expect(rows.get(id), `statement ${id} after kill ${life + 1} (seed ${SEED})`).toBe(count);
        const matchStatus = db.prepare('SELECT status FROM reconciliation_matches WHERE id = ?').pluck();
        for (const id of acked.matches)
          expect(matchStatus.get(id), `match ${id} after kill ${life + 1} (seed ${SEED})`).toBe('accepted');
      } finally {
        db.close();
      }
      expect(unexpected, `seed ${SEED}`).toEqual([]);
      if (process.env.HARDENING_DEBUG)
        console.log(
          `life ${life}: start ${Math.round(t1 - t0)} ms, run+kill ${Math.round(t2 - t1)} ms, check ${Math.round(performance.now() - t2)} ms`,
        );
    }

    // One more start: the server comes up on what the last kill left, and its reports agree.
    current = await spawnServer(dataDir);
    const trial = await send(`${current.url}/api/reports/trial-balance?as_of=2026-12-31`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(trial.status).toBe(200);
    for (const c of trial.body.currencies) expect(c.total_debit).toBe(c.total_credit);
    await killServer(current, 'SIGTERM');
    current = undefined;
    const final = checkLedgerFile(path.join(dataDir, 'ledgers', `${userId}.sqlite`));
    expect(final.problems).toEqual([]);

    await recordResults('crash', {
      kill_points_survived: KILLS,
      kills_with_requests_in_flight: killsWithWritesInFlight,
      acknowledged_writes_checked: writesAcked,
      entries_in_ledger: final.entries,
      journal_lines_in_ledger: final.lines,
      bank_transactions_in_ledger: final.bankTransactions,
      accepted_matches: acked.matches.size,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      seed: SEED,
    });
  });
});

describe('SIGTERM right after the ready line', () => {
  it('when SIGTERM arrives the moment the ready line is read, then the server still shuts down cleanly (exit 0, server.json removed)', async () => {
    const dataDir = tempDir('sigterm');
    dirs.push(dataDir);
    for (let round = 0; round < 5; round++) {
      const server = await spawnServer(dataDir);
      expect(await killServer(server, 'SIGTERM'), `round ${round}: ${server.stderr()}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    }
  });
});

describe('the checker itself', () => {
  it('when a ledger holds a half-written entry, an unbalanced one, a void without reversal and totals that drifted, then each is reported', () => {
    const dir = tempDir('checker');
    dirs.push(dir);
    const stores = new Stores(dir);
    const id = '00000000-0000-4000-8000-00000000c0de';
    const db = stores.ledger(id);
    const now = '2026-01-01T00:00:00.000Z';
    db.transaction(() => {
      for (const [acc, type] of [
        ['a', 'ASSET'],
        ['b', 'EXPENSE'],
      ]) {
        db.runSql(
          'INSERT INTO accounts (id, name, name_key, type, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          acc,
          acc,
          acc,
          type,
          'USD',
          now,
          now,
        );
      }
      const entry = (eid: string, seq: number, status: string, lines: [string, string, number][]) => {
        db.runSql(
          "INSERT INTO journal_entries (id, seq, entry_date, status, source_type, created_at, updated_at) VALUES (?, ?, '2026-01-01', ?, 'manual', ?, ?)",
          eid,
          seq,
          status,
          now,
          now,
        );
        lines.forEach(([acc, dir, amount], i) =>
          db.runSql(
            "INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, ?, 'USD', '2026-01-01')",
            `${eid}-${i}`,
            eid,
            i,
            acc,
            dir,
            amount,
          ),
        );
      };
      entry('half', 1, 'posted', [['a', 'DEBIT', 100]]);
      entry('lopsided', 2, 'posted', [
        ['a', 'DEBIT', 100],
        ['b', 'CREDIT', 99],
      ]);
      entry('orphan-void', 3, 'void', [
        ['a', 'DEBIT', 5],
        ['b', 'CREDIT', 5],
      ]);
      db.runSql(
        "INSERT INTO account_day_totals (account_id, day, debit_minor, credit_minor) VALUES ('a', '2026-01-01', 1, 0)",
      );
    });
    stores.close();
    const problems = checkLedgerFile(path.join(dir, 'ledgers', `${id}.sqlite`)).problems.join('\n');
    expect(problems).toMatch(/entry half has 1 line/);
    expect(problems).toMatch(/entry lopsided is unbalanced in USD/);
    expect(problems).toMatch(/trial balance in USD is/);
    expect(problems).toMatch(/void entry orphan-void has no matching reversal/);
    expect(problems).toMatch(/maintained account totals differ/);
    expect(problems).toMatch(/month totals differ/);
  });
});
