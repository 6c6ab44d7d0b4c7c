/**
 * How incoming bank rows become stored ones, for a JSON statement and a bank file alike: the
 * account checked, each amount read in its minor units, the rows de-duplicated against what the
 * account holds, the rules counted, the statement and its new rows stored.
 */
import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type { StatementResultDto } from '../../contract/statements.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { parseAmount, type Minor } from '../../domain/money.ts';
import { normaliseDescription, type RuleSet } from '../../domain/reconciliation/index.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { ruleSetOf } from '../rules/rules.service.ts';
import { existingDedupeKeys, insertBankTransactions, insertStatement } from './statements.repository.ts';
import type { NewBankTransaction, Statement } from './statements.model.ts';
import { toStatementDto } from './statements.dto.ts';

/** Balances signed as the account's balance (CONTRACT §14), and the day of the closing one. */
export interface Balances {
  openingMinor: Minor | null;
  closingMinor: Minor | null;
  closingDate: string | null;
}

export const NO_BALANCES: Balances = { openingMinor: null, closingMinor: null, closingDate: null };

export const PREVIEW_ROWS = 50;

/**
 * How many of the rows (those `count` takes) a rule would book, and which rule books each of the
 * first PREVIEW_ROWS (`null`: none). Rules are applied to every row as it is imported.
 */
export function ruleMatches(
  rules: RuleSet,
  rows: readonly IncomingTransaction[],
  digits: number,
  count: (i: number) => boolean,
) {
  const ids: (string | null)[] = [];
  let matched = 0;
  if (rules.size === 0) return { ids, matched };
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i]!;
    const rule = rules.firstMatch({ description: t.description, type: t.type, amountMinor: t.amountMinor, digits });
    if (i < PREVIEW_ROWS) ids.push(rule?.id ?? null);
    if (rule && count(i)) matched += 1;
  }
  return { ids, matched };
}

/** A statement belongs to an ASSET or LIABILITY account of the user's. */
export function statementAccount(db: LedgerDb, accountId: string): Account {
  let account: Account;
  try {
    account = requireAccount(db, accountId);
  } catch {
    throw new DomainError('INVALID_ACCOUNT', 'The statement account does not exist', [
      { field: 'account_id', message: 'no such account' },
    ]);
  }
  if (account.type !== 'ASSET' && account.type !== 'LIABILITY') {
    throw new DomainError(
      'INVALID_ACCOUNT',
      `Statements belong to ASSET or LIABILITY accounts; ${account.name} is ${account.type}`,
      [{ field: 'account_id', message: 'not an ASSET or LIABILITY account' }],
    );
  }
  return account;
}

export interface IncomingTransaction {
  date: string;
  description: string;
  amountMinor: Minor;
  type: 'debit' | 'credit';
  externalId: string | null;
}

/**
 * Dedupe keys: the external id (FITID) when there is one, otherwise date, type, amount and
 * normalised description; either way numbered by position among equal rows, so that two genuine
 * identical rows stay two while a re-import of either adds nothing.
 */
function dedupeKeys(rows: readonly IncomingTransaction[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const base =
      r.externalId !== null
        ? `ext:${r.externalId}`
        : `row:${r.date}|${r.type}|${r.amountMinor}|${normaliseDescription(r.description)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}#${n}`;
  });
}

export interface Planned {
  incoming: readonly IncomingTransaction[];
  keys: readonly string[];
  /** per incoming transaction: already in the account (1) or new (0) */
  duplicates: Uint8Array;
  newCount: number;
  startDate: string | null;
  endDate: string | null;
}

/**
 * What of `incoming` is new to the account. It holds no second copy of the rows: a statement may
 * hold 100,000 of them, and each stored row is made only as it is inserted (`newRows`).
 */
export function plan(db: LedgerDb, account: Account, incoming: readonly IncomingTransaction[]): Planned {
  const keys = dedupeKeys(incoming);
  const existing = existingDedupeKeys(db, account.id, keys);
  const duplicates = new Uint8Array(incoming.length);
  let newCount = 0;
  let startDate: string | null = null;
  let endDate: string | null = null;
  incoming.forEach((t, i) => {
    if (existing.has(keys[i]!)) duplicates[i] = 1;
    else newCount += 1;
    if (startDate === null || t.date < startDate) startDate = t.date;
    if (endDate === null || t.date > endDate) endDate = t.date;
  });
  return { incoming, keys, duplicates, newCount, startDate, endDate };
}

function* newRows(planned: Planned, statementId: string, accountId: string): Generator<NewBankTransaction> {
  for (let i = 0; i < planned.incoming.length; i++) {
    if (planned.duplicates[i] === 0)
      yield { ...planned.incoming[i]!, id: newRowId(), statementId, accountId, dedupeKey: planned.keys[i]! };
  }
}

/**
 * Stores the statement and its new transactions. When every transaction is already there (a
 * re-import), nothing is stored at all: the answer says so with `id: null`.
 */
export function store(
  db: LedgerDb,
  account: Account,
  statementId: string,
  name: string,
  source: string,
  planned: Planned,
  balances: Balances,
): StatementResultDto {
  const createdAt = new Date().toISOString();
  const statement: Statement = {
    id: statementId,
    accountId: account.id,
    name,
    source,
    importedCount: planned.newCount,
    duplicateCount: planned.incoming.length - planned.newCount,
    startDate: planned.startDate,
    endDate: planned.endDate,
    openingBalanceMinor: balances.openingMinor,
    closingBalanceMinor: balances.closingMinor,
    closingDate: balances.closingDate,
    createdAt,
    currency: account.currency,
  };
  const rules = ruleMatches(
    ruleSetOf(db),
    planned.incoming,
    currencyDigits(account.currency),
    (i) => planned.duplicates[i] === 0,
  );
  if (planned.newCount === 0)
    return { ...toStatementDto(statement), id: null, created_at: null, rule_matched_count: 0 };
  insertStatement(db, statement);
  insertBankTransactions(db, newRows(planned, statementId, account.id), createdAt);
  return { ...toStatementDto(statement), rule_matched_count: rules.matched };
}

export function amountOrFail(
  amount: string,
  currency: string,
  field: string,
  where: string,
  errors: FieldError[],
): Minor | null {
  const parsed = parseAmount(amount, currency);
  if ('minor' in parsed) return parsed.minor;
  const why = {
    format: 'is not a positive decimal',
    digits: `has more decimals than ${currency} allows`,
    zero: 'is zero',
    too_large: 'is too large',
  }[parsed.problem];
  errors.push({ field, message: `${where}amount "${amount}" ${why}` });
  return null;
}
