import type { z } from 'zod';
import type {
  BankTransactionDto,
  STATEMENT_ENCODINGS,
  StatementDto,
  csvMapping,
  importPreview,
  importResult,
} from '../../../server/contract/statements.ts';
import { json, type Page, type QueryValue } from './http.ts';

export type { BankTransactionDto, StatementDto };
export type CsvMapping = z.output<typeof csvMapping>;
export type ImportPreview = z.infer<typeof importPreview>;
export type ImportResult = z.infer<typeof importResult>;
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

function importQuery(options: ImportOptions, dryRun: boolean): Record<string, QueryValue> {
  return {
    account_id: options.accountId,
    name: options.name?.trim() || undefined,
    mapping: options.mapping ? JSON.stringify(options.mapping) : undefined,
    encoding: options.encoding,
    account_ids: options.accountIds ? JSON.stringify(options.accountIds) : undefined,
    dry_run: dryRun ? 'true' : undefined,
  };
}

/** What an import would store, without storing it (and, for CSV, the guessed column mapping). */
export function previewImport(options: ImportOptions): Promise<ImportPreview> {
  return json('POST', '/api/statements/import', { query: importQuery(options, true), file: options.file });
}

export function importStatement(options: ImportOptions): Promise<ImportResult> {
  return json('POST', '/api/statements/import', { query: importQuery(options, false), file: options.file });
}

export function listStatements(page: number, perPage = 20, accountId?: string): Promise<Page<StatementDto>> {
  return json('GET', '/api/statements', { query: { page, per_page: perPage, account_id: accountId } });
}

/** Sets a statement's closing balance by hand (signed as the account's balance), or clears it with null. */
export function setStatementBalance(
  id: string,
  closingBalance: string | null,
  closingDate?: string,
): Promise<StatementDto> {
  return json('PATCH', `/api/statements/${encodeURIComponent(id)}`, {
    json: closingDate
      ? { closing_balance: closingBalance, closing_date: closingDate }
      : { closing_balance: closingBalance },
  });
}

export function statementTransactions(id: string, page: number, perPage = 50): Promise<Page<BankTransactionDto>> {
  return json('GET', `/api/statements/${encodeURIComponent(id)}/transactions`, { query: { page, per_page: perPage } });
}

export function deleteStatement(id: string): Promise<void> {
  return json('DELETE', `/api/statements/${encodeURIComponent(id)}`);
}
