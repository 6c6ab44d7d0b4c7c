import { parseBeancount } from './beancount-parse.ts';
import { parseLedgerJournal } from './ledger-parse.ts';
import type { JournalFormat, ParsedJournal } from './types.ts';

export * from './types.ts';
export { JOURNAL_ERRORS, atLine, journalError } from './errors.ts';
export { accountPaths, nameCandidates, rawSegment, typeOfRoot, ROOT_OF_TYPE, MAX_ACCOUNT_NAME } from './names.ts';
export { SYMBOL_CURRENCIES } from './amounts.ts';
export { resolvePostings } from './resolve.ts';
export { writeLedgerJournal, writeLedgerJournalLines } from './ledger-write.ts';
export { writeBeancount, writeBeancountLines } from './beancount-write.ts';
export { writeCsv, writeCsvRows } from './csv-write.ts';

/** Reads a journal of the given format (text, already decoded). */
export function parseJournal(text: string, format: JournalFormat): ParsedJournal {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return format === 'beancount' ? parseBeancount(source) : parseLedgerJournal(source, format);
}
