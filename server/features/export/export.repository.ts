import type { LedgerDb } from '../../db/stores.ts';
import { sqlWords } from '../../db/sql-text.ts';
import { BOOKED_ENTRY_STATUSES, type Direction } from '../../domain/double-entry.ts';
import type { BookEntry } from '../../domain/plaintext/types.ts';
import { costOf } from '../journal/journal.queries.ts';

/** The statuses of the entries that count in the books, in raw SQL. */
const BOOKED = sqlWords(BOOKED_ENTRY_STATUSES);

/**
 * Reads posted history (status posted and void: a voided entry and its reversal both) for an
 * export, one entry at a time.
 */

export interface DateFilter {
  from: string | null;
  to: string | null;
}

type HistoryRow = {
  id: string;
  entry_date: string;
  memo: string | null;
  status: 'posted' | 'void';
  reversal_entry_id: string | null;
  reverses_entry_id: string | null;
  account_id: string | null;
  direction: Direction | null;
  amount_minor: bigint | null;
  currency: string | null;
  cost_minor: bigint | null;
  cost_currency: string | null;
  automatic: bigint | null;
};

/**
 * Posted and voided entries with their lines, by date, then creation: one walk along the date
 * index (`+e.status`: the status index would need a sort of everything first) with each entry's
 * lines beside it, so only the entry being written is held. Nothing else may run on this
 * connection until the walk is finished or abandoned.
 */
export function* postedHistory(db: LedgerDb, filter: DateFilter): Generator<BookEntry, void, undefined> {
  let entry: BookEntry | undefined;
  for (const r of db.iterateSql<HistoryRow>(
    `SELECT e.id, e.entry_date, e.memo, e.status, e.reversal_entry_id, e.reverses_entry_id, l.account_id, l.direction, l.amount_minor, l.currency,
            l.cost_minor, l.cost_currency, l.automatic
       FROM journal_entries e LEFT JOIN journal_lines l ON l.entry_id = e.id
      WHERE +e.status IN ${BOOKED} AND e.entry_date >= ? AND e.entry_date <= ?
      ORDER BY e.entry_date, e.created_at, e.seq, l.line_no`,
    filter.from ?? '',
    filter.to ?? '9999-12-31',
  )) {
    if (entry?.id !== r.id) {
      if (entry) yield entry;
      entry = {
        id: r.id,
        date: r.entry_date,
        memo: r.memo,
        status: r.status,
        reversalEntryId: r.reversal_entry_id,
        reversesEntryId: r.reverses_entry_id,
        lines: [],
      };
    }
    if (r.account_id !== null)
      entry.lines.push({
        accountId: r.account_id,
        direction: r.direction!,
        amountMinor: r.amount_minor!,
        currency: r.currency!,
        cost: costOf(r.cost_minor, r.cost_currency),
        automatic: r.automatic === 1n,
      });
  }
  if (entry) yield entry;
}

/** The accounts posted history in the range has lines on, from the day counts (one row per account and day, not every line). */
export function accountsInHistory(db: LedgerDb, filter: DateFilter): Set<string> {
  const rows = db.allSql<{ account_id: string }>(
    `SELECT DISTINCT account_id FROM account_day_counts WHERE status IN ${BOOKED} AND day >= ? AND day <= ? AND entries > 0`,
    filter.from ?? '',
    filter.to ?? '9999-12-31',
  );
  return new Set(rows.map((r) => r.account_id));
}
