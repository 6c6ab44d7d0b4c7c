import { describe, expect, it } from 'vitest';
import {
  account,
  allTransactions,
  api,
  digest,
  fixture,
  importMultipart,
  importRaw,
  pick,
  token,
  useStatementsServer,
  type Txn,
} from '../../../test/support/statements-api.ts';

useStatementsServer();

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
});
