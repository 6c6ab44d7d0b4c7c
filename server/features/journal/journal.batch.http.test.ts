import net from 'node:net';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

const acct: Record<string, string> = {};

function entry(i: number, extra: Record<string, unknown> = {}) {
  const amount = `${(i % 90) + 10}.${String(i % 100).padStart(2, '0')}`;
  return {
    entry_date: `2026-0${(i % 9) + 1}-${String((i % 28) + 1).padStart(2, '0')}`,
    memo: `Batch entry ${i}`,
    auto_post: true,
    lines: [
      { account_id: acct.food, direction: 'DEBIT', amount },
      { account_id: acct.bank, direction: 'CREDIT', amount },
    ],
    ...extra,
  };
}

const rows = (sql: string, ...params: unknown[]) => {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

useAppServer();

beforeAll(async () => {
  for (const [key, name, type, extra] of [
    ['bank', 'Bank', 'ASSET', {}],
    ['food', 'Food', 'EXPENSE', {}],
    ['closed', 'Closed', 'EXPENSE', {}],
    ['yen', 'Yen', 'ASSET', { currency: 'JPY' }],
  ] as const) {
    const res = await api.post('/api/accounts', { name, type, ...extra }, token);
    acct[key] = res.body.id;
  }
  await api.put(`/api/accounts/${acct.closed}`, { is_active: false }, token);
});

describe('POST /api/journal-entries/batch (CONTRACT §18)', () => {
  it('when a batch of valid entries is posted, then it answers 201 with every entry in the order given, all stored and posted', async () => {
    const entries = [entry(1), entry(2, { auto_post: false }), entry(3, { memo: null })];
    const balance = async () => (await api.get(`/api/accounts/${acct.food}/balance`, token)).body.balance as string;
    const before = await balance();
    const res = await api.post('/api/journal-entries/batch', { entries }, token);
    expect(res.status).toBe(201);
    expect(res.body.items.map((e: { memo: string | null }) => e.memo)).toEqual([
      'Batch entry 1',
      'Batch entry 2',
      null,
    ]);
    expect(res.body.items.map((e: { status: string }) => e.status)).toEqual(['posted', 'draft', 'posted']);
    expect(res.body.items[0].lines.map((l: { amount: string }) => l.amount)).toEqual(['11.01', '11.01']);
    // the posted entries are in the balances, the draft is not
    expect(before).toBe('0.00');
    expect(await balance()).toBe('24.04');
    for (const item of res.body.items) {
      const stored = await api.get(`/api/journal-entries/${item.id}`, token);
      expect(stored.body).toEqual(item);
    }
  });

  it(`when one entry of a batch is bad, then the batch is 400 with errors named by the entry's index, and nothing of it is stored`, async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'an unbalanced entry',
        entry(5, { lines: [{ ...entry(5).lines[0], amount: '1.00' }, entry(5).lines[1]] }),
        'UNBALANCED',
        'entries.2.lines',
      ],
      ['an entry of one line', entry(5, { lines: [entry(5).lines[0]] }), 'TOO_FEW_LINES', 'entries.2.lines'],
      [
        'an unknown account',
        entry(5, { lines: [entry(5).lines[0], { ...entry(5).lines[1], account_id: crypto.randomUUID() }] }),
        'INVALID_ACCOUNT',
        'entries.2.lines.1.account_id',
      ],
      [
        'an inactive account',
        entry(5, { lines: [{ ...entry(5).lines[0], account_id: acct.closed }, entry(5).lines[1]] }),
        'INACTIVE_ACCOUNT',
        'entries.2.lines',
      ],
      [
        'a line in another currency than its account',
        entry(5, { lines: [{ ...entry(5).lines[0], currency: 'EUR' }, entry(5).lines[1]] }),
        'CURRENCY_MISMATCH',
        'entries.2.lines.0.currency',
      ],
      [
        'an amount with more digits than the currency has',
        entry(5, { lines: [{ ...entry(5).lines[0], account_id: acct.yen, amount: '1.5' }, entry(5).lines[1]] }),
        'VALIDATION_ERROR',
        'entries.2.lines.0.amount',
      ],
      ['a field of the wrong type', entry(5, { entry_date: '2026-02-30' }), 'VALIDATION_ERROR', 'entries.2.entry_date'],
    ];
    for (const [what, bad, code, field] of cases) {
      const digest = databaseDigest(ledgerFile(t.dataDir, userId));
      const res = await api.post(
        '/api/journal-entries/batch',
        { entries: [entry(10), entry(11), bad, entry(12)] },
        token,
      );
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe(code);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        what,
      ).toContain(field);
      expect(databaseDigest(ledgerFile(t.dataDir, userId)), what).toBe(digest);
    }
  });

  it('when several entries of a batch are bad, then every one of them is named, with the code of the first', async () => {
    const unbalanced = entry(5, { lines: [{ ...entry(5).lines[0], amount: '1.00' }, entry(5).lines[1]] });
    const unknown = entry(6, { lines: [entry(6).lines[0], { ...entry(6).lines[1], account_id: crypto.randomUUID() }] });
    const res = await api.post(
      '/api/journal-entries/batch',
      { entries: [entry(1), unknown, entry(2), unbalanced] },
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_ACCOUNT');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'entries.1.lines.1.account_id',
      'entries.3.lines',
    ]);
    expect(res.body.detail).toMatch(/^Entry 1: .*\(and 1 more entries refused\); nothing was stored$/);
  });

  it('when the batch is empty, over 1000 entries or not a list, then it is 400 VALIDATION_ERROR naming entries', async () => {
    for (const entries of [[], Array.from({ length: 1001 }, (_, i) => entry(i)), 'all of them']) {
      const res = await api.post('/api/journal-entries/batch', { entries }, token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors[0].field).toBe('entries');
    }
  });

  it('when 1000 entries come in one batch, then all 1000 are stored in one request and the trial balance stays zero', async () => {
    const before = Number(rows('SELECT COUNT(*) AS n FROM journal_entries')[0]!.n);
    const res = await api.post(
      '/api/journal-entries/batch',
      { entries: Array.from({ length: 1000 }, (_, i) => entry(i)) },
      token,
    );
    expect(res.status).toBe(201);
    expect(res.body.items).toHaveLength(1000);
    expect(new Set(res.body.items.map((e: { id: string }) => e.id)).size).toBe(1000);
    expect(Number(rows('SELECT COUNT(*) AS n FROM journal_entries')[0]!.n)).toBe(before + 1000);
    const trial = await api.get('/api/reports/trial-balance?as_of=2026-12-31', token);
    for (const c of trial.body.currencies) expect(c.total_debit).toBe(c.total_credit);
  });
});

