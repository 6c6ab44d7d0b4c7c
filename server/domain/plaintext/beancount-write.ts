import { formatMinor } from '../money.ts';
import { accountPaths } from './names.ts';
import { beancountHolds, beancountString } from './text.ts';
import type { Book, BookAccount, BookEntry, BookPrice, LineSink } from './types.ts';
import { lineAmounts } from './units.ts';

/**
 * A beancount file: `option "operating_currency"` for each currency, an `open` for every account
 * (with its currency as the constraint, and `name:` metadata where the path does not give the name
 * back) dated on the first entry's date, each security as a `commodity`, the prices (currencies'
 * and securities') as `price` directives, every entry in history order (a trade's units at their lot's
 * cost, units.ts), and a `close` for each deactivated account dated on the last entry's date. An
 * exchange's costed lines carry a total price (`@@`); its automatic lines on the currency trading
 * accounts are written too, with `automatic: "trading"` metadata.
 */
export function writeBeancount(book: Book, header: readonly string[] = []): string {
  const out: string[] = [];
  writeBeancountLines(out, book.accounts, book.entries, header, book.prices);
  return out.join('\n');
}

/** The same file as lines to be joined with `\n`, the entries taken one at a time. */
export function writeBeancountLines(
  out: LineSink,
  accounts: readonly BookAccount[],
  entries: Iterable<BookEntry>,
  header: readonly string[] = [],
  prices: readonly BookPrice[] = [],
  commodities: readonly string[] = [],
  securitiesHeld: ReadonlyMap<string, readonly string[]> = new Map(),
): void {
  const paths = accountPaths(accounts, 'beancount');
  for (const line of header) out.push(`; ${line}`);
  if (header.length > 0) out.push('');

  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  for (const currency of currencies) out.push(`option "operating_currency" "${currency}"`);
  if (currencies.length > 0) out.push('');

  // The opens are dated on the first entry: read it before writing them.
  const pending = entries[Symbol.iterator]();
  let next = pending.next();
  const first = next.done ? '1970-01-01' : next.value.date;
  const declared = accounts
    .map((a) => ({ account: a, path: paths.get(a.id)! }))
    .sort((x, y) => (x.path.path < y.path.path ? -1 : 1));
  for (const { account, path } of declared) {
    // an account holding securities in lots takes their units too
    const constraint = [account.currency, ...(securitiesHeld.get(account.id) ?? [])].join(',');
    out.push(`${first} open ${path.path} ${constraint}`);
    if (!path.exact) out.push(`  name: "${beancountString(account.name)}"`);
  }
  if (declared.length > 0) out.push('');

  // securities (docs/investments.md "Interop"), declared so that bean-check knows them
  for (const symbol of commodities) out.push(`${first} commodity ${symbol}`);
  if (commodities.length > 0) out.push('');

  for (const p of prices) out.push(`${p.date} price ${p.from} ${p.rate} ${p.to}`);
  if (prices.length > 0) out.push('');

  const width = Math.min(60, Math.max(20, ...declared.map((d) => d.path.path.length)));
  let last = first;
  for (; !next.done; next = pending.next()) {
    const entry = next.value;
    last = entry.date;
    const memo = entry.memo ?? '';
    const holds = beancountHolds(memo);
    const narration = holds ? memo : memo.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
    out.push(`${entry.date} * "${beancountString(narration)}"`);
    out.push(`  id: "${entry.id}"`);
    if (!holds) out.push(`  memo: "${beancountString(JSON.stringify(memo))}"`);
    if (entry.reversalEntryId) out.push(`  voided-by: "${entry.reversalEntryId}"`);
    if (entry.reversesEntryId) out.push(`  reverses: "${entry.reversesEntryId}"`);
    for (const l of entry.lines) {
      const units = lineAmounts(l, 'beancount');
      if (units) {
        for (const text of units) out.push(`  ${paths.get(l.accountId)!.path.padEnd(width)}  ${text}`);
        continue;
      }
      const text = `${formatMinor(l.direction === 'DEBIT' ? l.amountMinor : -l.amountMinor, l.currency)} ${l.currency}`;
      const cost = l.cost ? ` @@ ${formatMinor(l.cost.amountMinor, l.cost.currency)} ${l.cost.currency}` : '';
      out.push(`  ${paths.get(l.accountId)!.path.padEnd(width)}  ${text.padStart(20)}${cost}`);
      if (l.automatic) out.push('    automatic: "trading"');
    }
    out.push('');
    // a receipt is a document of the entry's first account, on the entry's day
    const first = entry.lines[0];
    for (const document of first ? (entry.documents ?? []) : [])
      out.push(`${entry.date} document ${paths.get(first!.accountId)!.path} "${beancountString(document)}"`);
    if (first && (entry.documents?.length ?? 0) > 0) out.push('');
  }

  const closed = declared.filter((d) => !d.account.isActive);
  for (const { path } of closed) out.push(`${last} close ${path.path}`);
  if (closed.length > 0) out.push('');
}
