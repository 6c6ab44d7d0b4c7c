import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type ApiResponse,
  type TestServer,
} from '../../../test/support/server.ts';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/statements/', import.meta.url));

function fixture(name: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
}

let t: TestServer;
let api: Api;
let token: string;
let userId: string;

interface Txn {
  date: string;
  description: string;
  amount: string;
  type: 'debit' | 'credit';
  external_id?: string | null;
}

async function account(name: string, type: string, currency = 'USD'): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, currency }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}

function digest(): string {
  return databaseDigest(ledgerFile(t.dataDir, userId));
}

/** Rows of one table of the user's ledger file, read through a separate connection. */
function count(table: string, where = '1 = 1', ...params: unknown[]): number {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

function createStatement(body: unknown, as = token) {
  return api.post('/api/statements', body, as);
}

function importRaw(query: string, bytes: Uint8Array | string, as = token, contentType = 'application/octet-stream') {
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: bytes,
    token: as,
    headers: { 'content-type': contentType },
  });
}

/** A multipart/form-data upload built by the platform's FormData, sent as bytes. */
async function importMultipart(
  query: string,
  file: Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
  fileName = 'statement.dat',
  as = token,
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file]), fileName);
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: bytes,
    token: as,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
}

async function allTransactions(
  statementId: string,
  as = token,
): Promise<(Txn & { id: string; reconciliation_status: string; match_id: string | null; statement_id: string })[]> {
  const res = await api.get(`/api/statements/${statementId}/transactions?per_page=100`, as);
  expect(res.status).toBe(200);
  return res.body.items;
}

function pick(t: Txn) {
  return { date: t.date, description: t.description, amount: t.amount, type: t.type };
}

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token, id: userId } = await registerUser(api));
});
afterAll(() => t.stop());

