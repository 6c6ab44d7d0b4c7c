import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  account,
  allTransactions,
  count,
  digest,
  fixture,
  importMultipart,
  importRaw,
  pick,
  token,
  useStatementsServer,
} from '../../../test/support/statements-api.ts';

useStatementsServer();

describe('POST /api/statements/import (files)', () => {
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
