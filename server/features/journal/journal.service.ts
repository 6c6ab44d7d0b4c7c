import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type {
  CorrectEntryInput,
  CreateEntryInput,
  JournalEntryDto,
  LineInput,
  ListEntriesQuery,
  SourceType,
  UpdateEntryInput,
} from '../../contract/journal.ts';
import { SEARCH_COUNT_AHEAD } from '../../contract/journal.ts';
import { FIELD_MESSAGES, tooManyDecimals } from '../../contract/limits.ts';
import { localToday } from '../../domain/dates.ts';
import { reversalLines, reversalMemo, unbalancedCurrencies } from '../../domain/double-entry.ts';
import { tradingLines, weightImbalances, type Cost } from '../../domain/exchange.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { boundMinor, formatMinor, MAX_AMOUNT_UNITS, parseAmount, type AmountProblem } from '../../domain/money.ts';
import { parseSearch } from '../../domain/search.ts';
import { accountsByIds, allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { tradingAccount } from '../exchange/trading-accounts.ts';
import { applyPosting, applyPostings } from '../totals/totals.service.ts';
import type { PostedLine } from '../totals/totals.model.ts';
import {
  findEntries,
  findEntry,
  insertEntriesInBulk,
  insertEntry,
  listEntries,
  markCorrectedBy,
  markPosted,
  markVoid,
  rewriteDraft,
  searchEntries,
  type EntrySearch,
  type JournalEntry,
  type NewLine,
} from './journal.repository.ts';

/**
 * Stores an import's checked entries in one pass, in the import's transaction (which also adds the
 * posted ones to the totals): journal-import's way into the journal.
 */
export { insertEntriesInBulk, type NewEntry } from './journal.repository.ts';

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

const AMOUNT_MESSAGES: Record<AmountProblem, (currency: string) => string> = {
  format: () => FIELD_MESSAGES.amount,
  digits: tooManyDecimals,
  zero: () => FIELD_MESSAGES.zero,
  too_large: () => FIELD_MESSAGES.tooLarge,
};

export interface CheckedLine extends NewLine {
  account: Account;
}

/**
 * Checks lines as every entry must be: at least two, on existing accounts, in each account's
 * currency, amounts exact to the currency's digits, accounts active, and (unless it is a draft
 * being saved: `balanced: false`) balanced per currency.
 */
export function checkLines(
  db: LedgerDb,
  lines: readonly LineInput[],
  { balanced = true }: { balanced?: boolean } = {},
): CheckedLine[] {
  if (lines.length < 2) throw new DomainError('TOO_FEW_LINES', 'An entry needs at least 2 lines');
  const accounts = accountsByIds(
    db,
    lines.map((l) => l.account_id),
  );
  const missing: FieldError[] = [];
  const mismatched: FieldError[] = [];
  const badAmounts: FieldError[] = [];
  const checked: CheckedLine[] = [];
  lines.forEach((line, i) => {
    const account = accounts.get(line.account_id);
    if (!account) {
      missing.push({ field: `lines.${i}.account_id`, message: 'no such account' });
      return;
    }
    const currency = line.currency ?? account.currency;
    if (currency !== account.currency) {
      mismatched.push({
        field: `lines.${i}.currency`,
        message: `the account ${account.name} is in ${account.currency}`,
      });
      return;
    }
    const parsed = parseAmount(line.amount, currency);
    if ('problem' in parsed) {
      badAmounts.push({ field: `lines.${i}.amount`, message: AMOUNT_MESSAGES[parsed.problem](currency) });
      return;
    }
    let cost: Cost | null = null;
    if (line.cost) {
      if (line.cost.currency === currency) {
        badAmounts.push({
          field: `lines.${i}.cost.currency`,
          message: `must differ from the line's currency ${currency}`,
        });
        return;
      }
      const parsedCost = parseAmount(line.cost.amount, line.cost.currency);
      if ('problem' in parsedCost) {
        badAmounts.push({
          field: `lines.${i}.cost.amount`,
          message: AMOUNT_MESSAGES[parsedCost.problem](line.cost.currency),
        });
        return;
      }
      cost = { amountMinor: parsedCost.minor, currency: line.cost.currency };
    }
    checked.push({
      accountId: account.id,
      direction: line.direction,
      amountMinor: parsed.minor,
      currency,
      cost,
      account,
    });
  });
  if (missing.length > 0)
    throw new DomainError('INVALID_ACCOUNT', `Line ${missing[0]!.field} names an account that does not exist`, missing);
  if (mismatched.length > 0)
    throw new DomainError('CURRENCY_MISMATCH', `A line's currency differs from its account's`, mismatched);
  if (badAmounts.length > 0)
    throw new DomainError(
      'VALIDATION_ERROR',
      `Invalid body: ${badAmounts[0]!.field} ${badAmounts[0]!.message}`,
      badAmounts,
    );
  return completeLines(db, checked, { balanced });
}

/** Lines whose amounts are read, with their exchanges' automatic lines added, checked for saving. */
function completeLines(db: LedgerDb, checked: CheckedLine[], { balanced }: { balanced: boolean }): CheckedLine[] {
  if (balanced) assertWeightsBalance(checked);
  const withTrading = [...checked, ...tradingLinesOf(db, checked)];
  if (balanced) assertPostable(withTrading);
  else assertActive(withTrading);
  return withTrading;
}

/**
 * The automatic lines of an entry's exchanges, on each currency's trading account. `accountOf`
 * finds (or plans) a currency's trading account; by default it is found or created in the ledger.
 */
export function tradingLinesOf(
  db: LedgerDb,
  lines: readonly CheckedLine[],
  accountOf: (currency: string) => Account = (currency) => tradingAccount(db, currency),
): CheckedLine[] {
  return tradingLines(lines).map((t) => {
    const account = accountOf(t.tradingCurrency);
    return {
      accountId: account.id,
      direction: t.direction,
      amountMinor: t.amountMinor,
      currency: t.currency,
      cost: t.cost,
      automatic: true,
      account,
    };
  });
}

function describeImbalance(unbalanced: readonly { currency: string; imbalance: bigint }[]): string {
  return unbalanced
    .map(
      ({ currency, imbalance }) =>
        `${currency} ${imbalance > 0n ? 'debits exceed credits' : 'credits exceed debits'} by ${formatMinor(imbalance < 0n ? -imbalance : imbalance, currency)}`,
    )
    .join('; ');
}

/** An entry with exchanges balances by weight: each costed line counts as its cost. */
export function assertWeightsBalance(lines: readonly CheckedLine[]): void {
  const unbalanced = weightImbalances(lines);
  if (unbalanced.length > 0) {
    throw new DomainError(
      'UNBALANCED',
      `Debits do not equal credits: ${describeImbalance(unbalanced)}${lines.some((l) => l.cost) ? ' (a line with a cost counts as its cost)' : ''}`,
    );
  }
}

function assertActive(lines: readonly CheckedLine[]): void {
  const inactive = lines.filter((l) => !l.account.isActive);
  if (inactive.length > 0) {
    throw new DomainError('INACTIVE_ACCOUNT', `The account ${inactive[0]!.account.name} is deactivated`);
  }
}

/** What posting re-checks: every account active and the lines balanced per currency. */
export function assertPostable(lines: readonly CheckedLine[]): void {
  assertActive(lines);
  const unbalanced = unbalancedCurrencies(lines);
  if (unbalanced.length > 0) {
    throw new DomainError('UNBALANCED', `Debits do not equal credits: ${describeImbalance(unbalanced)}`);
  }
}

function post(db: LedgerDb, entryDate: string, lines: readonly CheckedLine[]): void {
  applyPosting(db, entryDate, postedLines(lines));
}

function postedLines(lines: readonly CheckedLine[]): PostedLine[] {
  return lines.map((l) => ({
    accountId: l.accountId,
    accountType: l.account.type,
    direction: l.direction,
    amountMinor: l.amountMinor,
    currency: l.currency,
  }));
}

export function requireEntry(db: LedgerDb, id: string): JournalEntry {
  const entry = findEntry(db, id);
  if (!entry) throw new DomainError('NOT_FOUND', 'Journal entry not found');
  return entry;
}

/** Stores a checked entry (posted with `auto_post`); its id. */
function storeEntry(
  db: LedgerDb,
  input: CreateEntryInput,
  lines: readonly CheckedLine[],
  sourceType: SourceType,
  now: string,
  correctsEntryId: string | null = null,
  id: string = newRowId(),
): string {
  const posted = input.auto_post === true;
  insertEntry(
    db,
    {
      id,
      entryDate: input.entry_date,
      memo: input.memo ?? null,
      status: posted ? 'posted' : 'draft',
      sourceType,
      createdAt: now,
      updatedAt: now,
      postedAt: posted ? now : null,
      voidedAt: null,
      voidReason: null,
      reversalEntryId: null,
      reversesEntryId: null,
      correctsEntryId,
    },
    lines,
    newRowId,
  );
  if (posted) post(db, input.entry_date, lines);
  return id;
}

/** `entryId`: the entry's id when it is derived from what it books (occurrenceEntryId); a new one otherwise. */
export function createEntry(
  db: LedgerDb,
  input: CreateEntryInput,
  sourceType: SourceType = 'manual',
  entryId?: string,
): JournalEntryDto {
  return db.transaction(() => {
    // a draft is work in progress: it need not balance until it is posted
    const lines = checkLines(db, input.lines, { balanced: input.auto_post === true });
    const id = storeEntry(db, input, lines, sourceType, new Date().toISOString(), null, entryId);
    return toEntryDto(requireEntry(db, id));
  });
}

/**
 * Creates many entries, all or none (CONTRACT §18): every entry is checked as `createEntry` checks
 * one, and when any fails nothing is stored and `errors` names the fields of each failing entry by
 * its index (`entries.3.lines.1.amount`; `entries.3.lines` for a fault of the entry as a whole,
 * UNBALANCED, TOO_FEW_LINES, INACTIVE_ACCOUNT). The answer's code is the first failing entry's.
 */
export function createEntries(db: LedgerDb, inputs: readonly CreateEntryInput[]): JournalEntryDto[] {
  return db.transaction(() => storeEntries(db, inputs));
}

/** createEntries within a transaction the caller holds. */
function storeEntries(db: LedgerDb, inputs: readonly CreateEntryInput[]): JournalEntryDto[] {
  const checked: CheckedLine[][] = [];
  const errors: FieldError[] = [];
  let first: { index: number; error: DomainError } | undefined;
  let failed = 0;
  inputs.forEach((input, index) => {
    try {
      checked.push(checkLines(db, input.lines, { balanced: input.auto_post === true }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      first ??= { index, error };
      failed += 1;
      if (error.errors && error.errors.length > 0)
        for (const e of error.errors) errors.push({ field: `entries.${index}.${e.field}`, message: e.message });
      else errors.push({ field: `entries.${index}.lines`, message: error.message });
    }
  });
  if (first) {
    const more = failed > 1 ? ` (and ${failed - 1} more entries refused)` : '';
    throw new DomainError(
      first.error.code,
      `Entry ${first.index}: ${first.error.message}${more}; nothing was stored`,
      errors,
    );
  }
  const ids = insertEntriesInBulk(
    db,
    inputs.map((input, i) => ({
      date: input.entry_date,
      memo: input.memo ?? null,
      status: input.auto_post === true ? 'posted' : 'draft',
      lines: checked[i]!,
    })),
    'manual',
    new Date().toISOString(),
  );
  applyPostings(
    db,
    inputs.flatMap((input, i) =>
      input.auto_post === true ? [{ entryDate: input.entry_date, lines: postedLines(checked[i]!) }] : [],
    ),
  );
  return findEntries(db, ids).map(toEntryDto);
}

/**
 * The journal's writes as requests make them: each shares a transaction, and so one sync to disk,
 * with the writes of the other requests that arrive with it, and is answered once that is durable
 * (SqliteDb.write, 'group-commit'); a write that fails is undone alone. A batch heads a group of its own, without
 * a savepoint (see `head`).
 */
export const journalWrites = {
  create: (db: LedgerDb, input: CreateEntryInput) => db.write('group-commit', () => createEntry(db, input)),
  createMany: (db: LedgerDb, inputs: readonly CreateEntryInput[]) =>
    db.write('group-commit', () => storeEntries(db, inputs), { head: true }),
  update: (db: LedgerDb, id: string, input: UpdateEntryInput) =>
    db.write('group-commit', () => updateDraft(db, id, input)),
  post: (db: LedgerDb, id: string) => db.write('group-commit', () => postEntry(db, id)),
  void: (db: LedgerDb, id: string, reason: string | null, guard: VoidGuard) =>
    db.write('group-commit', () => voidEntry(db, id, reason, guard)),
  correct: (db: LedgerDb, id: string, input: CorrectEntryInput, guard: VoidGuard) =>
    db.write('group-commit', () => correctEntry(db, id, input, guard)),
};

function assertStatus(
  entry: JournalEntry,
  required: 'draft' | 'posted',
  action: 'update' | 'post' | 'void' | 'correct',
): void {
  if (entry.status === required) return;
  const why: Record<string, string> = {
    'update posted': 'Only draft entries can be updated; void a posted entry and create a new one',
    'update void': 'Only draft entries can be updated; this entry is void',
    'post posted': 'The entry is already posted',
    'post void': 'The entry is void',
    'void draft': 'The entry is not posted; a draft can be edited instead',
    'void void': 'The entry is already void',
    'correct draft': 'The entry is a draft; change it instead',
    'correct void': 'The entry is void; correct the entry that replaced it',
  };
  throw new DomainError(
    'INVALID_STATUS',
    why[`${action} ${entry.status}`] ?? `Cannot ${action} a ${entry.status} entry`,
  );
}

export function updateDraft(db: LedgerDb, id: string, input: UpdateEntryInput): JournalEntryDto {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'draft', 'update');
    const lines = input.lines
      ? checkLines(db, input.lines, { balanced: false })
      : completeLines(
          db,
          checkedLinesOf(db, entry).filter((l) => !l.automatic),
          { balanced: false },
        );
    rewriteDraft(
      db,
      id,
      {
        entryDate: input.entry_date ?? entry.entryDate,
        memo: input.memo === undefined ? entry.memo : input.memo,
        updatedAt: new Date().toISOString(),
      },
      lines,
      newRowId,
    );
    return toEntryDto(requireEntry(db, id));
  });
}

