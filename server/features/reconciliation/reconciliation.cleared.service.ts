import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { isDebitNormal, normalBalance } from '../../domain/double-entry.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseSignedAmount, type Minor } from '../../domain/money.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import { createEntry } from '../journal/journal.service.ts';
import {
  clearedTotals,
  firstLineDate,
  hasEquityEntry,
  insertReconciliation,
  lineStates,
  listReconciliations,
  reconcileClearedLines,
  setLinesCleared,
  unreconciledLines,
} from './reconciliation.cleared.repository.ts';
import type { Reconciliation } from './reconciliation.model.ts';

/**
 * Reconciling an account to the bank (CONTRACT §14), as GnuCash and Actual do it: tick the lines
 * the statement shows (cleared), compare the cleared balance with the statement's balance at its
 * date, and once they agree, lock the cleared lines as reconciled.
 */

function statementBalance(text: string, account: Account): Minor {
  const parsed = parseSignedAmount(text, account.currency);
  if ('minor' in parsed) return parsed.minor;
  const message =
    parsed.problem === 'digits' ? `has more decimal places than ${account.currency} allows` : 'is not a balance';
  throw new DomainError('VALIDATION_ERROR', `Invalid statement_balance: ${message}`, [
    { field: 'statement_balance', message },
  ]);
}

interface Status {
  account: Account;
  balanceMinor: Minor;
  clearedMinor: Minor;
  differenceMinor: Minor;
  uncleared: number;
}

function status(db: LedgerDb, accountId: string, date: string, balance: string): Status {
  const account = requireAccount(db, accountId);
  const balanceMinor = statementBalance(balance, account);
  const totals = clearedTotals(db, account.id, date);
  const clearedMinor = normalBalance(account.type, totals.debitMinor, totals.creditMinor);
  return {
    account,
    balanceMinor,
    clearedMinor,
    differenceMinor: balanceMinor - clearedMinor,
    uncleared: totals.uncleared,
  };
}

/** The cleared balance at a statement's date beside the statement's balance: from the cleared day totals, never the lines. */
export function reconcileStatus(
  db: LedgerDb,
  accountId: string,
  query: { statement_date: string; statement_balance: string },
) {
  const s = status(db, accountId, query.statement_date, query.statement_balance);
  const money = (m: Minor) => formatMinor(m, s.account.currency);
  return {
    statement_date: query.statement_date,
    statement_balance: money(s.balanceMinor),
    cleared_balance: money(s.clearedMinor),
    difference: money(s.differenceMinor),
    uncleared_count: s.uncleared,
  };
}

function toReconciliationDto(r: Reconciliation, currency: string) {
  return {
    id: r.id,
    account_id: r.accountId,
    statement_date: r.statementDate,
    statement_balance: formatMinor(r.statementBalanceMinor, currency),
    line_count: r.lineCount,
    created_at: r.createdAt,
  };
}

/** Finishes a reconciliation: only at a zero difference, when every cleared line up to the date becomes reconciled. */
export function reconcileAccount(
  db: LedgerDb,
  accountId: string,
  body: { statement_date: string; statement_balance: string },
) {
  return db.transaction(() => {
    const s = status(db, accountId, body.statement_date, body.statement_balance);
    if (s.differenceMinor !== 0n) {
      const money = (m: Minor) => formatMinor(m, s.account.currency);
      throw new DomainError(
        'BALANCE_MISMATCH',
        `The statement balance ${money(s.balanceMinor)} differs from the cleared balance ${money(s.clearedMinor)} by ${money(s.differenceMinor)}; nothing was reconciled`,
      );
    }
    const record: Reconciliation = {
      id: newRowId(),
      accountId: s.account.id,
      statementDate: body.statement_date,
      statementBalanceMinor: s.balanceMinor,
      lineCount: reconcileClearedLines(db, s.account.id, body.statement_date),
      createdAt: new Date().toISOString(),
    };
    insertReconciliation(db, record);
    return toReconciliationDto(record, s.account.currency);
  });
}