/** Reads one HTTP answer from a socket (its headers, then Content-Length bytes). */
function readAnswer(socket: net.Socket): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString();
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off('data', onData);
      resolve({
        status: Number(head.split(' ')[1]),
        body: JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString()),
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/**
 * Posting requests sent at the same moment, as clients that are already connected send them: each
 * on its own connection, which a first request has shown the server to be reading, and all written
 * before the server's event loop runs again (this test shares it).
 */
async function sendTogether(bodies: unknown[]): Promise<{ status: number; body: any }[]> {
  const { port } = t.server;
  const request = (method: string, path: string, json?: string) =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
    (json === undefined
      ? '\r\n'
      : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  const sockets = await Promise.all(
    bodies.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const warm = sockets.map(readAnswer);
  for (const socket of sockets) socket.write(request('GET', '/api/auth/me'));
  expect((await Promise.all(warm)).map((a) => a.status)).toEqual(bodies.map(() => 200));
  const answers = sockets.map(readAnswer);
  bodies.forEach((body, i) => sockets[i]!.write(request('POST', '/api/journal-entries', JSON.stringify(body))));
  try {
    return await Promise.all(answers);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

/** Counts the COMMITs of the server's connection to this user's ledger (group commits run them as statements). */
function countCommits(): { readonly n: number; stop(): void } {
  const file = ledgerFile(t.dataDir, userId);
  const original = Database.prototype.exec;
  const counter = { n: 0 };
  Database.prototype.exec = function (this: Database.Database, sql: string) {
    if (sql === 'COMMIT' && this.name === file) counter.n += 1;
    return original.call(this, sql);
  };
  return {
    get n() {
      return counter.n;
    },
    stop: () => {
      Database.prototype.exec = original;
    },
  };
}

describe('concurrent posting (group commit)', () => {
  it('when posting requests arrive together, then they share commits, each valid one is answered 201 with its entry already durable, and a bad one fails alone', async () => {
    const bad = entry(99, {
      memo: 'The unbalanced one',
      lines: [{ ...entry(99).lines[0], amount: '1.00' }, entry(99).lines[1]],
    });
    const bodies = Array.from({ length: 12 }, (_, i) => (i === 5 ? bad : entry(200 + i)));
    const commits = countCommits();
    let answers: { status: number; body: any }[];
    try {
      answers = await sendTogether(bodies);
    } finally {
      commits.stop();
    }
    expect(answers.map((a) => a.status)).toEqual(bodies.map((_, i) => (i === 5 ? 400 : 201)));
    expect(answers[5]!.body.code).toBe('UNBALANCED');
    // one sync to disk for the requests that arrived together
    expect(commits.n).toBe(1);
    // every answered entry is in the file, as another connection reads it
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.id as string);
    const stored = rows(
      `SELECT id, status FROM journal_entries WHERE id IN (${ids.map(() => '?').join(', ')})`,
      ...ids,
    );
    expect(stored).toHaveLength(11);
    expect(stored.every((r) => r.status === 'posted')).toBe(true);
    expect(rows('SELECT COUNT(*) AS n FROM journal_entries WHERE memo = ?', 'The unbalanced one')[0]!.n).toBe(0);
  });
});
