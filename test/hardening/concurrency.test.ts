import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityFile,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../support/server.ts';
import { checkLedgerFile, expectErrorShape, PASSWORD, recordResults } from './support.ts';

/**
 * Two clients racing on one resource. Each race is run several times (the order the server sees
 * varies); whichever wins, no update is lost and the loser gets the documented error.
 */
const ROUNDS = 8;

let t: TestServer;
let api: Api;
let token = '';
let userId = '';
const acc: Record<string, string> = {};
let clock = Date.now();
const races: Record<string, Record<string, number>> = {};

/** Both requests at once; on `swap` the second is sent first. Answers in the order of the arguments. */
async function both<T>(a: () => Promise<T>, b: () => Promise<T>, swap: boolean): Promise<[T, T]> {
  if (!swap) return Promise.all([a(), b()]);
  const [y, x] = await Promise.all([b(), a()]);
  return [x, y];
}

function tally(race: string, outcome: string) {
  races[race] ??= {};
  races[race]![outcome] = (races[race]![outcome] ?? 0) + 1;
}

const fetched = (r: { status: number; text: string; body: any; headers: Headers }) => ({
  ...r,
  contentType: r.headers.get('content-type'),
});

beforeAll(async () => {
  // The register limit's clock jumps an hour per attempt: the races below register many times.
  t = await startTestServer({ now: () => (clock += 3_600_001) });
  api = t.api;
  ({ token, id: userId } = await registerUser(api));
  for (const [name, type] of [
    ['Bank', 'ASSET'],
    ['Food', 'EXPENSE'],
    ['Rent', 'EXPENSE'],
  ] as const) {
    acc[name] = (await api.post('/api/accounts', { name, type }, token)).body.id;
  }
});
afterAll(async () => {
  await t.stop();
});

const lines = (amount: string, expense = acc.Food) => [
  { account_id: expense, direction: 'DEBIT', amount },
  { account_id: acc.Bank, direction: 'CREDIT', amount },
];
const linesOf = (entry: any) => entry.lines.map((l: any) => `${l.account_id} ${l.direction} ${l.amount}`).sort();