describe('POST /api/statements (JSON)', () => {
  it('when transactions are posted for an ASSET account, then a json statement with counts and its date range is created and listed', async () => {
    const checking = await account('JSON checking', 'ASSET');
    const res = await createStatement({
      account_id: checking,
      name: 'March',
      transactions: [
        { date: '2026-03-05', description: 'Coffee', amount: '3.50', type: 'debit' },
        { date: '2026-03-01', description: 'Salary', amount: '1500', type: 'credit', external_id: 'PAY-1' },
        { date: '2026-03-09', description: 'Books', amount: '12.00', type: 'debit' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      account_id: checking,
      name: 'March',
      source: 'json',
      imported_count: 3,
      duplicate_count: 0,
      start_date: '2026-03-01',
      end_date: '2026-03-09',
      opening_balance: null,
      closing_balance: null,
      closing_date: null,
      created_at: expect.any(String),
      rule_matched_count: 0,
    });
    const { rule_matched_count: _matched, ...stored } = res.body;
    expect((await api.get(`/api/statements/${res.body.id}`, token)).body).toEqual(stored);
    const txns = await allTransactions(res.body.id);
    // by date, amounts printed with the account currency's digits
    expect(
      txns.map((x) => [x.date, x.description, x.amount, x.type, x.external_id, x.reconciliation_status, x.match_id]),
    ).toEqual([
      ['2026-03-01', 'Salary', '1500.00', 'credit', 'PAY-1', 'unmatched', null],
      ['2026-03-05', 'Coffee', '3.50', 'debit', null, 'unmatched', null],
      ['2026-03-09', 'Books', '12.00', 'debit', null, 'unmatched', null],
    ]);
    expect(txns.every((x) => x.statement_id === res.body.id)).toBe(true);
  });

  it('when an account has a statement, then deleting the account is 409 naming the statements, until the statement is deleted', async () => {
    const checking = await account('Checking with a statement', 'ASSET');
    const res = await createStatement({
      account_id: checking,
      name: 'April',
      transactions: [{ date: '2026-04-02', description: 'Coffee', amount: '3.50', type: 'debit' }],
    });
    expect(res.status).toBe(201);
    const refused = await api.delete(`/api/accounts/${checking}`, token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'HAS_ENTRIES', detail: expect.stringContaining('bank statements') });
    expect((await api.delete(`/api/statements/${res.body.id}`, token)).status).toBe(204);
    // nothing the statement left behind holds the account
    expect((await api.delete(`/api/accounts/${checking}`, token)).status).toBe(204);
  });

  it('when the statement is for a LIABILITY account, then it is accepted too', async () => {
    const card = await account('JSON card', 'LIABILITY');
    const res = await createStatement({
      account_id: card,
      transactions: [{ date: '2026-03-05', description: 'Fuel', amount: '40.00', type: 'debit' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ account_id: card, imported_count: 1, name: 'Statement 2026-03-05' });
  });

  for (const type of ['EXPENSE', 'INCOME', 'EQUITY']) {
    it(`when the account is an ${type} account, then 400 INVALID_ACCOUNT and nothing is stored`, async () => {
      const other = await account(`Not a bank ${type}`, type);
      const before = digest();
      const res = await createStatement({
        account_id: other,
        transactions: [{ date: '2026-03-05', description: 'x', amount: '1.00', type: 'debit' }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_ACCOUNT');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['account_id']);
      expect(digest()).toBe(before);
    });
  }

  it('when the account does not exist, then 400 INVALID_ACCOUNT; when account_id is absent, then VALIDATION_ERROR naming it', async () => {
    const before = digest();
    const missing = await createStatement({ account_id: crypto.randomUUID(), transactions: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INVALID_ACCOUNT');
    const absent = await createStatement({ transactions: [] });
    expect(absent.status).toBe(400);
    expect(absent.body.code).toBe('VALIDATION_ERROR');
    expect(absent.body.errors.map((e: { field: string }) => e.field)).toContain('account_id');
    expect(digest()).toBe(before);
  });

  const good: Txn = { date: '2026-03-05', description: 'Coffee', amount: '3.50', type: 'debit' };
  const refusals: [string, Record<string, unknown>, string][] = [
    ['more decimals than USD has', { amount: '1.234' }, 'amount'],
    ['a JSON number amount', { amount: 3.5 }, 'amount'],
    ['a negative amount', { amount: '-3.50' }, 'amount'],
    ['a zero amount', { amount: '0.00' }, 'amount'],
    ['an amount with a thousands separator', { amount: '1,000.00' }, 'amount'],
    ['a date not on the calendar', { date: '2026-02-30' }, 'date'],
    ['a date in another layout', { date: '05/03/2026' }, 'date'],
    ['a type other than debit or credit', { type: 'withdrawal' }, 'type'],
    ['an empty description', { description: '   ' }, 'description'],
    ['an unknown field', { balance: '10.00' }, 'balance'],
  ];
  for (const [what, change, field] of refusals) {
    it(`when the third transaction has ${what}, then 400 VALIDATION_ERROR names transactions.2.${field} and nothing is stored`, async () => {
      const checking = await account(`Refusal ${what}`, 'ASSET');
      const before = digest();
      const res = await createStatement({
        account_id: checking,
        transactions: [good, { ...good, description: 'Tea' }, { ...good, ...change }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(`transactions.2.${field}`);
      expect(digest()).toBe(before);
    });
  }

  it('when the same transactions are posted again, then nothing is imported and all count as duplicates', async () => {
    const checking = await account('Dedupe checking', 'ASSET');
    const txns: Txn[] = [
      { date: '2026-04-01', description: 'Rent', amount: '900.00', type: 'debit' },
      { date: '2026-04-02', description: 'Groceries', amount: '45.10', type: 'debit' },
      { date: '2026-04-03', description: 'Refund', amount: '9.99', type: 'credit' },
    ];
    expect((await createStatement({ account_id: checking, transactions: txns })).body).toMatchObject({
      imported_count: 3,
      duplicate_count: 0,
    });
    const statementsBefore = count('statements', 'account_id = ?', checking);
    const again = await createStatement({ account_id: checking, transactions: txns });
    // nothing new: nothing is stored, not even an empty statement
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      id: null,
      created_at: null,
      imported_count: 0,
      duplicate_count: 3,
      start_date: '2026-04-01',
      end_date: '2026-04-03',
    });
    expect(count('statements', 'account_id = ?', checking)).toBe(statementsBefore);
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(3);

    // an overlapping batch adds only the new ones
    const overlap = await createStatement({
      account_id: checking,
      transactions: [
        txns[1],
        txns[2],
        { date: '2026-04-04', description: 'Phone', amount: '20.00', type: 'debit' },
        { date: '2026-04-05', description: 'Bonus', amount: '100.00', type: 'credit' },
      ],
    });
    expect(overlap.body).toMatchObject({ imported_count: 2, duplicate_count: 2 });
    expect((await allTransactions(overlap.body.id)).map((x) => x.description)).toEqual(['Phone', 'Bonus']);
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(5);

    // the same transactions on another account are not duplicates there
    const savings = await account('Dedupe savings', 'ASSET');
    expect((await createStatement({ account_id: savings, transactions: txns })).body).toMatchObject({
      imported_count: 3,
      duplicate_count: 0,
    });
  });

  it('when a batch holds two genuinely identical rows, then both are kept, a re-import keeps 2, and a third equal row is new', async () => {
    const checking = await account('Twin checking', 'ASSET');
    const coffee: Txn = { date: '2026-05-01', description: 'Coffee cart', amount: '2.50', type: 'debit' };
    const first = await createStatement({ account_id: checking, transactions: [coffee, coffee] });
    expect(first.body).toMatchObject({ imported_count: 2, duplicate_count: 0 });
    expect(await allTransactions(first.body.id)).toHaveLength(2);
    const again = await createStatement({ account_id: checking, transactions: [coffee, coffee] });
    expect(again.body).toMatchObject({ imported_count: 0, duplicate_count: 2 });
    const one = await createStatement({ account_id: checking, transactions: [coffee] });
    expect(one.body).toMatchObject({ imported_count: 0, duplicate_count: 1 });
    const three = await createStatement({ account_id: checking, transactions: [coffee, coffee, coffee] });
    expect(three.body).toMatchObject({ imported_count: 1, duplicate_count: 2 });
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(3);
  });

  it('when rows carry an external_id, then it decides duplicates before the content does', async () => {
    const checking = await account('External id checking', 'ASSET');
    const row: Txn = {
      date: '2026-06-01',
      description: 'Transfer',
      amount: '50.00',
      type: 'debit',
      external_id: 'FIT-1',
    };
    expect((await createStatement({ account_id: checking, transactions: [row] })).body.imported_count).toBe(1);
    // same id, different text and amount (the bank corrected the row): still a duplicate
    const corrected = await createStatement({
      account_id: checking,
      transactions: [{ ...row, description: 'TRANSFER TO SAVINGS', amount: '50.01' }],
    });
    expect(corrected.body).toMatchObject({ imported_count: 0, duplicate_count: 1 });
    // same content, another id: a different transaction
    const other = await createStatement({ account_id: checking, transactions: [{ ...row, external_id: 'FIT-2' }] });
    expect(other.body).toMatchObject({ imported_count: 1, duplicate_count: 0 });
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(2);
  });
});

describe('POST /api/statements/import (files)', () => {
  interface FormatCase {
    file: string;
    currency: string;
    format: string;
    count: number;
    start: string;
    end: string;
    firstInFile: Txn;
    lastInFile: Txn;
    firstExternalId?: string;
  }
  const cases: FormatCase[] = [
    {
      file: 'csv_lloyds_uk_debit_credit_ddmmyyyy.csv',
      currency: 'GBP',
      format: 'csv',
      count: 12,
      start: '2023-12-01',
      end: '2024-01-15',
      firstInFile: { date: '2024-01-15', description: 'ACME STORE CD 1417 14JAN24', amount: '8.99', type: 'debit' },
      lastInFile: {
        date: '2023-12-01',
        description: 'CLIENT CO LTD 400000005566778899 306364 10 01DEC23 09:15',
        amount: '500.00',
        type: 'credit',
      },
    },
    {
      file: 'ofx1_ofxparse_checking_usd.ofx',
      currency: 'USD',
      format: 'ofx',
      count: 3,
      start: '2011-03-31',
      end: '2011-04-07',
      firstInFile: {
        date: '2011-03-31',
        description:
          'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%',
        amount: '0.01',
        type: 'credit',
      },
      lastInFile: {
        date: '2011-04-07',
        description: 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11',
        amount: '25.00',
        type: 'debit',
      },
      firstExternalId: '0000486',
    },
    {
      file: 'ofx2_asgrim_savings_usd.ofx',
      currency: 'USD',
      format: 'ofx',
      count: 3,
      start: '2007-03-15',
      end: '2007-07-09',
      firstInFile: { date: '2007-03-15', description: 'automatic deposit', amount: '200.00', type: 'credit' },
      lastInFile: { date: '2007-07-09', description: 'Cheque', amount: '100.00', type: 'debit' },
      firstExternalId: '980315001',
    },
    {
      file: 'qfx_actual_cad_8859-1.qfx',
      currency: 'CAD',
      format: 'ofx',
      count: 1,
      start: '2022-10-19',
      end: '2022-10-19',
      firstInFile: {
        date: '2022-10-19',
        description: 'Paiement facture/Carte prépayée - PWW',
        amount: '20.00',
        type: 'debit',
      },
      lastInFile: {
        date: '2022-10-19',
        description: 'Paiement facture/Carte prépayée - PWW',
        amount: '20.00',
        type: 'debit',
      },
      firstExternalId: 'wSoKuCS77',
    },
    {
      file: 'qif_quiffen_mixed_sections.qif',
      currency: 'USD',
      format: 'qif',
      count: 5,
      start: '2020-02-10',
      end: '2020-02-14',
      firstInFile: { date: '2020-02-14', description: 'T-Mobile', amount: '67.50', type: 'credit' },
      lastInFile: { date: '2020-02-10', description: 'Amazon.com - test order 1', amount: '100.00', type: 'debit' },
    },
    {
      file: 'camt053_genkgo_v2_multi_statement.xml',
      currency: 'EUR',
      format: 'camt053',
      count: 2,
      start: '2014-12-31',
      end: '2014-12-31',
      firstInFile: {
        date: '2014-12-31',
        description: 'Company Name 1 - Transaction Description 1',
        amount: '8.85',
        type: 'credit',
      },
      lastInFile: {
        date: '2014-12-31',
        description: 'Company Name 2 - Transaction Description 2',
        amount: '7.00',
        type: 'debit',
      },
    },
  ];

  for (const c of cases) {
    it(`when ${c.file} is uploaded as the raw body without a format, then its ${c.count} transactions are imported with the right first and last rows`, async () => {
      const bank = await account(`Raw ${c.file}`, 'ASSET', c.currency);
      const res = await importRaw(`account_id=${bank}`, fixture(c.file));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        account_id: bank,
        source: c.format,
        format: c.format,
        imported_count: c.count,
        duplicate_count: 0,
        start_date: c.start,
        end_date: c.end,
      });
      const txns = await allTransactions(res.body.id);
      expect(txns).toHaveLength(c.count);
      expect(txns.map(pick)).toContainEqual(c.firstInFile);
      expect(txns.map(pick)).toContainEqual(c.lastInFile);
      if (c.firstExternalId)
        expect(txns.find((x) => x.date === c.firstInFile.date && x.amount === c.firstInFile.amount)!.external_id).toBe(
          c.firstExternalId,
        );
      // listed by date
      expect(txns.map((x) => x.date)).toEqual(txns.map((x) => x.date).sort());
      expect(txns.every((x) => x.reconciliation_status === 'unmatched')).toBe(true);
    });
  }

  it('when the CSV is imported, then the guessed mapping is answered and the statement is named after the upload', async () => {
    const bank = await account('Lloyds guessed', 'ASSET', 'GBP');
    const res = await importMultipart(
      `account_id=${bank}`,
      fixture('csv_lloyds_uk_debit_credit_ddmmyyyy.csv'),
      {},
      'lloyds-january.csv',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'lloyds-january.csv',
      imported_count: 12,
      csv_mapping: {
        delimiter: ',',
        header_row: 0,
        date_column: 'Transaction Date',
        date_format: 'DD/MM/YYYY',
        debit_column: 'Debit Amount',
        credit_column: 'Credit Amount',
        amount_column: null,
      },
    });
    const txns = await allTransactions(res.body.id);
    expect(pick(txns[0]!)).toEqual({
      date: '2023-12-01',
      description: 'HHHHH LTD RP555000111222333 207348 10 01DEC23 16:05',
      amount: '2000.00',
      type: 'credit',
    });
    expect(pick(txns.at(-1)!)).toEqual({
      date: '2024-01-15',
      description: 'ACME STORE CD 1417 14JAN24',
      amount: '8.99',
      type: 'debit',
    });
  });

  it('when a file is sent as the multipart field "file" with a name field, then it is imported like the raw body', async () => {
    const bank = await account('Multipart OFX', 'ASSET', 'USD');
    const res = await importMultipart(
      `account_id=${bank}`,
      fixture('ofx2_asgrim_savings_usd.ofx'),
      { name: 'Savings 2007' },
      'savings.ofx',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Savings 2007', source: 'ofx', imported_count: 3 });
    expect((await allTransactions(res.body.id)).map(pick)).toEqual([
      { date: '2007-03-15', description: 'automatic deposit', amount: '200.00', type: 'credit' },
      { date: '2007-03-29', description: 'Transfer from checking', amount: '150.00', type: 'credit' },
      { date: '2007-07-09', description: 'Cheque', amount: '100.00', type: 'debit' },
    ]);
  });

  it('when the multipart body has no "file" field, then 400 VALIDATION_ERROR names file', async () => {
    const bank = await account('Multipart without file', 'ASSET');
    const form = new FormData();
    form.append('attachment', new Blob([fixture('ofx2_asgrim_savings_usd.ofx')]), 'a.ofx');
    const encoded = new Response(form);
    const res = await api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: new Uint8Array(await encoded.arrayBuffer()),
      token,
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors[0].field).toBe('file');
  });

  it('when the format is given explicitly, then that parser is used: right gives the import, wrong gives INVALID_STATEMENT_FILE', async () => {
    const bank = await account('Explicit format', 'ASSET', 'USD');
    const right = await importRaw(`account_id=${bank}&format=qif`, fixture('qif_quiffen_mixed_sections.qif'));
    expect(right.status).toBe(201);
    expect(right.body).toMatchObject({
      format: 'qif',
      imported_count: 5,
      skipped: [
        { line: 29, reason: expect.stringMatching(/zero/) },
        { line: 93, reason: expect.stringMatching(/Invst/) },
      ],
    });
    const before = digest();
    const wrong = await importRaw(`account_id=${bank}&format=camt053`, fixture('ofx1_ofxparse_checking_usd.ofx'));
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_STATEMENT_FILE');
    const unknown = await importRaw(`account_id=${bank}&format=xls`, fixture('ofx1_ofxparse_checking_usd.ofx'));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'format' }] });
    expect(digest()).toBe(before);
  });

  const broken: [string, RegExp][] = [
    ['ofx1_broken_ofxparse_date_missing.ofx', /line 33\b.*DTPOSTED/],
    ['camt053_broken_genkgo_no_statement.xml', /line 3\b.*<Stmt>/],
  ];
  for (const [file, detail] of broken) {
    it(`when the broken file ${file} is uploaded, then 400 INVALID_STATEMENT_FILE names the line and element and nothing is stored`, async () => {
      const bank = await account(`Broken ${file}`, 'ASSET', 'USD');
      const before = digest();
      const res = await importRaw(`account_id=${bank}`, fixture(file));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_STATEMENT_FILE');
      expect(res.body.detail).toMatch(detail);
      expect(digest()).toBe(before);
    });
  }

  it('when a CSV row has an amount that is not a number, then 400 INVALID_STATEMENT_FILE names its line and nothing of the file is stored', async () => {
    const bank = await account('Broken CSV', 'ASSET');
    const before = digest();
    const csv = 'Date,Description,Amount\n2026-01-02,Coffee,-3.50\n2026-01-03,Tea,-2.00\n2026-01-04,Cake,-4.0.0\n';
    const res = await importRaw(`account_id=${bank}`, csv, token, 'text/csv');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATEMENT_FILE');
    expect(res.body.detail).toMatch(/line 4\b.*"-4.0.0"/);
    expect(digest()).toBe(before);
  });

  it('when a CSV row read with a given mapping has an impossible date, then 400 INVALID_STATEMENT_FILE names its line', async () => {
    const bank = await account('Broken CSV date', 'ASSET');
    const before = digest();
    const csv = 'Date,Description,Amount\n2026-01-02,Coffee,-3.50\n2026-01-03,Tea,-2.00\n2026-02-30,Cake,-4.00\n';
    const mapping = {
      delimiter: ',',
      header_row: 0,
      date_column: 'Date',
      date_format: 'YYYY-MM-DD',
      description_columns: ['Description'],
      amount_column: 'Amount',
    };
    const res = await importRaw(
      `account_id=${bank}&format=csv&mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
      csv,
      token,
      'text/csv',
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATEMENT_FILE');
    expect(res.body.detail).toMatch(/line 4\b.*2026-02-30/);
    expect(digest()).toBe(before);
  });

  it('when the file is empty, then 400 INVALID_STATEMENT_FILE', async () => {
    const bank = await account('Empty upload', 'ASSET');
    const res = await importRaw(`account_id=${bank}`, new Uint8Array());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATEMENT_FILE');
  });

  it('when a file over 20 MiB is sent raw or as multipart, then 413 PAYLOAD_TOO_LARGE and nothing is stored', async () => {
    const bank = await account('Huge upload', 'ASSET');
    const before = digest();
    const huge = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x41);
    const raw = await importRaw(`account_id=${bank}`, huge, token, 'text/csv');
    expect(raw.status).toBe(413);
    expect(raw.body.code).toBe('PAYLOAD_TOO_LARGE');
    const multipart = await importMultipart(`account_id=${bank}`, huge);
    expect(multipart.status).toBe(413);
    expect(multipart.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(digest()).toBe(before);
    // without a token the upload is refused before its body is read: 401, not 413
    const anonymous = await api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: huge,
      headers: { 'content-type': 'text/csv' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Not authenticated' });
    // just under the limit is not refused for its size
    const fits = await importRaw(
      `account_id=${bank}`,
      new Uint8Array(20 * 1024 * 1024 - 1024).fill(0x41),
      token,
      'text/csv',
    );
    expect(fits.status).toBe(400);
    expect(fits.body.code).toBe('INVALID_STATEMENT_FILE');
  });

  it('when dry_run=true, then 200 answers a preview with duplicates flagged and nothing is stored', async () => {
    const bank = await account('Dry run', 'ASSET', 'USD');
    const stored = await importRaw(`account_id=${bank}`, fixture('ofx1_ofxparse_checking_usd.ofx'));
    expect(stored.status).toBe(201);
    const before = digest();
    const preview = await importRaw(`account_id=${bank}&dry_run=true`, fixture('ofx2_asgrim_savings_usd.ofx'));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      format: 'ofx',
      transaction_count: 3,
      duplicate_count: 0,
      start_date: '2007-03-15',
      end_date: '2007-07-09',
      csv_mapping: null,
    });
    expect(preview.body.transactions[0]).toEqual({
      date: '2007-03-15',
      description: 'automatic deposit',
      amount: '200.00',
      type: 'credit',
      external_id: '980315001',
      duplicate: false,
      rule_id: null,
    });
    expect(preview.body.id).toBeUndefined();
    const dupes = await importMultipart(`account_id=${bank}`, fixture('ofx1_ofxparse_checking_usd.ofx'), {
      dry_run: 'true',
    });
    expect(dupes.status).toBe(200);
    expect(dupes.body).toMatchObject({ transaction_count: 3, duplicate_count: 3 });
    expect(dupes.body.transactions.map((x: { duplicate: boolean }) => x.duplicate)).toEqual([true, true, true]);
    expect(digest()).toBe(before);
  });

  it('when a CSV preview is asked for, then it shows the guessed mapping and the columns, and remembers nothing', async () => {
    const bank = await account('CSV preview', 'ASSET', 'GBP');
    const before = digest();
    const preview = await importRaw(
      `account_id=${bank}&dry_run=true`,
      fixture('csv_lloyds_uk_debit_credit_ddmmyyyy.csv'),
      token,
      'text/csv',
    );
    expect(preview.status).toBe(200);
    expect(preview.body.csv_columns).toEqual([
      'Transaction Date',
      'Transaction Type',
      'Sort Code',
      'Account Number',
      'Transaction Description',
      'Debit Amount',
      'Credit Amount',
      'Balance',
      '',
    ]);
    expect(preview.body.csv_mapping).toMatchObject({ date_column: 'Transaction Date' });
    expect(digest()).toBe(before);
  });

  describe('CSV mappings', () => {
    // Unknown header words, and amounts the guesser cannot tell from other numbers (1500, 12).
    const odd1 = 'When|Payee text|Sum\n2026-02-01|Corner bakery|-4.20\n2026-02-03|Salary ACME|1500\n';
    const odd2 =
      'When|Payee text|Sum\n2026-03-01|Corner bakery|-5.10\n2026-03-02|Bus pass|-30.00\n2026-03-03|Refund shop|12\n';
    const mapping = {
      delimiter: '|',
      header_row: 0,
      date_column: 'When',
      date_format: 'YYYY-MM-DD',
      description_columns: ['Payee text'],
      amount_column: 'Sum',
    };

    it('when the guesser cannot read a CSV, then a mapping given once is used and remembered for that account only', async () => {
      const bank = await account('Odd CSV bank', 'ASSET');
      const otherBank = await account('Odd CSV other bank', 'ASSET');
      const before = digest();
      const unguessable = await importRaw(`account_id=${bank}`, odd1, token, 'text/csv');
      expect(unguessable.status).toBe(400);
      expect(unguessable.body.code).toBe('INVALID_STATEMENT_FILE');
      expect(unguessable.body.detail).toMatch(/mapping/);
      expect(digest()).toBe(before);

      const mapped = await importRaw(
        `account_id=${bank}&mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
        odd1,
        token,
        'text/csv',
      );
      expect(mapped.status).toBe(201);
      expect(mapped.body).toMatchObject({
        source: 'csv',
        imported_count: 2,
        csv_mapping: { ...mapping, debit_column: null, credit_column: null },
      });
      expect((await allTransactions(mapped.body.id)).map(pick)).toEqual([
        { date: '2026-02-01', description: 'Corner bakery', amount: '4.20', type: 'debit' },
        { date: '2026-02-03', description: 'Salary ACME', amount: '1500.00', type: 'credit' },
      ]);

      const remembered = await importRaw(`account_id=${bank}`, odd2, token, 'text/csv');
      expect(remembered.status).toBe(201);
      expect(remembered.body).toMatchObject({
        imported_count: 3,
        csv_mapping: { date_column: 'When', amount_column: 'Sum' },
      });
      expect((await allTransactions(remembered.body.id)).map(pick)).toEqual([
        { date: '2026-03-01', description: 'Corner bakery', amount: '5.10', type: 'debit' },
        { date: '2026-03-02', description: 'Bus pass', amount: '30.00', type: 'debit' },
        { date: '2026-03-03', description: 'Refund shop', amount: '12.00', type: 'credit' },
      ]);

      // another account has not learnt it
      const elsewhere = await importRaw(`account_id=${otherBank}`, odd2, token, 'text/csv');
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.code).toBe('INVALID_STATEMENT_FILE');
    });

    it('when the mapping comes as a multipart field, then it is used and remembered too', async () => {
      const bank = await account('Odd CSV multipart', 'ASSET');
      const mapped = await importMultipart(
        `account_id=${bank}`,
        new TextEncoder().encode(odd1),
        { mapping: JSON.stringify(mapping) },
        'odd.csv',
      );
      expect(mapped.status).toBe(201);
      expect(mapped.body.imported_count).toBe(2);
      const remembered = await importMultipart(`account_id=${bank}`, new TextEncoder().encode(odd2), {}, 'odd2.csv');
      expect(remembered.status).toBe(201);
      expect(remembered.body.imported_count).toBe(3);
    });

    it('when the mapping is not JSON or not a mapping, then 400 VALIDATION_ERROR names it and nothing is stored', async () => {
      const bank = await account('Odd CSV bad mapping', 'ASSET');
      const before = digest();
      const notJson = await importRaw(
        `account_id=${bank}&mapping=${encodeURIComponent('{delimiter:')}`,
        odd1,
        token,
        'text/csv',
      );
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'mapping' }] });
      const both = await importRaw(
        `account_id=${bank}&mapping=${encodeURIComponent(JSON.stringify({ ...mapping, debit_column: 'Sum', credit_column: 'Sum' }))}`,
        odd1,
        token,
        'text/csv',
      );
      expect(both.status).toBe(400);
      expect(both.body.code).toBe('VALIDATION_ERROR');
      expect(both.body.errors[0].field).toMatch(/^mapping\./);
      expect(digest()).toBe(before);
    });
  });

  it('when the file is in another currency than the account, then 400 CURRENCY_MISMATCH and nothing is stored', async () => {
    const euros = await account('Euro account', 'ASSET', 'EUR');
    const before = digest();
    const res = await importRaw(`account_id=${euros}`, fixture('ofx1_ofxparse_checking_usd.ofx'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CURRENCY_MISMATCH');
    expect(res.body.detail).toMatch(/USD/);
    expect(res.body.detail).toMatch(/EUR/);
    expect(digest()).toBe(before);
  });

  it('when the import account is not a bank account, missing, or absent, then it is refused', async () => {
    const income = await account('Import income', 'INCOME');
    const before = digest();
    expect((await importRaw(`account_id=${income}`, fixture('ofx2_asgrim_savings_usd.ofx'))).body.code).toBe(
      'INVALID_ACCOUNT',
    );
    expect(
      (await importRaw(`account_id=${crypto.randomUUID()}`, fixture('ofx2_asgrim_savings_usd.ofx'))).body.code,
    ).toBe('INVALID_ACCOUNT');
    const absent = await importRaw('', fixture('ofx2_asgrim_savings_usd.ofx'));
    expect(absent.status).toBe(400);
    expect(absent.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'account_id' }] });
    expect(digest()).toBe(before);
  });

  it('when the same file is imported again, then nothing is imported and every row is a duplicate', async () => {
    for (const [file, currency, n] of [
      ['ofx1_ofxparse_checking_usd.ofx', 'USD', 3],
      ['csv_lloyds_uk_debit_credit_ddmmyyyy.csv', 'GBP', 12],
      ['qif_quiffen_mixed_sections.qif', 'USD', 5],
    ] as const) {
      const bank = await account(`Reimport ${file}`, 'ASSET', currency);
      expect((await importRaw(`account_id=${bank}`, fixture(file))).body.imported_count).toBe(n);
      const again = await importRaw(`account_id=${bank}`, fixture(file));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: null, imported_count: 0, duplicate_count: n });
      expect(count('statements', 'account_id = ?', bank)).toBe(1);
      expect(count('bank_transactions', 'account_id = ?', bank)).toBe(n);
    }
  });
});

