import type { AccountDto, JournalEntryDto, LineInput } from '../../api.ts';
import { currencyDigits, entryBalance, formatMinor, parseAmount, type CurrencyBalance } from '../../money.ts';

/** A line as the editor holds it: what the user typed, not yet validated. */
export interface EditableLine {
  key: number;
  accountId: string;
  debit: string;
  credit: string;
  /** an exchange: what the line cost in another currency (the server adds the trading lines) */
  cost: { amount: string; currency: string } | null;
}

export type LineProblem =
  'no-account' | 'no-amount' | 'both' | 'format' | 'digits' | 'zero' | 'inactive' | 'cost' | 'cost-same';

let nextKey = 1;
export function blankLine(): EditableLine {
  return { key: nextKey++, accountId: '', debit: '', credit: '', cost: null };
}

/** A draft's lines as typed; the automatic trading lines are the server's and are made anew. */
export function linesOf(entry: JournalEntryDto): EditableLine[] {
  return entry.lines
    .filter((line) => !line.automatic)
    .map((line) => ({
      key: nextKey++,
      accountId: line.account_id,
      debit: line.direction === 'DEBIT' ? line.amount : '',
      credit: line.direction === 'CREDIT' ? line.amount : '',
      cost: line.cost ? { ...line.cost } : null,
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
  const parsed = parseAmount(debit || credit, currencyDigits(account.currency));
  if (!parsed.ok) return parsed.reason === 'empty' ? 'no-amount' : parsed.reason;
  if (line.cost) {
    if (line.cost.currency === account.currency) return 'cost-same';
    if (!/^[A-Z]{3}$/.test(line.cost.currency) || !parseAmount(line.cost.amount, currencyDigits(line.cost.currency)).ok)
      return 'cost';
  }
  return null;
}

/** What a line weighs in the balance: its cost where it states one, else its own amount. */
function weightOf(line: EditableLine, account: AccountDto): { currency: string; debit: string; credit: string } {
  if (!line.cost) return { currency: account.currency, debit: line.debit, credit: line.credit };
  const side = line.debit.trim() ? 'debit' : 'credit';
  return {
    currency: line.cost.currency,
    debit: side === 'debit' ? line.cost.amount : '',
    credit: side === 'credit' ? line.cost.amount : '',
  };
}

/** The rate an exchange line states: units of the cost currency per unit of the line's, or null. */
export function statedRate(line: EditableLine, account: AccountDto | undefined, decimals = 4): string | null {
  if (!line.cost || !account) return null;
  const digits = currencyDigits(account.currency);
  const costDigits = currencyDigits(line.cost.currency);
  const amount = parseAmount(line.debit.trim() || line.credit.trim(), digits);
  const cost = parseAmount(line.cost.amount, costDigits);
  if (!amount.ok || !cost.ok) return null;
  const scale = 10n ** BigInt(decimals);
  const num = cost.minor * 10n ** BigInt(digits) * scale;
  const den = amount.minor * 10n ** BigInt(costDigits);
  const rounded = (num * 2n + den) / (den * 2n); // half up: the rate is shown, never booked
  return formatMinor(rounded, decimals);
}

export interface EditorCheck {
  /** per currency; difference 0 means balanced */
  balances: CurrencyBalance[];
  problems: Map<number, LineProblem>;
  /** the lines to send */
  filled: EditableLine[];
  ready: boolean;
}

export function checkEntry(lines: readonly EditableLine[], accounts: ReadonlyMap<string, AccountDto>): EditorCheck {
  const problems = new Map<number, LineProblem>();
  const filled = lines.filter((line) => !isBlank(line));
  for (const line of filled) {
    const problem = lineProblem(line, accounts.get(line.accountId));
    if (problem) problems.set(line.key, problem);
  }
  const balances = entryBalance(
    filled.filter((line) => accounts.has(line.accountId)).map((line) => weightOf(line, accounts.get(line.accountId)!)),
  );
  const ready = filled.length >= 2 && problems.size === 0 && balances.every((b) => b.difference === 0n);
  return { balances, problems, filled, ready };
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
  const others = lines
    .filter((l) => l.key !== except && accounts.has(l.accountId))
    .map((l) => weightOf(l, accounts.get(l.accountId)!))
    .filter((w) => w.currency === currency);
  const balance = entryBalance(others)[0];
  if (!balance || balance.difference === 0n) return null;
  const digits = currencyDigits(currency);
  return balance.difference > 0n
    ? { side: 'credit', amount: formatMinor(balance.difference, digits) }
    : { side: 'debit', amount: formatMinor(-balance.difference, digits) };
}

export function toLineInputs(lines: readonly EditableLine[]): LineInput[] {
  return lines.map((line) => ({
    account_id: line.accountId,
    direction: line.debit.trim() ? 'DEBIT' : 'CREDIT',
    amount: line.debit.trim() || line.credit.trim(),
    ...(line.cost && { cost: { amount: line.cost.amount.trim(), currency: line.cost.currency } }),
  }));
}
