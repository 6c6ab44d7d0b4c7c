import type { JournalEntryDto } from '../../api/index.ts';
import { currencyDigits, decimalToMinor, formatMinor } from '../../money.ts';

/** The entry's size: its debits per currency, summed exactly ("82.50 USD"). */
export function entryTotals(entry: JournalEntryDto): { currency: string; amount: string }[] {
  const sums = new Map<string, bigint>();
  for (const line of entry.lines) {
    if (line.direction !== 'DEBIT') continue;
    const digits = currencyDigits(line.currency);
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + decimalToMinor(line.amount, digits));
  }
  return [...sums].map(([currency, minor]) => ({ currency, amount: formatMinor(minor, currencyDigits(currency)) }));
}

export function entryAccounts(entry: JournalEntryDto): string {
  return [...new Set(entry.lines.map((l) => l.account_name))].join(', ');
}