async function postedSpending(amount: string, date: string, memo: string): Promise<string> {
  const res = await api.post(
    '/api/journal-entries',
    { entry_date: date, memo, auto_post: true, lines: lines(amount) },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A match under review: a posted entry and a bank row of the same day and amount with another description. */
async function pendingMatch(round: number): Promise<{ id: string; version: number; entryId: string }> {
  const date = `2026-03-${String(round + 1).padStart(2, '0')}`;
  const amount = `${100 + round}.${String(round).padStart(2, '0')}`;
  // Descriptions that share no word (digits would): the score stays in the review band.
  const word = (n: number, letters: string) => [...String(n).padStart(3, '0')].map((d) => letters[Number(d)]).join('');
  const entryId = await postedSpending(amount, date, `Groceries ${word(round, 'abcdefghij')}`);
  const statement = await api.post(
    '/api/statements',
    {
      account_id: acc.Bank,
      transactions: [{ date, description: `Terminal ${word(round, 'klmnopqrst')}`, amount, type: 'debit' }],
    },
    token,
  );
  expect(statement.status).toBe(201);
  const run = await api.post('/api/reconciliation/run', { statement_id: statement.body.id }, token);
  expect(run.status).toBe(200);
  const pending = await api.get(`/api/reconciliation/pending?per_page=100`, token);
  const m = pending.body.items.find((x: any) => x.journal_entries[0].id === entryId);
  expect(m, `a match under review: ${run.text} ${pending.text.slice(0, 2000)}`).toBeDefined();
  return { id: m.id, version: m.version, entryId };
}

describe('concurrency: two clients, one resource', () => {
  it('when PUT, post and void race on one draft, then the posted lines are the ones the last successful PUT wrote and the losers get 400 INVALID_STATUS', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const draft = await api.post(
        '/api/journal-entries',
        { entry_date: '2026-02-10', memo: 'race', lines: lines('10.00') },
        token,
      );
      const id = draft.body.id;
      const put = { entry_date: '2026-02-11', lines: lines('20.00', acc.Rent) };
      const order = round % 2 === 0;
      const requests = [
        api.put(`/api/journal-entries/${id}`, put, token),
        api.post(`/api/journal-entries/${id}/post`, undefined, token),
        api.post(`/api/journal-entries/${id}/void`, { reason: 'race' }, token),
      ];
      const [updated, posted, voided] = order
        ? await Promise.all(requests)
        : (await Promise.all([...requests].reverse())).reverse();
      expect(posted!.status, posted!.text).toBe(200);
      for (const loser of [updated!, voided!].filter((r) => r.status !== 200))
        expectErrorShape(fetched(loser), 400, 'INVALID_STATUS');
      const final = (await api.get(`/api/journal-entries/${id}`, token)).body;
      // No lost update: whatever was posted is exactly what the entry holds, and a PUT that was answered 200 is in it.
      expect(linesOf(final)).toEqual(linesOf(posted!.body));
      expect(linesOf(final)).toEqual(updated!.status === 200 ? linesOf(updated!.body) : linesOf(draft.body));
      expect(final.status).toBe(voided!.status === 200 ? 'void' : 'posted');
      tally('draft: PUT vs post vs void', `put ${updated!.status}, post ${posted!.status}, void ${voided!.status}`);
    }
    expect(checkLedgerFile(ledgerFile(t.dataDir, userId)).problems).toEqual([]);
  });

  it('when two PUTs race on one draft, then the draft holds exactly one of them whole, never a mix', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = (
        await api.post(
          '/api/journal-entries',
          { entry_date: '2026-02-12', memo: 'two writers', lines: lines('1.00') },
          token,
        )
      ).body.id;
      const a = { memo: 'writer A', lines: [...lines('3.00'), ...lines('4.00', acc.Rent)] };
      const b = { memo: 'writer B', entry_date: '2026-02-13', lines: lines('5.00', acc.Rent) };
      const [ra, rb] = await Promise.all([
        api.put(`/api/journal-entries/${id}`, a, token),
        api.put(`/api/journal-entries/${id}`, b, token),
      ]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      const final = (await api.get(`/api/journal-entries/${id}`, token)).body;
      const winner = final.memo === 'writer A' ? ra : rb;
      expect(linesOf(final)).toEqual(linesOf(winner.body));
      expect(final.entry_date).toBe(winner.body.entry_date);
      tally('draft: PUT vs PUT', `last write: ${final.memo}`);
    }
  });

  it('when two clients accept the same match (with and without versions), then exactly one wins and the other gets 400 ALREADY_PROCESSED or 409 VERSION_CONFLICT', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const m = await pendingMatch(round);
      const body = round % 2 === 0 ? { version: m.version } : {};
      const answers = await Promise.all([
        api.post(`/api/reconciliation/matches/${m.id}/accept`, body, token),
        api.post(`/api/reconciliation/matches/${m.id}/accept`, body, token),
      ]);
      const winners = answers.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      const loser = answers.find((r) => r.status !== 200)!;
      expect([400, 409]).toContain(loser.status);
      expectErrorShape(fetched(loser));
      expect(loser.body.code).toBe(loser.status === 400 ? 'ALREADY_PROCESSED' : 'VERSION_CONFLICT');
      tally('match: accept vs accept', `${loser.status} ${loser.body.code}`);
    }
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    // Each acceptance taught the payee model once, not twice.
    const examples = db
      .prepare(
        "SELECT description, COUNT(*) AS n FROM payee_examples WHERE source = 'accepted_match' GROUP BY description HAVING n > 1",
      )
      .all();
    db.close();
    expect(examples).toEqual([]);
  });

  it('when one client accepts and another rejects the same match, then one wins, the match has its status, and the loser gets the documented error', async () => {
    for (let round = 10; round < 10 + ROUNDS; round++) {
      const m = await pendingMatch(round);
      // Sent in either order on alternate rounds.
      const accept = () => api.post(`/api/reconciliation/matches/${m.id}/accept`, { version: m.version }, token);
      const reject = () =>
        api.post(`/api/reconciliation/matches/${m.id}/reject`, { version: m.version, reason: 'race' }, token);
      const [accepted, rejected] = await both(accept, reject, round % 2 === 1);
      expect([accepted.status, rejected.status].sort()).toEqual(
        [200, accepted.status === 200 ? rejected.status : accepted.status].sort(),
      );
      expect([accepted.status, rejected.status].filter((s) => s === 200)).toHaveLength(1);
      const loser = accepted.status === 200 ? rejected : accepted;
      expect(['ALREADY_PROCESSED', 'VERSION_CONFLICT']).toContain(loser.body.code);
      const page = await api.get(`/api/statements?per_page=1`, token);
      expect(page.status).toBe(200);
      const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
      const status = db.prepare('SELECT status FROM reconciliation_matches WHERE id = ?').pluck().get(m.id);
      db.close();
      expect(status).toBe(accepted.status === 200 ? 'accepted' : 'rejected');
      tally('match: accept vs reject', accepted.status === 200 ? 'accept won' : 'reject won');
    }
  });

  it('when the same statement is imported twice at once (JSON and file), then both are answered 2xx and its rows are stored once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const rows = Array.from({ length: 50 }, (_, i) => ({
        date: '2026-04-01',
        description: `Import race ${round}-${i}`,
        amount: `${i + 1}.00`,
        type: 'debit',
      }));
      const [a, b] = await Promise.all([
        api.post('/api/statements', { account_id: acc.Bank, transactions: rows }, token),
        api.post('/api/statements', { account_id: acc.Bank, transactions: rows }, token),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 201]);
      expect(a.body.imported_count + b.body.imported_count).toBe(50);
      expect(a.body.duplicate_count + b.body.duplicate_count).toBe(50);
      const csv = `Date,Description,Amount\n${rows.map((r) => `2026-04-02,File race ${r.description},-${r.amount}`).join('\n')}\n`;
      const upload = () =>
        api.request('POST', `/api/statements/import?account_id=${acc.Bank}`, {
          token,
          rawBody: csv,
          headers: { 'content-type': 'text/csv' },
        });
      const [c, d] = await Promise.all([upload(), upload()]);
      expect([c.status, d.status].sort(), c.text + d.text).toEqual([200, 201]);
      expect(c.body.imported_count + d.body.imported_count).toBe(50);
      tally('statement: import vs import', 'one 201 with every row, one 200 adding none');
    }
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    const dupes = db
      .prepare(
        "SELECT description, COUNT(*) AS n FROM bank_transactions WHERE description LIKE '%race%' GROUP BY description, date HAVING n > 1",
      )
      .all();
    const total = db.prepare("SELECT COUNT(*) FROM bank_transactions WHERE description LIKE '%race%'").pluck().get();
    db.close();
    expect(dupes).toEqual([]);
    expect(total).toBe(ROUNDS * 100);
  });

  it('when the same email registers twice at once, then one is 201, the other 409 EMAIL_TAKEN, and one user exists', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const email = `race-${round}-${Date.now()}@example.com`;
      const answers = await Promise.all([
        api.post('/api/auth/register', { email, name: 'A', password: PASSWORD }),
        api.post('/api/auth/register', { email: `  ${email.toUpperCase()} `, name: 'B', password: PASSWORD }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      expectErrorShape(fetched(answers.find((r) => r.status === 409)!), 409, 'EMAIL_TAKEN');
      const db = new Database(identityFile(t.dataDir), { readonly: true });
      expect(db.prepare('SELECT COUNT(*) FROM users WHERE email = ?').pluck().get(email)).toBe(1);
      db.close();
      tally('register: same email', '201 + 409 EMAIL_TAKEN');
    }
  });

  it('when two clients create an entry for the same unmatched bank transaction, then one is 201 and the other 400 ALREADY_PROCESSED, with one entry', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const statement = await api.post(
        '/api/statements',
        {
          account_id: acc.Bank,
          transactions: [{ date: '2026-05-01', description: `Unmatched ${round}`, amount: '9.99', type: 'debit' }],
        },
        token,
      );
      const txn = (await api.get(`/api/statements/${statement.body.id}/transactions`, token)).body.items[0];
      const answers = await Promise.all(
        [0, 1].map(() =>
          api.post(`/api/reconciliation/unmatched/${txn.id}/create-entry`, { account_id: acc.Food }, token),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
      expectErrorShape(fetched(answers.find((r) => r.status === 400)!), 400, 'ALREADY_PROCESSED');
      const entries = await api.get('/api/journal-entries?source_type=reconciliation&per_page=100', token);
      expect(entries.body.items.filter((e: any) => e.memo === `Unmatched ${round}`)).toHaveLength(1);
      tally('unmatched: create-entry vs create-entry', '201 + 400 ALREADY_PROCESSED');
    }
  });

  it('when two clients void the same entry, then one is 200, the other 400 INVALID_STATUS, and there is one reversal', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await postedSpending('7.00', '2026-06-01', `Void race ${round}`);
      const answers = await Promise.all(
        [0, 1].map(() => api.post(`/api/journal-entries/${id}/void`, { reason: 'race' }, token)),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      expectErrorShape(fetched(answers.find((r) => r.status === 400)!), 400, 'INVALID_STATUS');
      const reversals = await api.get('/api/journal-entries?source_type=system&per_page=100', token);
      expect(reversals.body.items.filter((e: any) => e.reverses_entry_id === id)).toHaveLength(1);
      tally('journal: void vs void', '200 + 400 INVALID_STATUS');
    }
  });

  it('when an account is deleted while an entry on it is created, then either the delete is 409 HAS_ENTRIES or the entry is 400 INVALID_ACCOUNT, never both succeeding', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const account = (await api.post('/api/accounts', { name: `Doomed ${round}`, type: 'EXPENSE' }, token)).body.id;
      const remove = () => api.delete(`/api/accounts/${account}`, token);
      const create = () =>
        api.post(
          '/api/journal-entries',
          { entry_date: '2026-06-02', auto_post: true, lines: lines('1.00', account) },
          token,
        );
      const [deleted, created] = await both(remove, create, round % 2 === 1);
      expect([deleted.status, created.status].sort()).toEqual(deleted.status === 204 ? [204, 400] : [201, 409]);
      if (deleted.status === 204) expect(created.body.code).toBe('INVALID_ACCOUNT');
      else expect(deleted.body.code).toBe('HAS_ENTRIES');
      tally('account: delete vs post an entry on it', deleted.status === 204 ? 'delete won' : 'entry won');
    }
    expect(checkLedgerFile(ledgerFile(t.dataDir, userId)).problems).toEqual([]);
    await recordResults('concurrency', { rounds_per_race: ROUNDS, races });
  });
});
