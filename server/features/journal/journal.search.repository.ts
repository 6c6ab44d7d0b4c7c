import type { LedgerDb } from '../../db/stores.ts';
import { SEARCH_COUNT_AHEAD } from '../../contract/journal.ts';
import {
  E_COLUMNS,
  ENTRY_COLUMNS,
  toEntries,
  type EntryFilter,
  type EntryRow,
  type JournalEntry,
} from './journal.repository.ts';

/** A search as the repository runs it: the FTS5 query of the memo words, and the amounts' lines. */
export interface EntrySearch {
  /** an FTS5 query over the memos, every phrase required; null: no words */
  words: string | null;
  /** each required: an entry with one of these lines (amount in minor units of that currency), or its memo phrase */
  amounts: { lines: { minor: bigint; currency: string }[]; memoPhrase: string }[];
  /** required when present: an entry with a line within one of these ranges (minor units of that currency) */
  range?: { min: bigint; max: bigint; currency: string }[] | undefined;
}

/** The SQL of lines `alias` within a range (`+`: a condition checked on lines found otherwise). */
function rangeSql(range: NonNullable<EntrySearch['range']>, alias: string, checked: boolean) {
  const p = checked ? '+' : '';
  return {
    sql:
      range.length === 0
        ? '0'
        : range.map(() => `(${p}${alias}amount_minor BETWEEN ? AND ? AND ${p}${alias}currency = ?)`).join(' OR '),
    params: range.flatMap((r) => [r.min, r.max, r.currency]),
  };
}

/** The key of an entry in the memo index (migration register_and_search): its place in every listing. */
const SEARCH_KEY = 'entry_search.rowid';
const SEQ_OF_KEY = '(entry_search.rowid & 4294967295)';

function searchKey(date: string, end: boolean): bigint {
  return (BigInt(date.replaceAll('-', '')) << 32n) | (end ? 0xffffffffn : 0n);
}

/**
 * The SQL conditions on `e` (an entry) of the filters and of the search's amounts, each checked on
 * the entry itself (`+column`: never a reason to read an index of every entry instead of the
 * matches; a line is looked up among the entry's own lines).
 */
function searchConditions(filter: EntryFilter, search: EntrySearch): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (filter.status) {
    sql.push('+e.status = ?');
    params.push(filter.status);
  }
  if (filter.sourceType) {
    sql.push('+e.source_type = ?');
    params.push(filter.sourceType);
  }
  if (filter.accountId) {
    sql.push(
      'EXISTS (SELECT 1 FROM journal_lines al WHERE al.account_id = ? AND al.entry_date = e.entry_date AND al.entry_id = e.id)',
    );
    params.push(filter.accountId);
  }
  for (const amount of search.amounts) {
    const either = ['e.seq IN (SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?)'];
    const eitherParams: unknown[] = [amount.memoPhrase];
    if (amount.lines.length > 0) {
      either.unshift(
        `EXISTS (SELECT 1 FROM journal_lines am WHERE am.entry_id = e.id AND (${amount.lines.map(() => '(+am.amount_minor = ? AND +am.currency = ?)').join(' OR ')}))`,
      );
      eitherParams.unshift(...amount.lines.flatMap((l) => [l.minor, l.currency]));
    }
    sql.push(`(${either.join(' OR ')})`);
    params.push(...eitherParams);
  }
  if (search.range) {
    const lines = rangeSql(search.range, 'ar.', true);
    sql.push(`EXISTS (SELECT 1 FROM journal_lines ar WHERE ar.entry_id = e.id AND (${lines.sql}))`);
    params.push(...lines.params);
  }
  return { sql, params };
}

/** Entries by their sequence numbers, in the order given (each one that exists). */
function entriesBySeq(db: LedgerDb, seqs: readonly bigint[]): EntryRow[] {
  const bySeq = new Map<bigint, EntryRow>();
  for (let i = 0; i < seqs.length; i += 100) {
    const chunk = seqs.slice(i, i + 100);
    for (const row of db.allSql<EntryRow & { seq: bigint }>(
      `SELECT seq, ${ENTRY_COLUMNS.join(', ')} FROM journal_entries WHERE seq IN (${chunk.map(() => '?').join(', ')})`,
      ...chunk,
    ))
      bySeq.set(row.seq, row);
  }
  return seqs.flatMap((seq) => {
    const row = bySeq.get(seq);
    if (!row) return [];
    const { seq: _seq, ...entry } = row as EntryRow & { seq: bigint };
    return [entry];
  });
}

