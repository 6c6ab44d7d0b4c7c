import type { LedgerDb } from '../../db/stores.ts';
import { SEARCH_COUNT_AHEAD } from '../../contract/journal.ts';
import { countedPage, type CountTables } from '../../db/counted-pages.ts';
import {
  E_COLUMNS,
  ENTRY_COLUMNS,
  toEntries,
  type EntryFilter,
  type EntryRow,
  type JournalEntry,
} from './journal.repository.ts';

/** A search as the repository runs it (CONTRACT §15): its words, amounts and amount range. */
export interface EntrySearch {
  /**
   * FTS5 phrases, each required: found in the entry's text (its memo, the descriptions of its bank
   * lines) or in the path of an account the entry has a line in
   */
  words: string[];
  /** each required: an entry with one of these lines (amount in minor units of that currency), or its text phrase */
  amounts: { lines: { minor: bigint; currency: string }[]; memoPhrase: string }[];
  /** required when present: an entry with a line within one of these ranges (minor units of that currency) */
  range?: { min: bigint; max: bigint; currency: string }[] | undefined;
}

/**
 * One required term of a search, as the SQL sees it: an entry holds it when its text holds the
 * phrase, or it has one of the lines, or (`accounts`) a line in an account whose path holds the phrase.
 */
interface Term {
  phrase: string;
  lines: { minor: bigint; currency: string }[];
  accounts: boolean;
}

const TEXT_MATCH = 'SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?';
const ACCOUNTS_MATCH = 'SELECT account_id FROM account_search WHERE account_search MATCH ?';

/** Whether a phrase names an account (its path holds the phrase): one lookup in the account index. */
function namesAnAccount(db: LedgerDb, phrase: string): boolean {
  return db.allSql(`${ACCOUNTS_MATCH} LIMIT 1`, phrase).length > 0;
}

/** A term checked on an entry `e` found otherwise: its text, then its own lines. */
function termCondition(term: Term): { sql: string; params: unknown[] } {
  const either: string[] = [];
  const params: unknown[] = [];
  if (term.lines.length > 0) {
    either.push(
      `EXISTS (SELECT 1 FROM journal_lines am WHERE am.entry_id = e.id AND (${term.lines.map(() => '(+am.amount_minor = ? AND +am.currency = ?)').join(' OR ')}))`,
    );
    params.push(...term.lines.flatMap((l) => [l.minor, l.currency]));
  }
  either.push(`e.seq IN (${TEXT_MATCH})`);
  params.push(term.phrase);
  if (term.accounts) {
    either.push(
      `EXISTS (SELECT 1 FROM journal_lines an WHERE an.entry_id = e.id AND +an.account_id IN (${ACCOUNTS_MATCH}))`,
    );
    params.push(term.phrase);
  }
  return { sql: `(${either.join(' OR ')})`, params };
}

/**
 * The entries holding a term, as the candidates of a search: the lines of its amounts (their
 * index), the text index, and the lines of the accounts it names (the lines' account index, within
 * the dates asked for).
 */
