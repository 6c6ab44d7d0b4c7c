import type { JournalEntryDto } from '../../api/index.ts';
import { formatMinor, parseAmount } from '../../../../server/contract/money.ts';

/** The entry's size: its debits per currency, summed exactly ("82.50 USD"). */
export function entryTotals(entry: JournalEntryDto): { currency: string; amount: string }[] {
  const sums = new Map<string, bigint>();
  for (const line of entry.lines) {
    if (line.direction !== 'DEBIT') continue;
    const parsed = parseAmount(line.amount, line.currency);
    if ('minor' in parsed) sums.set(line.currency, (sums.get(line.currency) ?? 0n) + parsed.minor);
  }
  return [...sums].map(([currency, minor]) => ({ currency, amount: formatMinor(minor, currency) }));
}

export function entryAccounts(entry: JournalEntryDto): string {
  return [...new Set(entry.lines.map((l) => l.account_name))].join(', ');
}

/** How far the bank has confirmed the entry: reconciled when a line is, else cleared when a line is, else null. */
export function entryCleared(entry: JournalEntryDto): 'reconciled' | 'cleared' | null {
  if (entry.lines.some((l) => l.cleared === 'reconciled')) return 'reconciled';
  if (entry.lines.some((l) => l.cleared === 'cleared')) return 'cleared';
  return null;
}
