import { formatMinor, type Minor } from '../money.ts';
import { invalid } from './errors.ts';
import type { ParsedPosting, ParsedTransaction, ResolvedLine } from './types.ts';

/**
 * A transaction's postings as lines of our model. The one posting that leaves out its amount takes
 * the amount that balances the others (it must balance one currency only: an account holds one
 * currency), each posting with a price weighing its cost as the tools weigh it; positive amounts
 * are debits, negative ones credits; zero postings make no line. Whether the lines balance is
 * checked by the journal's own rule, as for every entry. What the rounding of a security's units
 * times their cost per unit leaves (at most a minor unit per such posting) goes to the last of them,
 * as beancount's tolerance lets it.
 */
export function resolvePostings(txn: ParsedTransaction): ResolvedLine[] {
  let elided: ParsedPosting | undefined;
  // Most transactions are in one currency: sum that one without a map (a bulk import reads millions).
  let currency: string | undefined;
  let sum = 0n;
  let sums: Map<string, Minor> | undefined;
  let anyRounded = false;
  for (const p of txn.postings) {
    if (p.rounded) anyRounded = true;
    if (p.amount === null) {
      if (elided) invalid(p.line, 'only one posting of a transaction may leave out its amount');
      elided = p;
      continue;
    }
    const weight = p.cost
      ? { minor: p.amount.minor < 0n ? -p.cost.minor : p.cost.minor, currency: p.cost.currency }
      : p.amount;
    if (sums === undefined && (currency === undefined || currency === weight.currency)) {
      currency = weight.currency;
      sum += weight.minor;
    } else {
      if (sums === undefined) sums = new Map([[currency!, sum]]);
      sums.set(weight.currency, (sums.get(weight.currency) ?? 0n) + weight.minor);
    }
  }
  let inferred: { minor: Minor; currency: string } | null = null;
  const adjusted = elided || !anyRounded ? null : roundingLeft(txn.postings, sums ?? new Map([[currency!, sum]]));
  if (elided) {
    const open = sums
      ? [...sums].filter(([, s]) => s !== 0n)
      : currency !== undefined && sum !== 0n
        ? [[currency, sum] as const]
        : [];
    if (open.length > 1) {
      const what = open.map(([c, s]) => `${formatMinor(-s, c)} ${c}`).join(' and ');
      invalid(elided.line, `the posting without an amount would take ${what}, but an account holds one currency`);
    }
    if (open.length === 1) inferred = { minor: -open[0]![1], currency: open[0]![0] };
  }
  const lines: ResolvedLine[] = [];
  for (const p of txn.postings) {
    const amount = p === elided ? inferred : (adjusted?.get(p) ?? p.amount);
    if (amount === null || amount.minor === 0n) continue;
    lines.push({
      line: p.line,
      account: p.account,
      direction: amount.minor > 0n ? 'DEBIT' : 'CREDIT',
      amountMinor: amount.minor > 0n ? amount.minor : -amount.minor,
      currency: amount.currency,
      cost: p.cost ? { amountMinor: p.cost.minor, currency: p.cost.currency } : null,
      automatic: p.automatic === true,
      units: p.units ?? null,
    });
  }
  return lines;
}

/** The rounded postings' amounts that take up what their rounding left unbalanced, by posting. */
function roundingLeft(
  postings: readonly ParsedPosting[],
  sums: ReadonlyMap<string, Minor>,
): Map<ParsedPosting, { minor: Minor; currency: string }> | null {
  let out: Map<ParsedPosting, { minor: Minor; currency: string }> | null = null;
  for (const [currency, left] of sums) {
    if (left === 0n) continue;
    const rounded = postings.filter((p) => p.rounded && p.amount?.currency === currency);
    const last = rounded.at(-1);
    if (!last || (left < 0n ? -left : left) > BigInt(rounded.length)) continue;
    (out ??= new Map()).set(last, { minor: last.amount!.minor - left, currency });
  }
  return out;
}