function checkedLinesOf(db: LedgerDb, entry: JournalEntry): CheckedLine[] {
  const accounts = accountsByIds(
    db,
    entry.lines.map((l) => l.accountId),
  );
  return entry.lines.map((l) => ({ ...l, account: accounts.get(l.accountId)! }));
}

export function postEntry(db: LedgerDb, id: string): JournalEntryDto {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'draft', 'post');
    const lines = checkedLinesOf(db, entry);
    if (lines.length < 2) throw new DomainError('TOO_FEW_LINES', 'An entry needs at least 2 lines');
    assertWeightsBalance(lines);
    assertPostable(lines);
    markPosted(db, id, new Date().toISOString());
    post(db, entry.entryDate, lines);
    return toEntryDto(requireEntry(db, id));
  });
}

/**
 * What voiding asks of the features that hold on to posted entries (reconciliation's matches):
 * journal defines it, the composition root (server/index.ts) wires it. `beforeVoid` runs inside
 * the void's (or the correction's) transaction before anything is written; a DomainError it throws
 * refuses it, its detail saying that the entry cannot be `voided` or `corrected` and why.
 */
export interface VoidGuard {
  beforeVoid(db: LedgerDb, entryId: string, at: string, action: 'voided' | 'corrected'): void;
}

/**
 * Voids a posted entry by a reversal: the same lines with directions swapped, posted, dated the
 * later of today and the original's date. Both stay in history and point at each other.
 */
