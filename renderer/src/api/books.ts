import type { ExportFormat, ImportJournalResult, JournalFormat } from '../../../server/contract/export.ts';
import { json, send } from './http.ts';

export type { ExportFormat, ImportJournalResult, JournalFormat };

/** The formats, in the order the settings screen offers them (the server's EXPORT_FORMATS). */
export const EXPORT_FORMAT_LIST = ['ledger', 'hledger', 'beancount', 'csv'] as const satisfies readonly ExportFormat[];
export const JOURNAL_FORMAT_LIST = ['ledger', 'hledger', 'beancount'] as const satisfies readonly JournalFormat[];

export interface ExportRange {
  as_of?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** An exported file: its text and the name the server gave it (Content-Disposition). */
export interface ExportedFile {
  fileName: string;
  contentType: string;
  text: string;
}

function fileNameOf(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1] ?? fallback;
}

export async function exportBooks(format: ExportFormat, range: ExportRange = {}): Promise<ExportedFile> {
  const response = await send('GET', '/api/export', { query: { format, ...range } });
  const contentType = response.headers.get('Content-Type') ?? 'text/plain; charset=utf-8';
  const fallback = `personal-ledger.${format === 'csv' ? 'csv' : format === 'beancount' ? 'beancount' : 'journal'}`;
  return {
    fileName: fileNameOf(response.headers.get('Content-Disposition'), fallback),
    contentType,
    text: await response.text(),
  };
}

/** Imports a ledger, hledger or beancount journal, all or nothing (a refusal's detail names the line). */
export function importJournal(format: JournalFormat, file: Blob): Promise<ImportJournalResult> {
  return json('POST', '/api/import/journal', { query: { format }, file });
}
