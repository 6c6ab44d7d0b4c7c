import type { AccountDto, JournalEntryDto, LineInput } from './api/index.ts';
import {
  currencyDigits,
  formatMinor,
  formatScaled,
  groupDecimal,
  isKnownCurrency,
  parseAmount,
  plainAmount,
} from '../../server/contract/money.ts';
import { entryBalance, type CurrencyBalance, type LineAmount } from './money.ts';

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
  'no-account' | 'no-amount' | 'both' | 'format' | 'digits' | 'zero' | 'too-large' | 'inactive' | 'cost' | 'cost-same';

let nextKey = 1;
export function blankLine(): EditableLine {
  return { key: nextKey++, accountId: '', debit: '', credit: '', cost: null };
}

/** A draft's lines as typed; the automatic trading lines are the server's and are made anew. */
export function linesOf(entry: Pick<JournalEntryDto, 'lines'>): EditableLine[] {
  return entry.lines
    .filter((line) => !line.automatic)
    .map((line) => ({
      key: nextKey++,
      accountId: line.account_id,
      debit: line.direction === 'DEBIT' ? groupDecimal(line.amount) : '',
      credit: line.direction === 'CREDIT' ? groupDecimal(line.amount) : '',
      cost: line.cost ? { ...line.cost } : null,
    }));
}

/** Whether a line states a cost: a cost row opened but still empty states none (and is no error yet). */
function hasCost(line: EditableLine): line is EditableLine & { cost: NonNullable<EditableLine['cost']> } {
  return line.cost !== null && line.cost.amount.trim() !== '';
}

function isBlank(line: EditableLine): boolean {
  return !line.accountId && !line.debit.trim() && !line.credit.trim();
}

/** What is wrong with one line, or null. Blank lines are ignored by the editor. */
function lineProblem(line: EditableLine, account: AccountDto | undefined): LineProblem | null {
  if (isBlank(line)) return null;
  if (!line.accountId || !account) return 'no-account';
  if (!account.is_active) return 'inactive';
  const debit = line.debit.trim();
  const credit = line.credit.trim();
  if (debit && credit) return 'both';
  if (!debit && !credit) return 'no-amount';
  const parsed = parseAmount(plainAmount(debit || credit), account.currency);
  if (!('minor' in parsed)) return parsed.problem === 'too_large' ? 'too-large' : parsed.problem;
  if (hasCost(line)) {
    if (line.cost.currency === account.currency) return 'cost-same';
    if (
      !isKnownCurrency(line.cost.currency) ||
      !('minor' in parseAmount(plainAmount(line.cost.amount.trim()), line.cost.currency))
    )
      return 'cost';
  }
  return null;
}

/**
 * What a line weighs in the balance: its cost where it states one, else its own amount; null while
 * its cost's currency is not a known code (the line is flagged on its own).
 */
function weightOf(line: EditableLine, account: AccountDto): LineAmount | null {
  if (!hasCost(line)) return { currency: account.currency, debit: line.debit, credit: line.credit };
  if (!isKnownCurrency(line.cost.currency)) return null;
  const side = line.debit.trim() ? 'debit' : 'credit';
  return {
    currency: line.cost.currency,
    debit: side === 'debit' ? line.cost.amount : '',
    credit: side === 'credit' ? line.cost.amount : '',
  };
}

/** The lines' weights in the balance (lines without an account, or with an unknown cost currency, left out). */
function weightsOf(lines: readonly EditableLine[], accounts: ReadonlyMap<string, AccountDto>): LineAmount[] {
  const out: LineAmount[] = [];
  for (const line of lines) {
    const account = accounts.get(line.accountId);
    const weight = account && weightOf(line, account);
    if (weight) out.push(weight);
  }
  return out;
}

/** The rate an exchange line states: units of the cost currency per unit of the line's, or null. */
export function statedRate(line: EditableLine, account: AccountDto | undefined, decimals = 4): string | null {
  if (!hasCost(line) || !account || !isKnownCurrency(line.cost.currency)) return null;
  return rateBetween(
    line.debit.trim() || line.credit.trim(),
    account.currency,
    line.cost.amount,
    line.cost.currency,
    decimals,
  );
}

/** Units of `toCurrency` per unit of `fromCurrency` that two amounts imply, with `decimals` decimals; null while either is not an amount. */
export function rateBetween(
  fromText: string,
  fromCurrency: string,
  toText: string,
  toCurrency: string,
  decimals = 4,
): string | null {
  const amount = parseAmount(plainAmount(fromText.trim()), fromCurrency);
  const cost = parseAmount(plainAmount(toText.trim()), toCurrency);
  if (!('minor' in amount) || !('minor' in cost)) return null;
  const scale = 10n ** BigInt(decimals);
  const num = cost.minor * 10n ** BigInt(currencyDigits(fromCurrency)) * scale;
  const den = amount.minor * 10n ** BigInt(currencyDigits(toCurrency));
  const rounded = (num * 2n + den) / (den * 2n); // half up: the rate is shown, never booked
  return formatScaled(rounded, decimals);
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
  const balances = entryBalance(weightsOf(filled, accounts));
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
  const others = weightsOf(
    lines.filter((l) => l.key !== except),
    accounts,
  ).filter((w) => w.currency === currency);
  const balance = entryBalance(others)[0];
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
    ...(hasCost(line) && { cost: { amount: plainAmount(line.cost.amount.trim()), currency: line.cost.currency } }),
  }));
}
