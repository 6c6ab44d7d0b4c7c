import type { LedgerDb } from '../../db/stores.ts';
import type { ExportQuery } from '../../contract/export.ts';
import {
  writeBeancountLines,
  writeCsvRows,
  writeLedgerJournalLines,
  type BookAccount,
  type BookEntry,
  type ExportFormat,
  type LineSink,
} from '../../domain/plaintext/index.ts';
import { formatRate } from '../../domain/rates.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { pricesUpTo } from '../prices/prices.queries.ts';
import { allSecurities, securityPricesUpTo } from '../investments/investments.queries.ts';
import { accountsInHistory, postedHistory, type DateFilter } from './export.repository.ts';
import { entryDocuments } from '../attachments/attachments.service.ts';
import { tradeUnits } from './export.units.ts';

const EXPORT_MEDIA: Readonly<Record<ExportFormat, { contentType: string; extension: string }>> = {
  ledger: { contentType: 'text/plain; charset=utf-8', extension: 'ledger' },
  hledger: { contentType: 'text/plain; charset=utf-8', extension: 'journal' },
  beancount: { contentType: 'text/plain; charset=utf-8', extension: 'beancount' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
};

export function toBookAccount(a: Account): BookAccount {
  return { id: a.id, name: a.name, type: a.type, currency: a.currency, parentId: a.parentId, isActive: a.isActive };
}

/** The download's name and type. */
export function exportMedia(query: ExportQuery): { fileName: string; contentType: string } {
  const media = EXPORT_MEDIA[query.format];
  const { to } = exportRange(query);
  return { contentType: media.contentType, fileName: `personal-ledger${to ? `-${to}` : ''}.${media.extension}` };
}

function exportRange(query: ExportQuery): DateFilter {
  const ends = [query.as_of, query.end_date].filter((d): d is string => d !== undefined).sort();
  return { from: query.start_date ?? null, to: ends[0] ?? null };
}

/** About this many characters of text per piece handed on (a few hundred KB of the download). */
const EXPORT_PIECE_CHARS = 256 * 1024;

/**
 * Lines joined by `separator` (and closed by `ending`), handed on in pieces of about `pieceChars`
 * characters as they fill, so that the whole text is never held at once.
 */
class PiecesOfText implements LineSink {
  private readonly separator: string;
  private readonly ending: string;
  private readonly write: (text: string) => void;
  private readonly pieceChars: number;
  private lines: string[] = [];
  private chars = 0;
  private started = false;

  constructor(separator: string, ending: string, write: (text: string) => void, pieceChars: number) {
    this.separator = separator;
    this.ending = ending;
    this.write = write;
    this.pieceChars = pieceChars;
  }

  push(line: string): void {
    this.lines.push(line);
    this.chars += line.length + this.separator.length;
    if (this.chars >= this.pieceChars) this.flush();
  }

  end(): void {
    this.flush();
    if (this.ending) this.write(this.ending);
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    this.write((this.started ? this.separator : '') + this.lines.join(this.separator));
    this.started = true;
    this.lines = [];
    this.chars = 0;
  }
}

/**
 * Writes the user's books as text (every account, and posted history, voids and reversals both, in
 * the date range), handing it to `write` piece by piece as it is made. One read snapshot: the
 * pieces are one consistent state of the ledger, whatever is written meanwhile.
 */
export function writeExport(
  db: LedgerDb,
  query: ExportQuery & { withDocuments?: boolean },
  write: (text: string) => void,
  pieceChars = EXPORT_PIECE_CHARS,
): void {
  const range = exportRange(query);
  const header = [
    `Personal Ledger export (${query.format})`,
    `entries: posted and voided entries with their reversals${range.from ? `, from ${range.from}` : ''}${range.to ? `, to ${range.to}` : ''}`,
  ];
  db.readSnapshot(() => {
    const accounts = allAccounts(db).map(toBookAccount);
    const used =
      query.format === 'ledger' || query.format === 'hledger' ? accountsInHistory(db, range) : new Set<string>();
    const prices = pricesUpTo(db, range.to).map((p) => ({
      date: p.date,
      from: p.from,
      to: p.to,
      rate: formatRate(p.rateScaled),
    }));
    // securities (docs/investments.md "Interop"): declared as commodities, their prices as price directives
    const commodities = allSecurities(db).map((s) => s.symbol);
    const securityPrices = securityPricesUpTo(db, range.to).map((p) => ({
      date: p.date,
      from: p.symbol,
      to: p.currency,
      rate: p.price,
    }));
    const allPrices = [...prices, ...securityPrices];
    const documents = query.withDocuments ? entryDocuments(db) : undefined;
    const history = documents ? withDocuments(postedHistory(db, range), documents) : postedHistory(db, range);
    // the journal formats write a trade's units at their lot's cost; CSV keeps the money lines
    const csv = query.format === 'csv';
    const units = csv ? null : tradeUnits(db, range);
    const entries = units ? units.withUnits(history) : history;
    const held = units?.held ?? new Map<string, string[]>();
    const out = new PiecesOfText(csv ? '\r\n' : '\n', csv ? '\r\n' : '', write, pieceChars);
    if (query.format === 'csv') writeCsvRows(out, accounts, entries);
    else if (query.format === 'beancount')
      writeBeancountLines(out, accounts, entries, header, allPrices, commodities, held);
    else
      writeLedgerJournalLines(out, accounts, entries, used, query.format, header, allPrices, [
        ...new Set([...held.values()].flat()),
      ]);
    out.end();
  });
}

/** The entries, each with the paths of its files (an export with its files beside it). */
function* withDocuments(entries: Iterable<BookEntry>, documents: ReadonlyMap<string, string[]>): Generator<BookEntry> {
  for (const entry of entries) {
    const paths = documents.get(entry.id);
    yield paths ? { ...entry, documents: paths } : entry;
  }
}

/** The whole export as one string (the benchmarks' and tests' in-process use; the route streams it from a job). */
export function exportBooks(db: LedgerDb, query: ExportQuery): { text: string; fileName: string; contentType: string } {
  const pieces: string[] = [];
  writeExport(db, query, (text) => pieces.push(text));
  return { text: pieces.join(''), ...exportMedia(query) };
}