export function voidEntry(
  db: LedgerDb,
  id: string,
  reason: string | null,
  guard: VoidGuard,
  today: string = localToday(),
) {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'posted', 'void');
    const now = new Date().toISOString();
    guard.beforeVoid(db, entry.id, now, 'voided');
    const reversalId = reverse(db, entry, reason, today, now);
    return { voided_entry: toEntryDto(requireEntry(db, id)), reversal_entry: toEntryDto(requireEntry(db, reversalId)) };
  });
}

/** Posts the reversal of a posted entry and marks the entry void; the reversal's id. */
function reverse(db: LedgerDb, entry: JournalEntry, reason: string | null, today: string, now: string): string {
  const reversalId = newRowId();
  const reversalDate = entry.entryDate > today ? entry.entryDate : today;
  const lines = reversalLines(checkedLinesOf(db, entry));
  insertEntry(
    db,
    {
      id: reversalId,
      entryDate: reversalDate,
      memo: reversalMemo(entry.memo, reason),
      status: 'posted',
      sourceType: 'system',
      createdAt: now,
      updatedAt: now,
      postedAt: now,
      voidedAt: null,
      voidReason: null,
      reversalEntryId: null,
      reversesEntryId: entry.id,
      correctsEntryId: null,
    },
    lines,
    newRowId,
  );
  markVoid(db, entry.id, { at: now, reason, reversalEntryId: reversalId });
  post(db, reversalDate, lines);
  return reversalId;
}

