import type { AccountType, JournalEntryDto } from '../../api/index.ts';
import { formatMinor, parseAmount } from '../../../../server/contract/money.ts';

/** The entry's size: its debits per currency, summed exactly ("82.50 USD"). */
function entryTotals(entry: JournalEntryDto): { currency: string; amount: string }[] {
  const sums = new Map<string, bigint>();
  for (const line of entry.lines) {
    if (line.direction !== 'DEBIT') continue;
    const parsed = parseAmount(line.amount, line.currency);
    if ('minor' in parsed) sums.set(line.currency, (sums.get(line.currency) ?? 0n) + parsed.minor);
  }
  return [...sums].map(([currency, minor]) => ({ currency, amount: formatMinor(minor, currency) }));
}

/** An entry's amount as the journal shows it: signed when it moves money in (+) or out (−), else its size. */
export interface EntryAmount {
  currency: string;
  amount: string;
  /** in: money comes in (or the viewed account rises); out: it goes; null: a size with no direction */
  direction: 'in' | 'out' | null;
}

const RAISED_BY_DEBIT: ReadonlySet<AccountType> = new Set(['ASSET', 'EXPENSE']);
const MONEY: ReadonlySet<AccountType> = new Set(['ASSET', 'LIABILITY']);

/**
 * The entry's amounts for the account being viewed: with `accountId`, that account's lines signed
 * as its register signs them (+ raises its balance); without, the lines on money accounts (assets
 * and liabilities: + money in, − money out), so that a salary and a purchase do not look alike. A
 * transfer between the user's own money accounts nets to nothing and keeps its size, unsigned, as
 * does an entry touching no money account.
 */
export function entryAmounts(
  entry: JournalEntryDto,
  types: ReadonlyMap<string, AccountType>,
  accountId?: string,
): EntryAmount[] {
  const sums = new Map<string, bigint>();
  let counted = false;
  for (const line of entry.lines) {
    const type = types.get(line.account_id);
    if (!type) continue;
    const viewed = accountId ? line.account_id === accountId : MONEY.has(type);
    if (!viewed) continue;
    const parsed = parseAmount(line.amount, line.currency);
    if (!('minor' in parsed)) continue;
    counted = true;
    const up = accountId ? (line.direction === 'DEBIT') === RAISED_BY_DEBIT.has(type) : line.direction === 'DEBIT';
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + (up ? parsed.minor : -parsed.minor));
  }
  const signed = [...sums].filter(([, minor]) => minor !== 0n);
  if (!counted || signed.length === 0) return entryTotals(entry).map((x) => ({ ...x, direction: null }));
  return signed.map(([currency, minor]) => ({
    currency,
    amount: formatMinor(minor < 0n ? -minor : minor, currency),
    direction: minor < 0n ? 'out' : 'in',
  }));
}

/** The entry's accounts, each once, named as the interface names them. */
export function entryAccounts(entry: JournalEntryDto, label: (name: string) => string = (name) => name): string {
  return [...new Set(entry.lines.map((l) => label(l.account_name)))].join(', ');
}

/** How far the bank has confirmed the entry: reconciled when a line is, else cleared when a line is, else null. */
export function entryCleared(entry: JournalEntryDto): 'reconciled' | 'cleared' | null {
  if (entry.lines.some((l) => l.cleared === 'reconciled')) return 'reconciled';
  if (entry.lines.some((l) => l.cleared === 'cleared')) return 'cleared';
  return null;
}
