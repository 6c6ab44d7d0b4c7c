import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * Bank files as banks write them (issue 36), through the real import route: OFX without a header
 * and with late end tags, a file with no transaction, CSVs with extra cells, notes between header
 * and rows, no header or a legacy encoding, and files holding several accounts.
 */
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/statements/', import.meta.url));
const fixture = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

let t: TestServer;
let api: Api;
let token: string;
let userId: string;

async function account(name: string, type: 'ASSET' | 'LIABILITY', currency = 'USD'): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, currency }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}

const digest = (): string => databaseDigest(ledgerFile(t.dataDir, userId));

function importFile(query: string, bytes: Uint8Array): Promise<ApiResponse> {
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: bytes,
    token,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

async function importMultipart(query: string, bytes: Uint8Array<ArrayBuffer>, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), 'statement.csv');
  const encoded = new Response(form);
  return api.request('POST', `/api/statements/import?${query}`, {
    rawBody: new Uint8Array(await encoded.arrayBuffer()),
    token,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
}

async function rows(statementId: string) {
  const res = await api.get(`/api/statements/${statementId}/transactions?per_page=100`, token);
  expect(res.status).toBe(200);
  return (res.body.items as { date: string; description: string; amount: string; type: string }[]).map((r) => [
    r.date,
    r.description,
    r.amount,
    r.type,
  ]);
}

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token, id: userId } = await registerUser(api));
});
afterAll(() => t.stop());

describe('OFX as banks write it', () => {
  it('when a card file has no header and closes </CCACCTFROM> after its list, then its three transactions and balance are stored', async () => {
    const card = await account('Card without header', 'LIABILITY');
    const res = await importFile(`account_id=${card}`, fixture('ofx1_own_card_no_header_late_close.ofx'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported_count: 3, duplicate_count: 0, closing_balance: '308.16' });
    expect(await rows(res.body.id)).toEqual([
      ['2024-01-03', 'WHOLEFDS MKT #10234', '42.17', 'debit'],
      ['2024-01-12', 'NETFLIX.COM - 866-579-7172 CA', '15.99', 'debit'],
      ['2024-01-25', 'PAYMENT - THANK YOU', '250.00', 'credit'],
    ]);
  });

  it('when a file holds a statement but no transaction, then 400 NO_TRANSACTIONS says what it holds and nothing is stored, and the preview shows it', async () => {
    const bank = await account('Empty statement', 'ASSET', 'EUR');
    const before = digest();
    const res = await importFile(`account_id=${bank}`, fixture('ofx1_own_empty_statement_crlf.ofx'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('NO_TRANSACTIONS');
    expect(res.body.detail).toBe(
      'The file holds no <STMTTRN> transaction: its statement (no account number, EUR) has none. Nothing was stored.',
    );
    expect(digest()).toBe(before);

    const preview = await importFile(`account_id=${bank}&dry_run=true`, fixture('ofx1_own_empty_statement_crlf.ofx'));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ transaction_count: 0, duplicate_count: 0 });
    expect(preview.body.accounts).toEqual([
      {
        account_ref: null,
        currency: 'EUR',
        transaction_count: 0,
        start_date: '2025-09-02',
        end_date: '2025-10-04',
        closing_balance: null,
        closing_date: null,
        account_id: bank,
        duplicate_count: 0,
      },
    ]);
  });
});

