import { answer, api, fileBody, type Answer, type Query } from './client.ts';

export type ExportFormat = Query<'/api/export', 'get'>['format'];
export type JournalFormat = Query<'/api/import/journal', 'post'>['format'];
export type ImportJournalResult = Answer<'/api/import/journal', 'post'>;

/** The formats, in the order the settings screen offers them (the server's EXPORT_FORMATS). */
export const EXPORT_FORMAT_LIST = ['ledger', 'hledger', 'beancount', 'csv'] as const satisfies readonly ExportFormat[];
export const JOURNAL_FORMAT_LIST = ['ledger', 'hledger', 'beancount'] as const satisfies readonly JournalFormat[];

export type ExportRange = Omit<Query<'/api/export', 'get'>, 'format'>;

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
  const { data, response } = await api.GET('/api/export', {
    params: { query: { format, ...range } },
    parseAs: 'text',
  });
  const fallback = `personal-ledger.${format === 'csv' ? 'csv' : format === 'beancount' ? 'beancount' : 'journal'}`;
  return {
    fileName: fileNameOf(response.headers.get('Content-Disposition'), fallback),
    contentType: response.headers.get('Content-Type') ?? 'text/plain; charset=utf-8',
    text: data ?? '',
  };
}

/** Imports a ledger, hledger or beancount journal, all or nothing (a refusal's detail names the line). */
export function importJournal(format: JournalFormat, file: Blob): Promise<ImportJournalResult> {
  return answer(api.POST('/api/import/journal', { params: { query: { format } }, ...fileBody(file) }));
}