export function listReconciliationPage(db: LedgerDb, accountId: string, query: { page: number; per_page: number }) {
  const account = requireAccount(db, accountId);
  const { items, total } = listReconciliations(db, account.id, query.per_page, (query.page - 1) * query.per_page);
  return {
    items: items.map((r) => toReconciliationDto(r, account.currency)),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}

/**
 * Ticks lines cleared (or untick them) by hand. Each must be a line of this account whose entry
 * counts (posted, reversing nothing) and that is not reconciled; otherwise nothing changes and each
 * bad line is named (`line_ids.N`).
 */
export function setCleared(db: LedgerDb, accountId: string, body: { line_ids: string[]; cleared: boolean }) {
  return db.transaction(() => {
    const account = requireAccount(db, accountId);
    const states = lineStates(db, body.line_ids);
    const errors: FieldError[] = [];
    body.line_ids.forEach((id, i) => {
      const line = states.get(id);
      const why =
        !line || line.accountId !== account.id
          ? `is not a line of the account ${account.name}`
          : !line.counted
            ? 'belongs to an entry that is not posted, is void or is a reversal'
            : line.cleared === 'reconciled'
              ? 'is reconciled; a reconciled line stays as it is'
              : !body.cleared && line.matched
                ? 'is matched with a bank line, which clears it; undo the match to untick it'
                : null;
      if (why !== null) errors.push({ field: `line_ids.${i}`, message: why });
    });
    if (errors.length > 0)
      throw new DomainError('VALIDATION_ERROR', `Invalid body: ${errors[0]!.field} ${errors[0]!.message}`, errors);
    setLinesCleared(db, body.line_ids, body.cleared ? 'cleared' : 'uncleared');
    const after = lineStates(db, body.line_ids);
    return { lines: [...new Set(body.line_ids)].map((id) => ({ id, cleared: after.get(id)!.cleared })) };
  });
}

/** The lines left to reconcile up to a statement's date, as the account's balance sees them. */
export function listUnreconciledLines(
  db: LedgerDb,
  accountId: string,
  query: { statement_date: string; page: number; per_page: number },
) {
  const account = requireAccount(db, accountId);
  const { items, total } = unreconciledLines(
    db,
    account.id,
    query.statement_date,
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return {
    items: items.map((l) => ({
      line_id: l.lineId,
      entry_id: l.entryId,
      entry_date: l.entryDate,
      memo: l.memo,
      amount: formatMinor(
        normalBalance(
          account.type,
          l.direction === 'DEBIT' ? l.amountMinor : 0n,
          l.direction === 'CREDIT' ? l.amountMinor : 0n,
        ),
        l.currency,
      ),
      currency: l.currency,
      cleared: l.cleared,
    })),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}

interface DifferenceEntryBody {
  entry_date: string;
  amount: string;
  offset_account_id: string;
  memo?: string | undefined;
}

/** Books the two-line entry that moves the account's balance by `amount`, its line on the account cleared. */
function bookDifference(db: LedgerDb, account: Account, body: DifferenceEntryBody, memo: string) {
  const parsed = parseSignedAmount(body.amount, account.currency);
  if (!('minor' in parsed) || parsed.minor === 0n) {
    const message =
      'minor' in parsed ? 'is zero; there is nothing to book' : 'is not an amount in the account’s currency';
    throw new DomainError('VALIDATION_ERROR', `Invalid amount: ${message}`, [{ field: 'amount', message }]);
  }
  const raises = parsed.minor > 0n;
  const accountSide = raises === isDebitNormal(account.type) ? 'DEBIT' : 'CREDIT';
  const amount = formatMinor(parsed.minor < 0n ? -parsed.minor : parsed.minor, account.currency);
  const entry = createEntry(db, {
    entry_date: body.entry_date,
    memo: body.memo ?? memo,
    auto_post: true,
    lines: [
      { account_id: account.id, direction: accountSide, amount, currency: account.currency },
      {
        account_id: body.offset_account_id,
        direction: accountSide === 'DEBIT' ? 'CREDIT' : 'DEBIT',
        amount,
        currency: account.currency,
      },
    ],
  });
  const own = entry.lines.filter((l) => l.account_id === account.id).map((l) => l.id);
  setLinesCleared(db, own, 'cleared');
  return { ...entry, lines: entry.lines.map((l) => (own.includes(l.id) ? { ...l, cleared: 'cleared' as const } : l)) };
}

function offsetAccount(db: LedgerDb, account: Account, id: string): Account {
  const refuse = (message: string) =>
    new DomainError('VALIDATION_ERROR', `Invalid offset_account_id: ${message}`, [
      { field: 'offset_account_id', message },
    ]);
  if (id === account.id) throw refuse('is the account being reconciled');
  try {
    return requireAccount(db, id);
  } catch {
    throw refuse('is not an account');
  }
}

/**
 * Sets the account's opening balance: an entry against an EQUITY account dated before the
 * account's first line. Refused (409, nothing booked) when an entry already books between the
 * account and equity, or when a line dated on or before the date makes "opening" ambiguous.
 */
export function setOpeningBalance(db: LedgerDb, accountId: string, body: DifferenceEntryBody) {
  return db.transaction(() => {
    const account = requireAccount(db, accountId);
    const equity = offsetAccount(db, account, body.offset_account_id);
    if (equity.type !== 'EQUITY')
      throw new DomainError('VALIDATION_ERROR', 'Invalid offset_account_id: is not an equity account', [
        { field: 'offset_account_id', message: 'is not an equity account' },
      ]);
    if (hasEquityEntry(db, account.id))
      throw new DomainError(
        'OPENING_BALANCE_EXISTS',
        `${account.name} already has an entry against equity (its opening balance); correct that entry instead`,
      );
    const first = firstLineDate(db, account.id);
    if (first !== null && first <= body.entry_date)
      throw new DomainError(
        'OPENING_BALANCE_AMBIGUOUS',
        `${account.name} has lines from ${first}; the opening balance must be dated before its first line`,
      );
    return bookDifference(db, account, body, 'Opening balance');
  });
}

/** Books a reconciliation's difference as an adjustment against the account the user picks. */
export function bookAdjustment(db: LedgerDb, accountId: string, body: DifferenceEntryBody) {
  return db.transaction(() => {
    const account = requireAccount(db, accountId);
    offsetAccount(db, account, body.offset_account_id);
    return bookDifference(db, account, body, 'Reconciliation adjustment');
  });
}
