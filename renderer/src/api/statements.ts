import type { STATEMENT_ENCODINGS } from '../../../server/contract/statements.ts';
import { answer, api, fileBody, type Page, type Query, type Schemas } from './client.ts';

export type StatementDto = Schemas['Statement'];
export type BankTransactionDto = Schemas['BankTransaction'];
export type CsvMapping = Schemas['CsvMapping'];
export type ImportPreview = Schemas['StatementImportPreview'];
export type ImportResult = Schemas['StatementImportResult'];
export type CsvColumn = CsvMapping['date_column'];
/** An encoding the import offers (the preview may answer another that it detected). */
export type StatementEncoding = (typeof STATEMENT_ENCODINGS)[number];

export interface ImportOptions {
  accountId: string;
  file: Blob;
  /** The CSV column mapping to use instead of the guessed (or remembered) one. */
  mapping?: CsvMapping | undefined;
  name?: string | undefined;
  /** Read the file in this encoding instead of detecting it. */
  encoding?: string | undefined;
  /** For a file of several accounts: per account in it, the account to import it into, or null to skip it. */
  accountIds?: (string | null)[] | undefined;
}

function importQuery(options: ImportOptions, dryRun: boolean): Query<'/api/statements/import', 'post'> {
  return {
    account_id: options.accountId,
    name: options.name?.trim() || undefined,
    mapping: options.mapping ? JSON.stringify(options.mapping) : undefined,
    encoding: options.encoding,
    account_ids: options.accountIds ? JSON.stringify(options.accountIds) : undefined,
    dry_run: dryRun ? true : undefined,
  };
}

function postImport(options: ImportOptions, dryRun: boolean) {
  return answer(
    api.POST('/api/statements/import', {
      params: { query: importQuery(options, dryRun) },
      ...fileBody(options.file),
    }),
  );
}

/** What an import would store, without storing it (and, for CSV, the guessed column mapping). */
export async function previewImport(options: ImportOptions): Promise<ImportPreview> {
  return (await postImport(options, true)) as ImportPreview; // dry_run answers the preview
}

export async function importStatement(options: ImportOptions): Promise<ImportResult> {
  return (await postImport(options, false)) as ImportResult;
}

export function listStatements(page: number, perPage = 20, accountId?: string): Promise<Page<StatementDto>> {
  return answer(api.GET('/api/statements', { params: { query: { page, per_page: perPage, account_id: accountId } } }));
}

/** Sets a statement's closing balance by hand (signed as the account's balance), or clears it with null. */
export function setStatementBalance(
  id: string,
  closingBalance: string | null,
  closingDate?: string,
): Promise<StatementDto> {
  return answer(
    api.PATCH('/api/statements/{id}', {
      params: { path: { id } },
      body: closingDate
        ? { closing_balance: closingBalance, closing_date: closingDate }
        : { closing_balance: closingBalance },
    }),
  );
}

export function statementTransactions(id: string, page: number, perPage = 50): Promise<Page<BankTransactionDto>> {
  return answer(
    api.GET('/api/statements/{id}/transactions', {
      params: { path: { id }, query: { page, per_page: perPage } },
    }),
  );
}

export async function deleteStatement(id: string): Promise<void> {
  await api.DELETE('/api/statements/{id}', { params: { path: { id } } });
}