describe('reading and deleting statements', () => {
  let bank: string;
  let ids: string[];

  beforeAll(async () => {
    bank = await account('Listing bank', 'ASSET');
    ids = [];
    for (let i = 1; i <= 3; i++) {
      const res = await createStatement({
        account_id: bank,
        name: `Listing ${i}`,
        transactions: Array.from({ length: 5 }, (_, k) => ({
          date: `2026-0${i}-1${k}`,
          description: `Row ${i}.${k}`,
          amount: `${i}${k}.00`,
          type: 'debit',
        })),
      });
      ids.push(res.body.id);
    }
  });

  it('when statements are listed, then they come newest first, paginated with the true total, and filter by account', async () => {
    const page1 = await api.get(`/api/statements?account_id=${bank}&per_page=2`, token);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(page1.body.items.map((s: { name: string }) => s.name)).toEqual(['Listing 3', 'Listing 2']);
    const page2 = await api.get(`/api/statements?account_id=${bank}&per_page=2&page=2`, token);
    expect(page2.body.items.map((s: { name: string }) => s.name)).toEqual(['Listing 1']);
    const past = await api.get(`/api/statements?account_id=${bank}&per_page=2&page=3`, token);
    expect(past.body).toMatchObject({ items: [], total: 3 });
    const all = await api.get('/api/statements?per_page=100', token);
    expect(all.body.total).toBeGreaterThan(3);
    expect((await api.get('/api/statements?per_page=0', token)).body.code).toBe('VALIDATION_ERROR');
    expect((await api.get('/api/statements?per_page=101', token)).body.code).toBe('VALIDATION_ERROR');
  });

  it('when a statement’s transactions are paged, then the pages split them by date with the true total', async () => {
    const page1 = await api.get(`/api/statements/${ids[1]}/transactions?per_page=2`, token);
    expect(page1.body).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(page1.body.items.map((x: Txn) => x.description)).toEqual(['Row 2.0', 'Row 2.1']);
    const page3 = await api.get(`/api/statements/${ids[1]}/transactions?per_page=2&page=3`, token);
    expect(page3.body.items.map((x: Txn) => x.description)).toEqual(['Row 2.4']);
  });

  it('when an unknown or malformed statement id is asked for, then 404 NOT_FOUND', async () => {
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      expect((await api.get(`/api/statements/${id}`, token)).status).toBe(404);
      expect((await api.get(`/api/statements/${id}/transactions`, token)).body.code).toBe('NOT_FOUND');
      expect((await api.delete(`/api/statements/${id}`, token)).status).toBe(404);
    }
  });

  it('when a statement is deleted, then 204, it and its transactions are gone, and its rows can be imported again', async () => {
    const res = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-07-01', description: 'Deleted soon', amount: '7.00', type: 'debit' }],
    });
    const del = await api.delete(`/api/statements/${res.body.id}`, token);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await api.get(`/api/statements/${res.body.id}`, token)).status).toBe(404);
    expect(count('bank_transactions', 'statement_id = ?', res.body.id)).toBe(0);
    const again = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-07-01', description: 'Deleted soon', amount: '7.00', type: 'debit' }],
    });
    expect(again.body.imported_count).toBe(1);
  });

  it('when a transaction is reconciled, then its status shows it and the statement cannot be deleted (409 HAS_RECONCILED)', async () => {
    const food = await account('Listing food', 'EXPENSE');
    const res = await createStatement({
      account_id: bank,
      transactions: [
        { date: '2026-08-01', description: 'Reconciled lunch', amount: '11.00', type: 'debit' },
        { date: '2026-08-02', description: 'Auto matched dinner', amount: '23.00', type: 'debit' },
      ],
    });
    const [lunch, dinner] = await allTransactions(res.body.id);
    const created = await api.post(
      `/api/reconciliation/unmatched/${lunch!.id}/create-entry`,
      { account_id: food },
      token,
    );
    expect(created.status).toBe(201);
    const entry = await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-08-02',
        memo: 'Auto matched dinner',
        auto_post: true,
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '23.00' },
          { account_id: bank, direction: 'CREDIT', amount: '23.00' },
        ],
      },
      token,
    );
    expect(entry.status).toBe(201);
    const run = await api.post('/api/reconciliation/run', { statement_id: res.body.id }, token);
    expect(run.body.summary).toMatchObject({ total_transactions: 1, auto_accepted: 1 });
    const txns = await allTransactions(res.body.id);
    expect(txns.map((x) => [x.description, x.reconciliation_status, x.match_id])).toEqual([
      ['Reconciled lunch', 'accepted', created.body.match.id],
      ['Auto matched dinner', 'auto_accepted', expect.any(String)],
    ]);
    expect(dinner!.id).toBe(txns[1]!.id);

    const before = digest();
    const del = await api.delete(`/api/statements/${res.body.id}`, token);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('HAS_RECONCILED');
    expect(digest()).toBe(before);
  });

  it('when a statement only has a match under review, then it can be deleted and the match goes with it', async () => {
    const food = await account('Review food', 'EXPENSE');
    const res = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-09-10', description: 'Hardware store', amount: '64.00', type: 'debit' }],
    });
    await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-09-13',
        memo: 'Shelves',
        auto_post: true,
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '64.00' },
          { account_id: bank, direction: 'CREDIT', amount: '64.00' },
        ],
      },
      token,
    );
    const run = await api.post('/api/reconciliation/run', { statement_id: res.body.id }, token);
    expect(run.body.summary).toMatchObject({ total_transactions: 1, pending_review: 1 });
    const [txn] = await allTransactions(res.body.id);
    expect(txn!.reconciliation_status).toBe('pending_review');
    expect((await api.delete(`/api/statements/${res.body.id}`, token)).status).toBe(204);
    expect(count('reconciliation_matches', 'id = ?', txn!.match_id)).toBe(0);
  });
});

