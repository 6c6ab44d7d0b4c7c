import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { normalBalance } from '../../domain/double-entry.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseSignedAmount, type Minor } from '../../domain/money.ts';
import type { Account } from '../accounts/accounts.repository.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import {
  clearedTotals,
  insertReconciliation,
  lineStates,
  listReconciliations,
  reconcileClearedLines,
  setLinesCleared,
  unreconciledLines,
  type Reconciliation,
} from './reconciliation.cleared.repository.ts';

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
