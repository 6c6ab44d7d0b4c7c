import { currencyDigits, isKnownCurrency } from '../currencies.ts';
import { formatMinor } from '../money.ts';
import { accountPaths } from './names.ts';
import { ledgerDescription } from './text.ts';
import type { Book, BookAccount, BookEntry, BookLine, BookPrice, LineSink } from './types.ts';
import { lineAmounts } from './units.ts';

/**
 * A ledger (`.ledger`) or hledger (`.journal`) file: `commodity` and `account` directives, then
 * every entry in history order with explicit amounts (debits positive, credits negative), each
 * exact to its currency's digits. The two dialects differ only in the commodity directive
 * (hledger wants a sample amount with a decimal mark; ledger the bare symbol). Prices are `P`
 * directives; a trade's units are written at their lot's cost (units.ts); an exchange's costed lines carry `@@ TOTAL`, and its automatic lines on the currency
 * trading accounts are written out too (marked `automatic: trading`), so each currency balances on
 * its own as in the ledger, and the tools' weights balance as well.
 */
export function writeLedgerJournal(book: Book, flavor: 'ledger' | 'hledger', header: readonly string[] = []): string {
  const used = new Set<string>();
  for (const entry of book.entries) for (const l of entry.lines) used.add(l.accountId);
  const out: string[] = [];
  writeLedgerJournalLines(out, book.accounts, book.entries, used, flavor, header, book.prices);
  return out.join('\n');
}

/**
 * The same file as lines to be joined with `\n`, the entries taken one at a time (an export read
 * from the database as it is written). `used`: the accounts the entries have lines on, because the
 * declarations before the entries say which are unused.
 */
export function writeLedgerJournalLines(
  out: LineSink,
  accounts: readonly BookAccount[],
  entries: Iterable<BookEntry>,
  used: ReadonlySet<string>,
  flavor: 'ledger' | 'hledger',
  header: readonly string[] = [],
  prices: readonly BookPrice[] = [],
  commodities: readonly string[] = [],
): void {
  const paths = accountPaths(accounts, flavor);
  for (const line of header) out.push(`; ${line}`);
  if (header.length > 0) out.push('');
  for (const line of ['tag id', 'tag memo', 'tag voided-by', 'tag reverses', 'tag automatic', 'tag attachment', ''])
    out.push(line);

  const currencies = [
    ...new Set([...accounts.map((a) => a.currency), ...prices.flatMap((p) => [p.from, p.to]), ...commodities]),
  ].sort();
  for (const currency of currencies) {
    // a security (docs/investments.md "Interop") is declared without a display precision
    if (flavor === 'ledger' || !isKnownCurrency(currency)) out.push(`commodity ${currency}`);
    else {
      const digits = currencyDigits(currency);
      out.push(`commodity 1000.${'0'.repeat(digits)} ${currency}`);
    }
  }
  if (currencies.length > 0) out.push('');

  const declared = accounts
    .map((a) => ({ account: a, path: paths.get(a.id)! }))
    .sort((x, y) => (x.path.path < y.path.path ? -1 : 1));
  for (const { account, path } of declared) {
    out.push(`account ${path.path}`);
    if (!path.exact) out.push(`    ; name: ${JSON.stringify(account.name)}`);
    if (!used.has(account.id)) out.push(`    ; currency: ${account.currency}`);
  }
  if (declared.length > 0) out.push('');

  for (const p of prices) out.push(`P ${p.date} ${p.from} ${p.rate} ${p.to}`);
  if (prices.length > 0) out.push('');

  const width = Math.min(60, Math.max(20, ...declared.map((d) => d.path.path.length)));
  const amount = (l: BookLine) => formatMinor(l.direction === 'DEBIT' ? l.amountMinor : -l.amountMinor, l.currency);
  for (const entry of entries) {
    const memo = entry.memo ?? '';
    const description = ledgerDescription(memo);
    out.push(`${entry.date} *${description ? ` ${description}` : ''}  ; id: ${entry.id}`);
    if (description !== memo) out.push(`    ; memo: ${JSON.stringify(memo)}`);
    if (entry.reversalEntryId) out.push(`    ; voided-by: ${entry.reversalEntryId}`);
    if (entry.reversesEntryId) out.push(`    ; reverses: ${entry.reversesEntryId}`);
    for (const document of entry.documents ?? []) out.push(`    ; attachment: ${document}`);
    for (const l of entry.lines) {
      const units = lineAmounts(l, flavor);
      if (units) {
        for (const text of units) out.push(`    ${paths.get(l.accountId)!.path.padEnd(width)}  ${text}`);
        continue;
      }
      const text = `${amount(l)} ${l.currency}`;
      const cost = l.cost ? ` @@ ${formatMinor(l.cost.amountMinor, l.cost.currency)} ${l.cost.currency}` : '';
      const mark = l.automatic ? '  ; automatic: trading' : '';
      out.push(`    ${paths.get(l.accountId)!.path.padEnd(width)}  ${text.padStart(20)}${cost}${mark}`);
    }
    out.push('');
  }
}