describe('user isolation', () => {
  it('when another user asks for a statement, then 404, and it cannot use the first user’s account', async () => {
    const bank = await account('Isolated bank', 'ASSET');
    const mine = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-03-01', description: 'Private', amount: '1.00', type: 'debit' }],
    });
    const other = await registerUser(api, 'Other');
    expect((await api.get(`/api/statements/${mine.body.id}`, other.token)).status).toBe(404);
    expect((await api.get(`/api/statements/${mine.body.id}/transactions`, other.token)).body.code).toBe('NOT_FOUND');
    expect((await api.delete(`/api/statements/${mine.body.id}`, other.token)).status).toBe(404);
    expect((await api.get(`/api/statements/${mine.body.id}`, token)).status).toBe(200);
    expect((await api.get('/api/statements', other.token)).body).toMatchObject({ items: [], total: 0 });

    const steal = await createStatement({ account_id: bank, transactions: [] }, other.token);
    expect(steal.status).toBe(400);
    expect(steal.body.code).toBe('INVALID_ACCOUNT');
    const stealFile = await importRaw(`account_id=${bank}`, fixture('ofx2_asgrim_savings_usd.ofx'), other.token);
    expect(stealFile.status).toBe(400);
    expect(stealFile.body.code).toBe('INVALID_ACCOUNT');
  });

  it('when there is no token, then 401 Not authenticated', async () => {
    const res = await api.get('/api/statements');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Not authenticated' });
    const upload = await importRaw(`account_id=${crypto.randomUUID()}`, fixture('ofx2_asgrim_savings_usd.ofx'), '');
    expect(upload.status).toBe(401);
  });
});
