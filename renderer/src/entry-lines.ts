import type { AccountDto, JournalEntryDto, LineInput } from './api/index.ts';
import { formatMinor, groupDecimal, parseAmount, plainAmount } from '../../server/contract/money.ts';
import { entryBalance, type CurrencyBalance } from './money.ts';

/** A line as the editor holds it: what the user typed, not yet validated. */
export interface EditableLine {
  key: number;
  accountId: string;
  debit: string;
  credit: string;
}

export type LineProblem = 'no-account' | 'no-amount' | 'both' | 'format' | 'digits' | 'zero' | 'too-large' | 'inactive';

let nextKey = 1;
export function blankLine(): EditableLine {
  return { key: nextKey++, accountId: '', debit: '', credit: '' };
}

export function linesOf(entry: Pick<JournalEntryDto, 'lines'>): EditableLine[] {
  return entry.lines.map((line) => ({
    key: nextKey++,
    accountId: line.account_id,
    debit: line.direction === 'DEBIT' ? groupDecimal(line.amount) : '',
    credit: line.direction === 'CREDIT' ? groupDecimal(line.amount) : '',
  }));
}

export function isBlank(line: EditableLine): boolean {
  return !line.accountId && !line.debit.trim() && !line.credit.trim();
}

/** What is wrong with one line, or null. Blank lines are ignored by the editor. */
export function lineProblem(line: EditableLine, account: AccountDto | undefined): LineProblem | null {
  if (isBlank(line)) return null;
  if (!line.accountId || !account) return 'no-account';
  if (!account.is_active) return 'inactive';
  const debit = line.debit.trim();
  const credit = line.credit.trim();
  if (debit && credit) return 'both';
  if (!debit && !credit) return 'no-amount';
  const parsed = parseAmount(plainAmount(debit || credit), account.currency);
  if ('minor' in parsed) return null;
  return parsed.problem === 'too_large' ? 'too-large' : parsed.problem;
}

export interface EditorCheck {
  /** per currency; difference 0 means balanced */
  balances: CurrencyBalance[];
  problems: Map<number, LineProblem>;
  /** the lines to send */
  filled: EditableLine[];
  /** can be posted: two lines or more, none with a problem, balanced in every currency */
  ready: boolean;
  /** can be kept as a draft: two lines or more, none with a problem (a draft need not balance) */
  draftReady: boolean;
}

export function checkEntry(lines: readonly EditableLine[], accounts: ReadonlyMap<string, AccountDto>): EditorCheck {
  const problems = new Map<number, LineProblem>();
  const filled = lines.filter((line) => !isBlank(line));
  for (const line of filled) {
    const problem = lineProblem(line, accounts.get(line.accountId));
    if (problem) problems.set(line.key, problem);
  }
  const balances = entryBalance(
    filled
      .filter((line) => accounts.has(line.accountId))
      .map((line) => ({ currency: accounts.get(line.accountId)!.currency, debit: line.debit, credit: line.credit })),
  );
  const draftReady = filled.length >= 2 && problems.size === 0;
  const ready = draftReady && balances.every((b) => b.difference === 0n);
  return { balances, problems, filled, ready, draftReady };
}

/**
 * The amount that would balance the other lines in `currency`: which column and how much, or null
 * when they already balance.
 */
export function balancingAmount(
  lines: readonly EditableLine[],
  except: number,
  currency: string,
  accounts: ReadonlyMap<string, AccountDto>,
): { side: 'debit' | 'credit'; amount: string } | null {
  const others = lines.filter((l) => l.key !== except && accounts.get(l.accountId)?.currency === currency);
  const balance = entryBalance(others.map((l) => ({ currency, debit: l.debit, credit: l.credit })))[0];
  if (!balance || balance.difference === 0n) return null;
  return balance.difference > 0n
    ? { side: 'credit', amount: groupDecimal(formatMinor(balance.difference, currency)) }
    : { side: 'debit', amount: groupDecimal(formatMinor(-balance.difference, currency)) };
}

export function toLineInputs(lines: readonly EditableLine[]): LineInput[] {
  return lines.map((line) => ({
    account_id: line.accountId,
    direction: line.debit.trim() ? 'DEBIT' : 'CREDIT',
    amount: plainAmount(line.debit.trim() || line.credit.trim()),
  }));
}