/**
 * Entries found by a search (CONTRACT §15), with the other filters, newest first (date, then
 * creation), and their total counted up to `countAhead` matches past the page (`totalExact`
 * false: at least `total`). With memo words, the memo index drives: its keys are the listing's
 * order, so a page is read from it newest first and a date range is a key range; with no other
 * filter the index alone gives the page's keys and the count, and only the page's entries are
 * read, else the amounts and filters are checked on each entry it gives. With amounts only, the
 * lines of those amounts (their index) and the memos holding the number are the candidates,
 * sorted among themselves. Neither reads every entry: the work follows the matches.
 */
export function searchEntries(
  db: LedgerDb,
  filter: EntryFilter,
  search: EntrySearch,
  limit: number,
  offset: number,
  countAhead: number = SEARCH_COUNT_AHEAD,
): { items: JournalEntry[]; total: number; totalExact: boolean } {
  const conditions = searchConditions(filter, search);
  const cap = offset + limit + countAhead;
  const counted = (body: string, params: unknown[]) => {
    const n = Number(
      db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${body} LIMIT ?)`, ...params, cap)[0]!.n,
    );
    return { total: n, totalExact: n < cap };
  };
  if (search.words !== null) {
    const where = ['entry_search MATCH ?'];
    const params: unknown[] = [search.words];
    if (filter.startDate) {
      where.push(`${SEARCH_KEY} >= ?`);
      params.push(searchKey(filter.startDate, false));
    }
    if (filter.endDate) {
      where.push(`${SEARCH_KEY} <= ?`);
      params.push(searchKey(filter.endDate, true));
    }
    if (conditions.sql.length === 0) {
      // every key of the memo index is an entry's (triggers keep it): the index alone answers
      const body = `FROM entry_search WHERE ${where.join(' AND ')}`;
      const count = counted(body, params);
      if (offset >= count.total) return { items: [], ...count };
      const keys = db.allSql<{ seq: bigint }>(
        `SELECT ${SEQ_OF_KEY} AS seq ${body} ORDER BY ${SEARCH_KEY} DESC LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      return {
        items: toEntries(
          db,
          entriesBySeq(
            db,
            keys.map((k) => k.seq),
          ),
        ),
        ...count,
      };
    }
    const body = `FROM entry_search JOIN journal_entries e ON e.seq = ${SEQ_OF_KEY} WHERE ${[...where, ...conditions.sql].join(' AND ')}`;
    return searchPage(
      db,
      body,
      [...params, ...conditions.params],
      `ORDER BY ${SEARCH_KEY} DESC`,
      limit,
      offset,
      counted,
    );
  }
  const first = search.amounts[0];
  const candidates: string[] = [];
  const params: unknown[] = [];
  if (first) {
    candidates.push('e.seq IN (SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?)');
    params.push(first.memoPhrase);
    if (first.lines.length > 0) {
      candidates.unshift(
        `e.id IN (SELECT entry_id FROM journal_lines WHERE ${first.lines.map(() => '(amount_minor = ? AND currency = ?)').join(' OR ')})`,
      );
      params.unshift(...first.lines.flatMap((l) => [l.minor, l.currency]));
    }
  } else {
    // an amount range alone: the lines within it (their amount index) are the candidates
    const lines = rangeSql(search.range ?? [], '', false);
    candidates.push(`e.id IN (SELECT entry_id FROM journal_lines WHERE ${lines.sql})`);
    params.push(...lines.params);
  }
  const where = [`(${candidates.join(' OR ')})`];
  if (filter.startDate) {
    where.push('+e.entry_date >= ?');
    params.push(filter.startDate);
  }
  if (filter.endDate) {
    where.push('+e.entry_date <= ?');
    params.push(filter.endDate);
  }
  // the first amount drives; the rest are checked like filters
  const rest = searchConditions(filter, {
    words: null,
    amounts: search.amounts.slice(1),
    range: first ? search.range : undefined,
  });
  where.push(...rest.sql);
  params.push(...rest.params);
  return searchPage(
    db,
    `FROM journal_entries e WHERE ${where.join(' AND ')}`,
    params,
    'ORDER BY e.entry_date DESC, e.seq DESC',
    limit,
    offset,
    counted,
  );
}

/** A page of a search whose matches are entries `e` checked one by one, and their count. */
function searchPage(
  db: LedgerDb,
  body: string,
  params: unknown[],
  order: string,
  limit: number,
  offset: number,
  counted: (body: string, params: unknown[]) => { total: number; totalExact: boolean },
): { items: JournalEntry[]; total: number; totalExact: boolean } {
  const count = counted(body, params);
  if (offset >= count.total) return { items: [], ...count };
  const rows = db.allSql<EntryRow>(`SELECT ${E_COLUMNS} ${body} ${order} LIMIT ? OFFSET ?`, ...params, limit, offset);
  return { items: toEntries(db, rows), ...count };
}
