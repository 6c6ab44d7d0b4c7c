import fs from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import type { Direction } from '../../domain/double-entry.ts';
import {
  writeBeancount,
  writeCsv,
  writeLedgerJournal,
  type Book,
  type BookAccount,
  type BookEntry,
  type ExportFormat,
} from '../../domain/plaintext/index.ts';

/**
 * An export is made on the job worker and streamed: the server answers other requests while it
 * goes, the client's pace holds it back, and the text is the same as the whole-book writers give
 * for the same books read all at once.
 */

let t: TestServer;
let token: string;
let userId: string;

const ENTRIES = 12_000;

/** A journal with several currencies, names the formats cannot hold as they are, and voided entries with their reversals. */
function seedJournal(): string {
  const parts: string[] = ['account Assets:Café\n', 'account Expenses:Groceries\n'];
  const pad = (n: number) => String(n).padStart(12, '0');
  for (let i = 0; i < ENTRIES; i++) {
    const date = `20${20 + Math.floor(i / 4000)}-${String((Math.floor(i / 300) % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const amount = `${(i % 900) + 1}.${String(i % 100).padStart(2, '0')}`;
    if (i % 500 === 7) {
      // a voided entry and its reversal, linked by our marks
      const [x, y] = [`00000000-0000-7000-8000-${pad(i)}`, `00000000-0000-7000-9000-${pad(i)}`];
      parts.push(
        `${date} * Refunded ${i}  ; id: ${x}\n    ; voided-by: ${y}\n    Expenses:Groceries  ${amount} USD\n    Assets:Checking  -${amount} USD\n`,
      );
      parts.push(
        `${date} * Void: Refunded ${i}  ; id: ${y}\n    ; reverses: ${x}\n    Expenses:Groceries  -${amount} USD\n    Assets:Checking  ${amount} USD\n`,
      );
    } else if (i % 3 === 0) {
      parts.push(`${date} * Café "${i}"; split\n    Expenses:Dining  ${amount} EUR\n    Assets:Café  -${amount} EUR\n`);
    } else {
      parts.push(
        `${date} * Market ${i}\n    Expenses:Groceries  ${amount} USD\n    Expenses:Household  1.00 USD\n    Assets:Checking\n`,
      );
    }
  }
  return parts.join('\n');
}

beforeAll(async () => {
  t = await startTestServer();
  ({ token, id: userId } = await registerUser(t.api));
  const res = await t.api.request('POST', '/api/import/journal?format=hledger', {
    rawBody: seedJournal(),
    token,
    headers: { 'content-type': 'text/plain' },
  });
  expect(res.status).toBe(201);
  // a deactivated account with no history: declared, closed in beancount, never posted to
  const unused = await t.api.post('/api/accounts', { name: 'Old savings', type: 'ASSET' }, token);
  await t.api.put(`/api/accounts/${unused.body.id}`, { is_active: false }, token);
  // a draft never leaves the app
  const accounts = (await t.api.get('/api/accounts?per_page=100', token)).body.items as { id: string; name: string }[];
  const id = (name: string) => accounts.find((a) => a.name === name)!.id;
  await t.api.post(
    '/api/journal-entries',
    {
      entry_date: '2021-05-05',
      memo: 'Draft',
      lines: [
        { account_id: id('Groceries'), direction: 'DEBIT', amount: '5.00' },
        { account_id: id('Checking'), direction: 'CREDIT', amount: '5.00' },
      ],
    },
    token,
  );
});
afterAll(() => t.stop());

/** The books read all at once with plain queries, written by the whole-book writers (what the export gave before it streamed). */
function wholeBookText(query: { format: ExportFormat; start_date?: string; end_date?: string }): string {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    const from = query.start_date ?? '';
    const to = query.end_date ?? '9999-12-31';
    type AccountRow = {
      id: string;
      name: string;
      type: BookAccount['type'];
      currency: string;
      parent_id: string | null;
      is_active: bigint;
    };
    type EntryRow = {
      id: string;
      entry_date: string;
      memo: string | null;
      status: 'posted' | 'void';
      reversal_entry_id: string | null;
      reverses_entry_id: string | null;
    };
    type LineRow = {
      entry_id: string;
      account_id: string;
      direction: Direction;
      amount_minor: bigint;
      currency: string;
    };
    const accounts = (
      db.prepare('SELECT id, name, type, currency, parent_id, is_active FROM accounts').all() as AccountRow[]
    ).map((a) => ({
      id: a.id,
      name: a.name,
      type: a.type,
      currency: a.currency,
      parentId: a.parent_id,
      isActive: a.is_active === 1n,
    }));
    const where = `e.status IN ('posted', 'void') AND e.entry_date >= ? AND e.entry_date <= ?`;
    const entries = (
      db
        .prepare(`SELECT * FROM journal_entries e WHERE ${where} ORDER BY e.entry_date, e.created_at, e.seq`)
        .all(from, to) as EntryRow[]
    ).map((e): BookEntry => ({
      id: e.id,
      date: e.entry_date,
      memo: e.memo,
      status: e.status,
      reversalEntryId: e.reversal_entry_id,
      reversesEntryId: e.reverses_entry_id,
      lines: [],
    }));
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const l of db
      .prepare(
        `SELECT l.* FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE ${where} ORDER BY l.entry_id, l.line_no`,
      )
      .all(from, to) as LineRow[]) {
      byId.get(l.entry_id)!.lines.push({
        accountId: l.account_id,
        direction: l.direction,
        amountMinor: l.amount_minor,
        currency: l.currency,
      });
    }
    const book: Book = { accounts, entries };
    const header = [
      `Personal Ledger export (${query.format})`,
      `entries: posted and voided entries with their reversals${query.start_date ? `, from ${query.start_date}` : ''}${query.end_date ? `, to ${query.end_date}` : ''}`,
    ];
    if (query.format === 'csv') return writeCsv(book);
    if (query.format === 'beancount') return writeBeancount(book, header);
    return writeLedgerJournal(book, query.format, header);
  } finally {
    db.close();
  }
}

interface Download {
  response: Promise<http.IncomingMessage>;
  request: http.ClientRequest;
}

function download(path: string): Download {
  const url = new URL(path, t.server.url);
  let request!: http.ClientRequest;
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, resolve);
    request.on('error', reject);
  });
  return { response, request };
}

/** The rest of a response, and how many reads it took. */
function readAll(res: http.IncomingMessage, already: Buffer[] = []): Promise<{ text: string; reads: number }> {
  const chunks = [...already];
  return new Promise((resolve, reject) => {
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), reads: chunks.length }));
    res.on('error', reject);
    res.resume();
  });
}

describe('streamed export', () => {
  const cases: { format: ExportFormat; start_date?: string; end_date?: string }[] = [
    { format: 'ledger' },
    { format: 'hledger' },
    { format: 'beancount' },
    { format: 'csv' },
    { format: 'beancount', start_date: '2021-03-01', end_date: '2022-06-30' },
    { format: 'hledger', end_date: '2020-12-31' },
  ];
  for (const query of cases) {
    const search = new URLSearchParams(query as Record<string, string>).toString();
    it(`when ${search} is exported, then it is streamed (chunked, no Content-Length) and is exactly the whole-book writer's text`, async () => {
      const res = await download(`/api/export?${search}`).response;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const { text } = await readAll(res);
      const expected = wholeBookText(query);
      expect(text.length).toBe(expected.length);
      expect(text === expected).toBe(true);
    });
  }

  it('when the client stops reading an export, then other requests are answered before it ends, and it ends whole once read again', async () => {
    const res = await download('/api/export?format=ledger').response;
    const first = await new Promise<Buffer>((resolve) => res.once('data', resolve));
    res.pause();
    let ended = false;
    res.once('end', () => (ended = true));
    const others = await Promise.all([
      t.api.get('/api/accounts/balances', token),
      t.api.get('/api/journal-entries?per_page=5', token),
    ]);
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    expect(ended).toBe(false);
    const { text, reads } = await readAll(res, [first]);
    expect(reads).toBeGreaterThan(1);
    expect(text === wholeBookText({ format: 'ledger' })).toBe(true);
  });

  it('when the client goes away in the middle of an export, then the export stops and the next one is whole', async () => {
    const gone = download('/api/export?format=csv');
    const res = await gone.response;
    await new Promise((resolve) => res.once('data', resolve));
    gone.request.destroy();
    const next = await download('/api/export?format=csv').response;
    expect(next.statusCode).toBe(200);
    expect((await readAll(next)).text === wholeBookText({ format: 'csv' })).toBe(true);
  });
});

describe('a failed export', () => {
  it('when the export job fails (its worker cannot open the ledger file), then the answer is a JSON 503, and the server goes on', async () => {
    const own = await startTestServer();
    try {
      const u = await registerUser(own.api);
      await own.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, u.token);
      // The server's connection keeps the file it opened; the job worker opens the path anew and finds a folder.
      const file = ledgerFile(own.dataDir, u.id);
      fs.renameSync(file, `${file}.kept`);
      fs.mkdirSync(file);
      try {
        const res = await own.api.get('/api/export?format=beancount', u.token);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('content-disposition')).toBeNull();
        expect(res.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE', detail: expect.any(String) });
      } finally {
        fs.rmdirSync(file);
        fs.renameSync(`${file}.kept`, file);
      }
      expect((await own.api.get('/api/accounts', u.token)).status).toBe(200);
      expect((await own.api.get('/api/export?format=csv', u.token)).status).toBe(200);
    } finally {
      await own.stop();
    }
  });
});