/**
 * Corrects a posted entry in one step, in one transaction: the entry is voided (as `voidEntry`
 * does, with the same guard: a line matched to a bank line or reconciled refuses it; its reversal
 * dated the original's date, so that a past month is corrected in place) and the
 * corrected entry posted, with the original's source; the two point at each other (`corrects`,
 * `corrected_by`). The corrected lines are checked first, so a bad correction leaves the entry
 * as it was. A reversal is corrected through the entry it voids.
 */
export function correctEntry(
  db: LedgerDb,
  id: string,
  input: CorrectEntryInput,
  guard: VoidGuard,
  today: string = localToday(),
) {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'posted', 'correct');
    if (entry.reversesEntryId)
      throw new DomainError('INVALID_STATUS', 'The entry is the reversal of a voided entry and cannot be corrected');
    const lines = checkLines(db, input.lines);
    const now = new Date().toISOString();
    guard.beforeVoid(db, entry.id, now, 'corrected');
    const reason = input.reason || 'corrected';
    // dated as the original: the month it was in shows the corrected figures, not both
    const reversalId = reverse(db, entry, reason, entry.entryDate, now);
    const correctedId = storeEntry(
      db,
      { entry_date: input.entry_date, memo: input.memo ?? null, lines: input.lines, auto_post: true },
      lines,
      entry.sourceType,
      now,
      entry.id,
    );
    markCorrectedBy(db, entry.id, correctedId);
    return {
      voided_entry: toEntryDto(requireEntry(db, id)),
      reversal_entry: toEntryDto(requireEntry(db, reversalId)),
      entry: toEntryDto(requireEntry(db, correctedId)),
    };
  });
}

export function getEntry(db: LedgerDb, id: string): JournalEntryDto {
  return toEntryDto(requireEntry(db, id));
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
  const search = range ? { ...(words ?? { words: null, amounts: [] }), range } : words;
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