describe('CSV as banks write it', () => {
  it('when rows carry cells beyond the header, then the preview and the import list them and the mapped columns are stored', async () => {
    const bank = await account('Raiffeisen extra cells', 'ASSET', 'EUR');
    const file = fixture('csv_own_at_text_over_extra_cells.csv');
    const preview = await importFile(`account_id=${bank}&dry_run=true`, file);
    expect(preview.status).toBe(200);
    expect(preview.body.ignored_cells).toEqual([{ line: 2, cells: ['Vertrag 4711', 'Kundennr. 0815'] }]);
    const res = await importFile(`account_id=${bank}`, file);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported_count: 3, skipped: [] });
    expect(res.body.ignored_cells).toEqual([{ line: 2, cells: ['Vertrag 4711', 'Kundennr. 0815'] }]);
  });

  it('when notes and a balance line sit around the rows, then the preview lists them as skipped with their lines and the rows are stored', async () => {
    const bank = await account('Notes between rows', 'ASSET', 'EUR');
    const file = fixture('csv_own_de_notes_between_header_and_rows.csv');
    const preview = await importFile(`account_id=${bank}&dry_run=true`, file);
    expect(preview.status).toBe(200);
    expect(preview.body.transaction_count).toBe(3);
    expect(preview.body.skipped.map((s: { line: number }) => s.line)).toEqual([2, 3, 8]);
    const res = await importFile(`account_id=${bank}`, file);
    expect(res.status).toBe(201);
    expect(res.body.imported_count).toBe(3);
    expect(res.body.skipped.map((s: { line: number }) => s.line)).toEqual([2, 3, 8]);
  });

  it('when a CSV has no header line, then the preview maps columns by position with has_header false and the import stores them', async () => {
    const bank = await account('Easybank headerless', 'ASSET', 'EUR');
    const file = fixture('csv_own_at_headerless_cp1252.csv');
    const preview = await importFile(`account_id=${bank}&dry_run=true`, file);
    expect(preview.status).toBe(200);
    expect(preview.body.csv_mapping).toMatchObject({ has_header: false, date_column: 2, amount_column: 4 });
    expect(preview.body.csv_columns).toBeNull();
    expect(preview.body.csv_first_row[2]).toBe('01.02.2024');
    const res = await importFile(
      `account_id=${bank}&mapping=${encodeURIComponent(JSON.stringify(preview.body.csv_mapping))}`,
      file,
    );
    expect(res.status).toBe(201);
    expect((await rows(res.body.id))[2]).toEqual([
      '2024-02-28',
      'Gutschrift Gehalt Firma Huber & Söhne GmbH',
      '2345.00',
      'credit',
    ]);
  });

  it('when a mapping names a position in a file with a header, then "the first row is data" reads the header line as skipped', async () => {
    const bank = await account('First row is data', 'ASSET', 'EUR');
    const mapping = {
      delimiter: ';',
      header_row: 0,
      has_header: false,
      date_column: 0,
      date_format: 'DD.MM.YYYY',
      description_columns: [4],
      amount_column: 2,
      decimal_mark: ',',
    };
    const res = await importFile(
      `account_id=${bank}&dry_run=true&mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
      fixture('csv_own_at_text_over_extra_cells.csv'),
    );
    expect(res.status).toBe(200);
    expect(res.body.transaction_count).toBe(3);
    expect(res.body.skipped).toEqual([
      { line: 1, reason: expect.stringMatching(/^not a transaction: no date in column 1: "Buchungsdatum;/) },
    ]);
  });
});

describe('legacy encodings', () => {
  it('when a short EUC-JP file is previewed, then it is detected; read as windows-1252 by choice its Japanese header is not recognised; the import keeps the encoding given', async () => {
    const bank = await account('Japanese bank', 'ASSET', 'JPY');
    const file = fixture('csv_own_jp_eucjp_withdrawal_deposit.csv');
    const detected = await importFile(`account_id=${bank}&dry_run=true`, file);
    expect(detected.status).toBe(200);
    expect(detected.body.encoding).toBe('euc-jp');
    expect(detected.body.transactions[0]).toMatchObject({ description: '東京スーパー', amount: '1280', type: 'debit' });

    const chosen = await importMultipart(`account_id=${bank}`, file, { encoding: 'windows-1252', dry_run: 'true' });
    expect(chosen.status).toBe(400);
    // the header itself is mojibake then: no column is recognised
    expect(chosen.body.code).toBe('INVALID_STATEMENT_FILE');

    const res = await importFile(`account_id=${bank}&encoding=euc-jp`, file);
    expect(res.status).toBe(201);
    expect((await rows(res.body.id)).map((r) => r[1])).toEqual([
      '東京スーパー',
      'デンキ ゴウキン',
      '給与 カ）ヤマダショウジ',
    ]);
  });

  it('when a short EUC-KR or GB18030 file is previewed with its encoding chosen, then it reads as chosen', async () => {
    const won = await account('Korean bank', 'ASSET', 'KRW');
    const korean = await importFile(
      `account_id=${won}&dry_run=true&encoding=euc-kr`,
      fixture('csv_own_kr_euckr_short.csv'),
    );
    expect(korean.body).toMatchObject({ encoding: 'euc-kr', transaction_count: 3 });
    expect(korean.body.transactions[0].description).toBe('이마트 성수점');
    const yuan = await account('Chinese bank', 'ASSET', 'CNY');
    const chinese = await importFile(`account_id=${yuan}&dry_run=true`, fixture('csv_own_cn_gb18030_short.csv'));
    expect(chinese.body).toMatchObject({ encoding: 'gb18030', transaction_count: 2 });
    expect(chinese.body.transactions[1].description).toBe('上海星辰科技有限公司 工资');
  });

  it('when the encoding is not one the server can read, then 400 VALIDATION_ERROR names it, as query or multipart field', async () => {
    const bank = await account('Bad encoding', 'ASSET', 'JPY');
    const file = fixture('csv_own_jp_eucjp_withdrawal_deposit.csv');
    const query = await importFile(`account_id=${bank}&encoding=klingon-8`, file);
    expect(query.status).toBe(400);
    expect(query.body.code).toBe('VALIDATION_ERROR');
    expect(query.body.errors[0].field).toBe('encoding');
    const field = await importMultipart(`account_id=${bank}`, file, { encoding: 'klingon-8' });
    expect(field.status).toBe(400);
    expect(field.body.errors[0].field).toBe('encoding');
  });
});

describe('one file, several accounts', () => {
  it('when a QBO holds checking, savings and a card, then the preview shows each; without account_ids nothing is stored; with them each becomes its own statement', async () => {
    const checking = await account('QBO checking', 'ASSET');
    const card = await account('QBO card', 'LIABILITY');
    const file = fixture('qbo_own_checking_savings_card.qbo');

    const preview = await importFile(`account_id=${checking}&dry_run=true`, file);
    expect(preview.status).toBe(200);
    expect(
      preview.body.accounts.map((a: Record<string, unknown>) => [
        a.account_ref,
        a.currency,
        a.transaction_count,
        a.closing_balance,
        a.account_id,
      ]),
    ).toEqual([
      ['000123456789', 'USD', 3, '4215.37', checking],
      ['000987656789', 'USD', 2, '12503.12', null],
      ['4111111111111111', 'USD', 4, '-612.44', null],
    ]);
    // the counts are those of the accounts chosen
    expect(preview.body.transaction_count).toBe(3);

    const before = digest();
    const refused = await importFile(`account_id=${checking}`, file);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.errors[0].field).toBe('account_ids');
    expect(refused.body.detail).toMatch(/3 accounts with transactions \(000123456789 \(USD\), /);
    const wrongLength = await importFile(`account_id=${checking}&account_ids=${encodeURIComponent('[null]')}`, file);
    expect(wrongLength.status).toBe(400);
    expect(wrongLength.body.detail).toBe(
      'Invalid account_ids: the file holds 3 accounts: give one entry for each (an account id, or null to skip it)',
    );
    expect(digest()).toBe(before);

    const ids = encodeURIComponent(JSON.stringify([checking, null, card]));
    const chosen = await importFile(`account_id=${checking}&dry_run=true&account_ids=${ids}`, file);
    expect(chosen.body.transaction_count).toBe(7);
    expect(chosen.body.accounts.map((a: { account_id: string | null }) => a.account_id)).toEqual([
      checking,
      null,
      card,
    ]);

    const res = await importFile(`account_id=${checking}&account_ids=${ids}`, file);
    expect(res.status).toBe(201);
    expect(res.body.accounts).toEqual([
      expect.objectContaining({ account_ref: '000123456789', account_id: checking, imported_count: 3 }),
      {
        account_ref: '000987656789',
        currency: 'USD',
        account_id: null,
        statement_id: null,
        imported_count: 0,
        duplicate_count: 0,
      },
      expect.objectContaining({ account_ref: '4111111111111111', account_id: card, imported_count: 4 }),
    ]);
    const [first, , third] = res.body.accounts as { statement_id: string }[];
    const stmtCard = await api.get(`/api/statements/${third!.statement_id}`, token);
    expect(stmtCard.body).toMatchObject({ account_id: card, imported_count: 4, closing_balance: '612.44' });
    const stmtChecking = await api.get(`/api/statements/${first!.statement_id}`, token);
    expect(stmtChecking.body).toMatchObject({ account_id: checking, imported_count: 3, closing_balance: '4215.37' });
    expect(await rows(third!.statement_id)).toContainEqual(['2024-05-25', 'PAYMENT - THANK YOU', '250.00', 'credit']);

    const again = await importFile(`account_id=${checking}&account_ids=${ids}`, file);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: null, imported_count: 0, duplicate_count: 3 });
  });

  it('when a camt file holds a EUR and a CHF account, then each goes to the account of its currency; another currency is refused naming the file account', async () => {
    const euro = await account('camt EUR', 'ASSET', 'EUR');
    const franc = await account('camt CHF', 'ASSET', 'CHF');
    const file = fixture('camt053_own_two_accounts_eur_chf.xml');
    const preview = await importFile(`account_id=${franc}&dry_run=true`, file);
    // the suggestion is the first account in the chosen account's currency
    expect(preview.body.accounts.map((a: { account_id: string | null }) => a.account_id)).toEqual([null, franc]);

    const mismatch = await importFile(
      `account_id=${euro}&account_ids=${encodeURIComponent(JSON.stringify([euro, euro]))}`,
      file,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({
      code: 'CURRENCY_MISMATCH',
      detail: "The file's account CH5604835012345678009 is in CHF, the account camt EUR in EUR",
    });

    const res = await importFile(
      `account_id=${euro}&account_ids=${encodeURIComponent(JSON.stringify([euro, franc]))}`,
      file,
    );
    expect(res.status).toBe(201);
    expect(
      res.body.accounts.map((a: { account_id: string; imported_count: number }) => [a.account_id, a.imported_count]),
    ).toEqual([
      [euro, 1],
      [franc, 2],
    ]);
  });

  it('when every account is skipped, or an id is not a bank account, then 400 and nothing is stored', async () => {
    const checking = await account('QBO skip all', 'ASSET');
    const file = fixture('qbo_own_checking_savings_card.qbo');
    const expense = await api.post('/api/accounts', { name: 'Groceries', type: 'EXPENSE', currency: 'USD' }, token);
    const before = digest();
    const none = await importFile(`account_id=${checking}&account_ids=${encodeURIComponent('[null,null,null]')}`, file);
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('NO_TRANSACTIONS');
    const wrong = await importFile(
      `account_id=${checking}&account_ids=${encodeURIComponent(JSON.stringify([checking, expense.body.id, null]))}`,
      file,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_ACCOUNT', errors: [{ field: 'account_ids.1' }] });
    const notJson = await importFile(`account_id=${checking}&account_ids=${encodeURIComponent('[nope')}`, file);
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0].field).toBe('account_ids');
    expect(digest()).toBe(before);
  });
});