function termCandidates(term: Term, filter: EntryFilter): { sql: string; params: unknown[] } {
  const either: string[] = [];
  const params: unknown[] = [];
  if (term.lines.length > 0) {
    either.push(
      `e.id IN (SELECT entry_id FROM journal_lines WHERE ${term.lines.map(() => '(amount_minor = ? AND currency = ?)').join(' OR ')})`,
    );
    params.push(...term.lines.flatMap((l) => [l.minor, l.currency]));
  }
  either.push(`e.seq IN (${TEXT_MATCH})`);
  params.push(term.phrase);
  if (term.accounts) {
    const dates = [
      ...(filter.startDate ? [' AND entry_date >= ?'] : []),
      ...(filter.endDate ? [' AND entry_date <= ?'] : []),
    ].join('');
    either.push(`e.id IN (SELECT entry_id FROM journal_lines WHERE account_id IN (${ACCOUNTS_MATCH})${dates})`);
    params.push(term.phrase, ...[filter.startDate, filter.endDate].filter((d) => d !== undefined));
  }
  return { sql: `(${either.join(' OR ')})`, params };
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
 * The SQL conditions on `e` (an entry) of the filters and of a search's terms, each checked on
 * the entry itself (`+column`: never a reason to read an index of every entry instead of the
 * matches; a line is looked up among the entry's own lines).
 */
function searchConditions(
  filter: EntryFilter,
  terms: readonly Term[],
  range: EntrySearch['range'],
): { sql: string[]; params: unknown[] } {
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
  for (const term of terms) {
    const condition = termCondition(term);
    sql.push(condition.sql);
    params.push(...condition.params);
  }
  if (range) {
    const lines = rangeSql(range, 'ar.', true);
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
 * false: at least `total`). A word is looked for in the entries' text (the text index: memos and
 * bank descriptions) and, when it names an account (one lookup in the account index), in the
 * accounts the entries have lines in. The plans, best first:
 * 1. Words that name no account: the text index drives. Its keys are the listing's order, so a
 *    page is read from it newest first and a date range is a key range; with nothing else asked
 *    the index alone gives the page's keys and the count and only the page's entries are read,
 *    else the other words, amounts and filters are checked on each entry it gives.
 * 2. Otherwise the first amount, or else the first word, drives: the entries of its text matches, of its amount's
 *    lines (their index) and of the lines of the accounts it names (the lines' account index,
 *    within the dates asked), sorted among themselves; the rest are checked on each.
 * 3. An amount range alone: the lines within it (their amount index), sorted among themselves.
 * None reads every entry: the work follows the matches.
 */
export function searchEntries(
  db: LedgerDb,
  filter: EntryFilter,
  search: EntrySearch,
  limit: number,
  offset: number,
  countAhead: number = SEARCH_COUNT_AHEAD,
): { items: JournalEntry[]; total: number; totalExact: boolean } {
  // a word that names no account is looked for in the text alone; the text index drives with those
  const textWords = search.words.filter((w) => !namesAnAccount(db, w));
  // amounts first: an exact amount's lines are few, an account's may be many
  const terms: Term[] = [
    ...search.amounts.map((a) => ({ phrase: a.memoPhrase, lines: a.lines, accounts: false })),
    ...search.words.filter((w) => !textWords.includes(w)).map((phrase) => ({ phrase, lines: [], accounts: true })),
  ];
  const cap = offset + limit + countAhead;
  const counted = (body: string, params: unknown[]) => {
    const n = Number(
      db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${body} LIMIT ?)`, ...params, cap)[0]!.n,
    );
    return { total: n, totalExact: n < cap };
  };
  if (textWords.length > 0) {
    const conditions = searchConditions(filter, terms, search.range);
    const where = ['entry_search MATCH ?'];
    const params: unknown[] = [textWords.join(' ')];
    if (filter.startDate) {
      where.push(`${SEARCH_KEY} >= ?`);
      params.push(searchKey(filter.startDate, false));
    }
    if (filter.endDate) {
      where.push(`${SEARCH_KEY} <= ?`);
      params.push(searchKey(filter.endDate, true));
    }
    if (conditions.sql.length === 0) {
      // every key of the text index is an entry's (triggers keep it): the index alone answers
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
  // the first term drives (or, alone, the amount range: the lines within it, by their amount
  // index); the rest are checked like filters
  const [first, ...rest] = terms;
  const body = (range: EntryFilter) => {
    const params: unknown[] = [];
    const where: string[] = [];
    if (first) {
      const candidates = termCandidates(first, range);
      where.push(candidates.sql);
      params.push(...candidates.params);
    } else {
      const lines = rangeSql(search.range ?? [], '', false);
      where.push(`(e.id IN (SELECT entry_id FROM journal_lines WHERE ${lines.sql}))`);
      params.push(...lines.params);
    }
    if (range.startDate) {
      where.push('+e.entry_date >= ?');
      params.push(range.startDate);
    }
    if (range.endDate) {
      where.push('+e.entry_date <= ?');
      params.push(range.endDate);
    }
    const checked = searchConditions(filter, rest, first ? search.range : undefined);
    where.push(...checked.sql);
    params.push(...checked.params);
    return { sql: `FROM journal_entries e WHERE ${where.join(' AND ')}`, params };
  };
  const ORDER = 'ORDER BY e.entry_date DESC, e.seq DESC';
  const page = (where: { sql: string; params: unknown[] }) =>
    toEntries(
      db,
      db.allSql<EntryRow>(`SELECT ${E_COLUMNS} ${where.sql} ${ORDER} LIMIT ? OFFSET ?`, ...where.params, limit, offset),
    );
  // A word naming a busy account (Checking, Expenses) has as many candidates as the account has
  // entries: rather than gather and sort them all, the count and the page are taken among the
  // newest days that hold enough of them by the accounts' kept entry counts (an entry on two of
  // the accounts counts twice there, so a window is widened until it holds what is counted).
  if (first?.accounts && first.lines.length === 0) {
    const ids = db.allSql<{ account_id: string }>(ACCOUNTS_MATCH, first.phrase).map((r) => r.account_id);
    const accounts = { sql: [`account_id IN (${ids.map(() => '?').join(', ')})`], params: ids };
    const cap = offset + limit + countAhead;
    for (let reach = cap; reach <= 64 * cap; reach *= 4) {
      const { total, span } = countedPage(
        db,
        ACCOUNT_COUNTS,
        accounts,
        { start: filter.startDate, end: filter.endDate },
        0,
        reach,
      );
      // the window would be every day asked for: the whole list below
      if (!span || total <= reach || (filter.startDate !== undefined && span.from <= filter.startDate)) break;
      const window = body({ ...filter, startDate: span.from });
      const count = counted(window.sql, window.params);
      // as many as are counted in the window: the whole list has that many too, and its page is here
      if (!count.totalExact) return { items: page(window), ...count };
    }
  }
  const all = body(filter);
  const count = counted(all.sql, all.params);
  if (offset >= count.total) return { items: [], ...count };
  return { items: page(all), ...count };
}

/** The kept counts of entries with a line on an account, by day and month (migration month_counts). */
const ACCOUNT_COUNTS: CountTables = { days: 'account_day_counts', months: 'account_month_counts', count: 'entries' };

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
