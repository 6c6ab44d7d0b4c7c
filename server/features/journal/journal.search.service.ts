import type { LedgerDb } from '../../db/stores.ts';
import type { JournalEntryDto, ListEntriesQuery } from '../../contract/journal.ts';
import { SEARCH_COUNT_AHEAD } from '../../contract/journal.ts';
import { boundMinor, formatMinor, MAX_AMOUNT_UNITS, parseAmount } from '../../domain/money.ts';
import { parseSearch } from '../../domain/search.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import { listEntries, type JournalEntry } from './journal.repository.ts';
import { searchEntries, type EntrySearch } from './journal.search.repository.ts';

// Entries as the API shows them, and the entry list's pages: listed, filtered and searched.

export function toEntryDto(e: JournalEntry): JournalEntryDto {
  return {
    id: e.id,
    entry_date: e.entryDate,
    memo: e.memo,
    status: e.status,
    source_type: e.sourceType,
    lines: e.lines.map((l) => ({
      id: l.id,
      account_id: l.accountId,
      account_name: l.accountName,
      direction: l.direction,
      amount: formatMinor(l.amountMinor, l.currency),
      currency: l.currency,
      cleared: l.cleared,
      cost: l.cost ? { amount: formatMinor(l.cost.amountMinor, l.cost.currency), currency: l.cost.currency } : null,
      automatic: l.automatic,
    })),
    created_at: e.createdAt,
    updated_at: e.updatedAt,
    posted_at: e.postedAt,
    voided_at: e.voidedAt,
    void_reason: e.voidReason,
    reversal_entry_id: e.reversalEntryId,
    reverses_entry_id: e.reversesEntryId,
    corrects: e.correctsEntryId,
    corrected_by: e.correctedByEntryId,
  };
}
/**
 * A search's amounts as lines to look for: the amount in minor units of each currency the ledger's
 * accounts use that can hold it exactly (82.5 is 8250 cents and 82500 fils, never yen).
 */
function entrySearch(db: LedgerDb, text: string): EntrySearch | null {
  const parsed = parseSearch(text);
  if (!parsed) return null;
  const currencies = [...new Set(allAccounts(db).map((a) => a.currency))];
  return {
    words: parsed.words,
    amounts: parsed.amounts.map(({ amount, memoPhrase }) => ({
      memoPhrase,
      lines: currencies.flatMap((currency) => {
        const read = parseAmount(amount, currency);
        return 'minor' in read ? [{ minor: read.minor, currency }] : [];
      }),
    })),
  };
}

/**
 * An amount range as line amounts to look for: for each currency the ledger's accounts use, the
 * minor units from the lower bound rounded up to the upper bound rounded down (a currency whose
 * units fall between the bounds holds none); undefined without bounds.
 */
function amountRange(db: LedgerDb, min: string | undefined, max: string | undefined): EntrySearch['range'] {
  if (min === undefined && max === undefined) return undefined;
  const currencies = [...new Set(allAccounts(db).map((a) => a.currency))];
  return currencies.flatMap((currency) => {
    const low = min === undefined ? 1n : boundMinor(min, currency, 'lower');
    const high = max === undefined ? MAX_LINE_MINOR : boundMinor(max, currency, 'upper');
    return low <= high ? [{ min: low, max: high, currency }] : [];
  });
}

/** Above any line's amount in minor units (lines are under MAX_AMOUNT_UNITS units with at most 4 decimals). */
const MAX_LINE_MINOR = MAX_AMOUNT_UNITS * 10_000n;

/** A page of the entry list, or of a search (`countAhead`: how far past the page a search counts its matches). */
export function listEntryPage(db: LedgerDb, query: ListEntriesQuery, countAhead = SEARCH_COUNT_AHEAD) {
  const filter = {
    status: query.status,
    startDate: query.start_date,
    endDate: query.end_date,
    accountId: query.account_id,
    sourceType: query.source_type,
  };
  const words = query.q === undefined ? null : entrySearch(db, query.q);
  const range = amountRange(db, query.amount_min, query.amount_max);
  const search = range ? { ...(words ?? { words: [], amounts: [] }), range } : words;
  const offset = (query.page - 1) * query.per_page;
  const { items, total, totalExact } = search
    ? searchEntries(db, filter, search, query.per_page, offset, countAhead)
    : { ...listEntries(db, filter, query.per_page, offset), totalExact: true };
  return {
    items: items.map(toEntryDto),
    total,
    total_exact: totalExact,
    page: query.page,
    per_page: query.per_page,
  };
}
